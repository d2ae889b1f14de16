"""Passages: how a record's text is cut into the sentences that are embedded beside it."""

from __future__ import annotations

import numpy as np

from tiermem.embed import HashingEmbedder
from tiermem.recall.passages import MAX_PASSAGES, embed_with_passages, passages


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
