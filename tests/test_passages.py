"""Passages: how a record's text is cut into the sentences that are embedded beside it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tiermem.embed import E5Embedder, HashingEmbedder, MiniLMEmbedder, Vectors, pools_passages
from tiermem.eval.embed_cache import CachedEmbedder
from tiermem.recall.passages import MAX_PASSAGES, embed_with_passages, passages
from tiermem.server.metrics import Metrics, TimedEmbedder


def test_a_single_sentence_has_no_passages() -> None:
    assert passages("I moved to Denver last spring.") == []
    assert passages("Ines: I was in Lisbon") == []


def test_each_sentence_keeps_the_speaker_label() -> None:
    text = "Ines: I was in Lisbon, it was lovely! The trams were so loud. Nobody minded?"
    assert passages(text) == [
        "Ines: I was in Lisbon, it was lovely!",
        "Ines: The trams were so loud.",
        "Ines: Nobody minded?",
    ]


def test_a_colon_after_a_long_phrase_is_not_a_speaker_label() -> None:
    text = "Here are some tips: pack light. Book early."
    assert passages(text) == ["Here are some tips: pack light.", "Book early."]


def test_a_long_text_is_grouped_into_at_most_max_passages_of_consecutive_sentences() -> None:
    text = " ".join(f"Sentence number {i}." for i in range(40))
    parts = passages(text)
    assert len(parts) <= MAX_PASSAGES
    assert " ".join(parts) == text  # nothing lost, order kept


def test_embed_with_passages_lines_vectors_up_with_their_texts() -> None:
    emb = HashingEmbedder(dim=64)
    texts = ["one sentence only", "First part. Second part.", "also single"]
    vectors, parts = embed_with_passages(emb, texts)
    assert np.allclose(vectors, emb.embed_batch(texts))
    assert parts[0] is None and parts[2] is None
    assert parts[1] is not None and np.allclose(parts[1], emb.embed_batch(["First part.", "Second part."]))


class _Recording:
    """A hashing embedder that remembers every text it was asked to embed."""

    def __init__(self, *, pools: bool = True) -> None:
        self.inner = HashingEmbedder(dim=64)
        self.seen: list[str] = []
        self.pools_passages = pools

    @property
    def dim(self) -> int:
        return self.inner.dim

    @property
    def fingerprint(self) -> str:
        return self.inner.fingerprint

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.seen.extend(texts)
        return self.inner.embed_batch(texts)


def test_a_multi_sentence_text_gets_the_normalised_mean_of_its_passages_without_a_model_pass() -> None:
    emb = _Recording()
    text = "Juno: The ferry leaves at noon on weekdays. Bring a coat."
    vectors, parts = embed_with_passages(emb, ["single line here", text])
    assert text not in emb.seen and "single line here" in emb.seen
    assert parts[1] is not None
    mean = parts[1].mean(axis=0)
    assert np.allclose(vectors[1], mean / np.linalg.norm(mean), atol=1e-6)
    assert np.isclose(float(np.linalg.norm(vectors[1])), 1.0) and vectors.dtype == np.float32


def test_an_embedder_that_does_not_pool_passages_embeds_the_whole_text_too() -> None:
    emb = _Recording(pools=False)
    text = "Juno: The ferry leaves at noon on weekdays. Bring a coat."
    vectors, parts = embed_with_passages(emb, ["single line here", text])
    assert text in emb.seen and "single line here" in emb.seen
    assert parts[0] is None and parts[1] is not None and len(parts[1]) == 2
    assert np.allclose(vectors, emb.inner.embed_batch(["single line here", text]))


def test_a_transcript_line_is_embedded_told_in_the_third_person() -> None:
    emb = _Recording()
    line = "Juno: I fixed my bike. The chain was rusty."
    stored = [line, "Juno: Sounds fun!", "I fixed the gate."]
    vectors, parts = embed_with_passages(emb, stored)
    told = ["Juno fixed Juno's bike.", "Juno: The chain was rusty."]  # a sentence without "I" keeps its label
    assert emb.seen == ["Juno: Sounds fun!", "I fixed the gate.", *told]
    assert parts[0] is not None and np.allclose(parts[0], emb.inner.embed_batch(emb.seen[2:]))
    assert np.allclose(vectors[1:], emb.inner.embed_batch(stored[1:]))  # no word of the speaker's own: as written


def test_minilm_pools_passages_and_e5_does_not() -> None:
    assert pools_passages(MiniLMEmbedder()) and not pools_passages(E5Embedder())
    assert not pools_passages(HashingEmbedder())


def test_wrappers_of_a_pooling_embedder_pool_passages_too(tmp_path: Path) -> None:
    # The eval's cache and the server's timer wrap the model: they must make the vectors the library makes.
    assert pools_passages(CachedEmbedder(MiniLMEmbedder(), tmp_path))
    assert pools_passages(TimedEmbedder(MiniLMEmbedder(), Metrics()))
    assert not pools_passages(CachedEmbedder(HashingEmbedder(), tmp_path / "h"))
