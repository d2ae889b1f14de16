"""(internal) What a keyword query reads of a scope's full-text rows, read once per scope generation.

A scope's document count and tokens feed its BM25 (``bm25.py``); each row's length, id, validity and expiry let a
keyword query whose filter reads only those (and tags, whose rows are read once per tag set and kept with the
rows) read just the matching rowids from FTS5, with no join to the records.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from tiermem.store.sqlite.bm25 import FloatArray, ScopeTextStats, docsize_lengths, docsize_total
from tiermem.types import Filter, Scope

__all__ = ["ScopeText", "SortedIds", "admits", "held_filter", "positions", "read_scope_text"]


@dataclass(frozen=True, slots=True)
class ScopeText:
    """A (tenant, user)'s full-text rows: their count and tokens, and by ascending rowid each row's length (all
    columns), record id, end of validity and expiry (stored seconds; +inf: none)."""

    stats: ScopeTextStats
    rowids: npt.NDArray[np.int64]
    lengths: FloatArray
    ids: npt.NDArray[np.object_]
    valid_to: FloatArray
    expires_at: FloatArray
    # Per tag set, which rows hold one of its tags: true as long as these rows are (the same generation).
    tagged: dict[tuple[str, ...], npt.NDArray[np.bool_]] = field(default_factory=dict, compare=False)
    # Each record id's row, made on the first ``write_places``.
    rows_of: dict[str, int] = field(default_factory=dict, compare=False)

    def places(self, rowids: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
        """Where each of ``rowids`` is held, and which of them are."""
        return positions(self.rowids, rowids)

    def write_places(self, record_ids: Sequence[str], window: int) -> dict[str, int]:
        """``Store.write_places`` from these rows: every record has one, so the records between two of them are
        the rows between (what the store's SQL counts, at most ``window + 1`` a gap)."""
        if not self.rows_of and self.ids.size:
            self.rows_of.update(zip(self.ids.tolist(), range(self.ids.size), strict=True))
        rows_of = self.rows_of
        held = sorted((row, rid) for rid in dict.fromkeys(record_ids) if (row := rows_of.get(rid)) is not None)
        out: dict[str, int] = {}
        place, before = 0, 0
        for i, (row, rid) in enumerate(held):  # ``rid`` is the id held at ``row``: ``rows_of`` maps one to the other
            if i:
                place += 1 + min(row - before - 1, window + 1)
            out[rid] = place
            before = row
        return out


@dataclass(frozen=True, slots=True)
class SortedIds:
    """Row ids as given, the order that sorts them, and the sorted ids ``positions`` searches."""

    ids: npt.NDArray[np.int64]
    order: npt.NDArray[np.intp]
    ordered: npt.NDArray[np.int64]

    @classmethod
    def of(cls, rowids: Sequence[int]) -> SortedIds:
        ids = np.array(rowids, dtype=np.int64)
        order = np.argsort(ids)
        return cls(ids, order, ids[order])


def positions(
    ordered: npt.NDArray[np.int64], wanted: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """Where each of ``wanted`` is in the ascending ``ordered``, and which of them are there at all."""
    places = np.searchsorted(ordered, wanted)
    found = places < ordered.size
    found[found] = ordered[places[found]] == wanted[found]
    return places, found


def read_scope_text(conn: sqlite3.Connection, key: tuple[str, str]) -> ScopeText:
    """The (tenant, user)'s full-text rows as the file holds them now."""
    # No end of validity or expiry reads as +inf (9e999): later than any moment, as NULL is in ``filter_sql``.
    rows = conn.execute(
        "SELECT r.rowid, d.sz, r.id, COALESCE(r.valid_to, 9e999), COALESCE(r.expires_at, 9e999) FROM records r"
        " JOIN records_fts_docsize d ON d.id = r.rowid WHERE r.tenant = ? AND r.user_key = ?",
        key,
    ).fetchall()
    if not rows:
        none = np.zeros(0, dtype=np.float64)
        return ScopeText(ScopeTextStats(0, 0), np.zeros(0, dtype=np.int64), none, np.zeros(0, dtype=object), none, none)
    rowids, sizes, ids, valid_to, expires = zip(*rows, strict=True)
    order = np.argsort(np.array(rowids, dtype=np.int64), kind="stable")
    return ScopeText(
        ScopeTextStats(len(sizes), docsize_total(sizes)),
        np.array(rowids, dtype=np.int64)[order],
        docsize_lengths(sizes)[order],
        np.array(ids, dtype=object)[order],
        np.array(valid_to, dtype=np.float64)[order],
        np.array(expires, dtype=np.float64)[order],
    )


def held_filter(scope: Scope, filter_: Filter) -> bool:
    """Whether ``scope_sql`` and ``filter_sql`` admit a row of the (tenant, user) by its validity, expiry and
    tags alone (no agent, session, type, source, time range or ``as_of``)."""
    f = filter_
    plain = not (f.types or f.sources) and f.time_from is None and f.time_to is None and f.as_of is None
    return plain and scope.agent is None and scope.session is None


def admits(
    text: ScopeText,
    places: npt.NDArray[np.intp],
    filter_: Filter,
    now: datetime,
    tagged: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.bool_]:
    """Which of the rows at ``places`` ``filter_sql`` admits (a ``held_filter``): not expired, unless closed facts
    are wanted not closed, at ``now`` (in the stored seconds), and holding one of its tags (``tagged``, by row)."""
    at = now.timestamp()
    out: npt.NDArray[np.bool_] = text.expires_at[places] > at
    if not filter_.with_closed:
        out &= text.valid_to[places] > at
    if tagged is not None:
        out &= tagged[places]
    return out
