"""Search context from neighbouring turns: a reply such as "Yes, last Sunday!" is found by what it answers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tiermem.write.path import NewMemory

__all__ = ["MAX_NEIGHBOUR_WORDS", "neighbour_context", "quoted_lines", "with_neighbours"]

# Per neighbour, the words nearest the turn: enough for a question or the start of an answer, short enough
# that a long neighbour does not lengthen the turn's full-text row much (bm25 normalises by row length).
MAX_NEIGHBOUR_WORDS = 48


def neighbour_context(
    texts: Sequence[str], index: int, *, before: int = 1, after: int = 0, max_words: int = MAX_NEIGHBOUR_WORDS
) -> str | None:
    """The text around ``texts[index]``: the ends of up to ``before`` earlier and ``after`` later texts."""
    parts: list[str] = []
    for j in range(max(0, index - before), index):
        words = texts[j].split()
        parts.append(" ".join(words[-max_words:]))  # the end of an earlier turn is what this one follows
    for j in range(index + 1, min(len(texts), index + 1 + after)):
        words = texts[j].split()
        parts.append(" ".join(words[:max_words]))  # the start of a later turn is what answers this one
    joined = "\n".join(p for p in parts if p)
    return joined or None


def with_neighbours(
    items: Sequence[NewMemory], *, before: int = 1, after: int = 0, max_words: int = MAX_NEIGHBOUR_WORDS
) -> list[NewMemory]:
    """``items`` (one conversation, in order) each with its neighbours' text as search context."""
    texts = [item.content for item in items]
    return [
        replace(item, context=neighbour_context(texts, i, before=before, after=after, max_words=max_words))
        for i, item in enumerate(items)
    ]


def quoted_lines(text: str, *, max_words: int = MAX_NEIGHBOUR_WORDS) -> frozenset[str]:
    """The lines ``neighbour_context`` takes from ``text`` into other records' context: its end and its start."""
    words = text.split()
    return frozenset(line for line in (" ".join(words[-max_words:]), " ".join(words[:max_words])) if line)
