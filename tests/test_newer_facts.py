"""The newer-facts-first rule on hand-made hits, with vectors chosen so each case is exact."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np

from tiermem.embed import Vectors
from tiermem.english.statements import asked as _asked
from tiermem.recall.newer import newer_rows_first
from tiermem.recall.rows import rows_of
from tiermem.types import Hit, MemoryRecord, MemoryType, Scope, Source, SourceKind

SCOPE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=UTC)


class _Vectors:
    """Just what the rule reads of a store: records by id and their vectors."""

    def __init__(self, records: Sequence[MemoryRecord], vectors: dict[str, Vectors]) -> None:
        self.records = {r.id: r for r in records}
        self.vectors = vectors

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        return {i: self.records[i] for i in record_ids if i in self.records}

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        return {i: self.vectors[i] for i in record_ids if i in self.vectors}


def _record(rid: str, content: str, minutes: int) -> MemoryRecord:
    return MemoryRecord(
        rid, SCOPE, MemoryType.SEMANTIC, content, Source(SourceKind.USER), 1.0, T0, T0 + timedelta(minutes=minutes), rid
    )


def _unit(*xs: float) -> Vectors:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def _rank(cases: list[tuple[str, str, int, float, Vectors]], query: str) -> list[str]:
    records = [_record(rid, content, minutes) for rid, content, minutes, _, _ in cases]
    hits = [Hit(r, score, ()) for r, (_, _, _, score, _) in zip(records, cases, strict=True)]
    store = _Vectors(records, {rid: v for rid, _, _, _, v in cases})
    ranked = newer_rows_first(
        store, SCOPE, rows_of(hits), update_cosine=0.5, competing_ratio=0.9, asked=lambda: _asked(query)
    )
    return [row.record.id for row in ranked]


def test_a_lifted_fact_stays_below_a_newer_fact_tied_above_the_older_one() -> None:
    # The newest fact already ties the old one at the top; lifting a middle fact above the old one must not
    # carry it past the newest (an equal score times 1 + 1e-6 used to).
    same = _unit(1, 0, 0)
    cases = [
        ("new", "Bo Lind plans a career in engineering.", 10, 0.94, same),
        ("old", "Bo Lind plans a career in design.", 1, 0.94, same),
        ("mid", "Bo Lind plans a career in teaching.", 9, 0.88, same),
    ]
    assert _rank(cases, "In which field does Bo Lind plan a career?") == ["new", "mid", "old"]
