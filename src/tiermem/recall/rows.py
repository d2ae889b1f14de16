"""(internal) A hit while recall ranks it: a mutable row whose score parts become ``ScorePart`` values only if it
is returned.

Recall re-scores a short list of 30 or more records through several stages and returns k of them. Built as
``Hit`` values, every stage would make a new hit and part tuple for each record; as rows, a stage changes the
score in place and notes its part, and only the k rows returned are turned into hits (``Row.hit``). A row's
first parts are its fused lists' (made from the ``FusedList`` when asked) or the parts of the hit it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from tiermem.recall.factors import ScoreFactor
from tiermem.recall.fusion import FusedList
from tiermem.recall.query import Query
from tiermem.types import Hit, MemoryRecord, ScorePart

__all__ = ["Explained", "Part", "Ranked", "Row", "hits_of", "parts_of", "rows_of"]


@dataclass(frozen=True, slots=True, eq=False)  # one per factor and recall, told apart by identity
class Explained:
    """The part a factor gives a row, made only if the row is returned: a factor whose parts change no score for
    this question (``explains_only``, such as recency at weight 0) only explains, so nothing else reads them."""

    factor: ScoreFactor
    question: Query

    def part(self, record: MemoryRecord) -> ScorePart:
        """The factor's part of ``record``."""
        return self.factor.parts(self.question, {record.id: record})[record.id]


Part = ScorePart | tuple[str, int | None, float | None, float] | Explained
"""A score part, the four values of one made when its row is returned (name, rank, raw, contribution), or a
factor's part made then."""


class Ranked(Protocol):
    """A hit or a row: what the evidence stages read of one."""

    @property
    def record(self) -> MemoryRecord: ...

    @property
    def score(self) -> float: ...


_CURRENT_VERSION = ScorePart("current_version", None, None, 1.0)


class Row:
    """A record with its score so far, the parts that made it, its flags and relevance (see the module)."""

    __slots__ = ("_base", "_credited", "_fused", "added", "flags", "record", "relevance", "score")

    def __init__(
        self,
        record: MemoryRecord,
        score: float,
        base: tuple[ScorePart, ...] = (),
        flags: tuple[str, ...] = (),
        relevance: float | None = None,
        fused: FusedList | None = None,
        credited: bool = False,
    ) -> None:
        self.record = record
        self.score = score
        self.flags = flags
        self.relevance = relevance
        self.added: list[Part] = []
        self._base = base
        self._fused = fused  # the fused lists whose parts come first (``base`` is then unused)
        self._credited = credited  # given a closed fact's match (a ``current_version`` part after the lists')

    def parts(self, made: Mapping[Explained, Mapping[str, ScorePart]] | None = None) -> tuple[ScorePart, ...]:
        """Every part of the row, in the order they were added; ``made``: factors' parts already made for it."""
        if self._fused is not None:
            base = self._fused.parts(self.record.id)
            if self._credited:
                base.append(_CURRENT_VERSION)
        else:
            base = list(self._base)
        record = self.record
        for p in self.added:
            if isinstance(p, ScorePart):
                base.append(p)
            elif isinstance(p, Explained):
                known = made.get(p) if made is not None else None
                base.append(known[record.id] if known is not None else p.part(record))
            else:
                base.append(ScorePart(*p))
        return tuple(base)

    def hit(self) -> Hit:
        """The row as the hit recall returns."""
        return Hit(self.record, self.score, self.parts(), self.flags, self.relevance)


def parts_of(rows: Sequence[Row]) -> list[tuple[ScorePart, ...]]:
    """``Row.parts`` of each row, each factor that only explains asked once for all of them."""
    wanted: dict[Explained, dict[str, MemoryRecord]] = {}
    for row in rows:
        for p in row.added:
            if isinstance(p, Explained):
                wanted.setdefault(p, {})[row.record.id] = row.record
    made = {p: p.factor.parts(p.question, records) for p, records in wanted.items()}
    return [row.parts(made) for row in rows]


def rows_of(hits: Iterable[Hit]) -> list[Row]:
    """Hits as rows (for a stage that re-scores rows, given hits)."""
    return [Row(h.record, h.score, h.parts, h.flags, h.relevance) for h in hits]


def hits_of(rows: Sequence[Row]) -> list[Hit]:
    """Rows as hits."""
    return [row.hit() for row in rows]
