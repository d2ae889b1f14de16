"""(internal) What ranking reads of a record itself, worked out once per record object rather than once per query.

A store hands out the same immutable record objects question after question (the SQLite store keeps them per
scope generation), and ranking asks each of them the same things every time: who said it, whether it is a
transcript line, its words, its stored verdict. ``per_record`` keeps such an answer with the record object it
came from, for the last ``KEPT`` records: a store that builds new objects (another generation, PostgreSQL) gets
fresh answers, because the cache compares the object itself, never its id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from tiermem.trust.injection import ScanLevel, quarantined, stored_level
from tiermem.types import MemoryRecord, SourceKind

__all__ = ["KEPT", "Talk", "is_quarantined", "per_record", "talk", "verdict"]

KEPT = 8192  # records each answer is kept for; past it that cache starts again

T = TypeVar("T")


class Talk(NamedTuple):
    """A turn's words, the words of its search context's last line (the turn before it; None without one), and
    where it was said: its session and the kind of its source."""

    words: list[str]
    quoted: list[str] | None
    where: tuple[str | None, SourceKind]


def per_record(compute: Callable[[MemoryRecord], T]) -> Callable[[MemoryRecord], T]:
    """``compute`` remembered per record object (it must read nothing but the record)."""
    # Keyed by the object's identity and holding the object, so the identity cannot be reused while kept.
    # Threads may race on an entry: each computes the same answer, and dict operations are atomic.
    kept: dict[int, tuple[MemoryRecord, T]] = {}

    def remembered(record: MemoryRecord) -> T:
        entry = kept.get(id(record))
        if entry is not None and entry[0] is record:
            return entry[1]
        value = compute(record)
        if len(kept) >= KEPT:
            kept.clear()
        kept[id(record)] = (record, value)
        return value

    remembered.__doc__ = compute.__doc__
    remembered.__name__ = compute.__name__
    return remembered


@per_record
def talk(record: MemoryRecord) -> Talk:
    """What neighbour evidence reads of a turn (read only: shared by every question)."""
    context = record.context
    return Talk(
        record.content.split(),
        context.splitlines()[-1].split() if context else None,
        (record.scope.session, record.source.kind),
    )


@per_record
def verdict(record: MemoryRecord) -> ScanLevel | None:
    """``trust.injection.stored_level`` of the record."""
    return stored_level(record)


@per_record
def is_quarantined(record: MemoryRecord) -> bool:
    """``trust.injection.quarantined`` of the record (its stored verdict, or the read-time check of its text)."""
    return quarantined(record)
