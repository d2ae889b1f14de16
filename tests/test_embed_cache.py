"""The eval embedding cache: a vector is computed once per model and text, and reused across runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tiermem.cli.main import cli
from tiermem.embed import HashingEmbedder, Vectors
from tiermem.errors import ConfigError
from tiermem.eval.embed_cache import CachedEmbedder, cache_key


class CountingEmbedder(HashingEmbedder):
    """A hashing embedder that remembers which texts it was asked to embed."""

    def __init__(self, name: str = "hash") -> None:
        super().__init__(name=name)
        self.seen: list[str] = []

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.seen += texts
        return super().embed_batch(texts)


def test_cached_vectors_equal_fresh_ones_and_are_computed_once(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, tmp_path)
    first = cached.embed_batch(["alpha beta", "gamma", "alpha beta"])
    again = cached.embed_batch(["gamma", "delta", "alpha beta"])
    cached.close()
    assert inner.seen == ["alpha beta", "gamma", "delta"]
    np.testing.assert_array_equal(first, HashingEmbedder().embed_batch(["alpha beta", "gamma", "alpha beta"]))
    np.testing.assert_array_equal(again, HashingEmbedder().embed_batch(["gamma", "delta", "alpha beta"]))
    assert cached.fingerprint == inner.fingerprint and cached.dim == inner.dim


def test_cache_survives_reopening_and_is_keyed_by_model(tmp_path: Path) -> None:
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_batch(["alpha"])
    same = CountingEmbedder()
    CachedEmbedder(same, tmp_path).embed_batch(["alpha"])
    other = CountingEmbedder(name="other-model")
    CachedEmbedder(other, tmp_path).embed_batch(["alpha"])
    assert same.seen == [] and other.seen == ["alpha"]
    assert cache_key("m", "alpha") != cache_key("n", "alpha") != cache_key("m", "alphA")


def test_eval_with_embed_cache_gives_the_same_scores_twice(tmp_path: Path) -> None:
    path = tmp_path / "update.jsonl"
    line = (
        '{"input": "Where does Ana live?", "ground_truth": "Lyon", "agent_args": {"extra": {"facts":'
        ' ["Ana lives in Paris.", "Ana likes tea."], "supporting_fact_indices": [0],'
        ' "contradicting_fact": "Ana lives in Lyon."}}}\n'
    )
    path.write_text(line, encoding="utf-8")
    # Through the tiermem command, as users run it: a subgroup invoked alone keeps a help option without -h.
    args = ["eval", "update", str(path), "--json", "--embedder", "hash", "--embed-cache", str(tmp_path / "cache")]
    outputs = [CliRunner().invoke(cli, args) for _ in range(2)]
    assert all(o.exit_code == 0 for o in outputs), outputs[0].output
    assert (tmp_path / "cache" / "embeddings.sqlite3").exists()
    strip = [o.output.split('"timing"')[0] for o in outputs]
    assert strip[0] == strip[1]


def test_a_cache_folder_whose_file_cannot_be_opened_is_a_config_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "embeddings.sqlite3").mkdir()  # a folder where the file should be
    with pytest.raises(ConfigError, match=r"embeddings\.sqlite3"):
        CachedEmbedder(CountingEmbedder(), tmp_path)
