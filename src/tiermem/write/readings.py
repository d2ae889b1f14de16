"""(internal) The statement readings ``supersede.decide`` asks of one text, remembered per text.

A new fact is compared with up to five stored neighbours, and a stored fact is a neighbour of many new ones;
each comparison read both texts again (content words, values, subject, slot...): most of a write's time outside
the model. These readers are pure functions of the text, so a bounded cache keeps the decisions identical.
Sets come back frozen: a cached reading is shared and must not be changed by a caller.
"""

from __future__ import annotations

from functools import lru_cache

from tiermem.english import statements

__all__ = [
    "accumulates",
    "clauses_of",
    "content_words",
    "is_negated",
    "names_in",
    "slot_after_relation",
    "subject_of",
    "values_of",
]

# Texts read recently: a batch's new facts and their neighbours fit many times over; a text is at most 16,000
# characters, so the cache holds at most a few MB.
_SIZE = 1024


@lru_cache(maxsize=_SIZE)
def content_words(text: str) -> frozenset[str]:
    """``statements.content_words``, cached."""
    return frozenset(statements.content_words(text))


@lru_cache(maxsize=_SIZE)
def values_of(text: str) -> frozenset[str]:
    """``statements.values_of``, cached."""
    return frozenset(statements.values_of(text))


@lru_cache(maxsize=_SIZE)
def names_in(text: str) -> frozenset[str]:
    """``statements.names_in``, cached."""
    return frozenset(statements.names_in(text))


@lru_cache(maxsize=_SIZE)
def subject_of(text: str) -> str | None:
    """``statements.subject_of``, cached."""
    return statements.subject_of(text)


@lru_cache(maxsize=_SIZE)
def accumulates(text: str) -> bool:
    """``statements.accumulates``, cached."""
    return statements.accumulates(text)


@lru_cache(maxsize=_SIZE)
def slot_after_relation(text: str) -> str | None:
    """The slot ``text`` fills once a leading 'my <relation>' is set aside (``statements.slot_of``), cached."""
    return statements.slot_of(statements.after_relation(text))


@lru_cache(maxsize=_SIZE)
def is_negated(text: str) -> bool:
    """Whether ``text`` holds a negation (``statements.NEGATION``), cached: every comparison asks it of both."""
    return statements.NEGATION.search(text) is not None


@lru_cache(maxsize=_SIZE)
def clauses_of(text: str) -> tuple[str, ...]:
    """``text`` split at its clause boundaries (``statements.CLAUSE``), each stripped of spaces and commas, cached."""
    return tuple(c.strip(" ,") for c in statements.CLAUSE.split(text))
