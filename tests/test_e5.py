"""The multilingual e5 embedder: its own prefixes for queries and stored texts, kept apart in the eval cache."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from tiermem.embed import E5Embedder, HashingEmbedder, Vectors, embed_queries, get_embedder
from tiermem.eval.embed_cache import CachedEmbedder


class _Prefixed(HashingEmbedder):
    """A hashing embedder that, like e5, embeds a query apart from the same text stored."""

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self.embed_batch([f"query {t}" for t in texts])


def test_the_cache_keeps_a_query_apart_from_the_same_text_stored(tmp_path: Path) -> None:
    cached = CachedEmbedder(_Prefixed(), tmp_path)
    stored, asked = cached.embed_batch(["red bicycle"])[0], embed_queries(cached, ["red bicycle"])[0]
    assert not np.allclose(stored, asked)
    assert np.allclose(embed_queries(cached, ["red bicycle"])[0], asked) and cached.hits == 1
    cached.close()


def test_a_plain_embedder_embeds_queries_as_texts() -> None:
    plain = HashingEmbedder()
    assert np.allclose(embed_queries(plain, ["red bicycle"]), plain.embed_batch(["red bicycle"]))


@pytest.mark.parametrize("name", ["e5", "multilingual"])
def test_e5_is_chosen_by_name(name: str) -> None:
    embedder = get_embedder(name)
    assert isinstance(embedder, E5Embedder) and embedder.fingerprint == "multilingual-e5-small-q4-384"


@pytest.mark.slow
def test_e5_finds_the_same_meaning_across_languages() -> None:
    e5 = E5Embedder()
    notes = e5.embed_batch(["Mein Hund heißt Bello.", "私の犬の名前はポチです。", "Das Wetter ist heute kalt."])
    query = embed_queries(e5, ["what is my dog called?"])[0]
    cosines = notes @ query
    assert notes.shape == (3, 384) and np.allclose(np.linalg.norm(notes, axis=1), 1.0, atol=1e-4)
    assert min(cosines[0], cosines[1]) > cosines[2]
    assert not np.allclose(embed_queries(e5, ["Mein Hund heißt Bello."])[0], notes[0])  # query: vs passage:
