"""(internal) A store capability: a recall's candidate lists and every read its ranking makes, fetched at once.

A recall reads the store many times: the full-text and vector lists, then for the records it ranks their rows,
vectors, successors (a closed fact's current version), predecessors and places in the write order, and the
query words' counts. A store that implements ``OneTripRecall`` fetches all of that in one transaction for every
candidate (more than the ranking will read, fewer round trips), and ``Prefetched`` answers the ranking's reads
from it; anything it did not fetch (a successor chain deeper than it followed, say) is read from the store.
A store without the capability (SQLite, whose reads cost no round trip) is read as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from tiermem.embed import Vectors
from tiermem.store.base import Candidate, Store
from tiermem.store.write_order import places
from tiermem.types import Filter, MemoryRecord, Scope

__all__ = ["OneTripRecall", "Prefetched", "RecallAsk", "RecallReads", "VectorFor"]

VectorFor = Callable[[str | None], Vectors | None]
"""Given the scope's embedding fingerprint (None: it holds no vectors), the query's vector to search it with, or
None for no vector search (waits for the model while it embeds)."""


@dataclass(frozen=True, slots=True)
class RecallAsk:
    """What a recall asks of the store: its lists' terms, their filter at a moment, and the stream window."""

    scope: Scope
    filter_: Filter
    now: datetime
    limit: int  # candidates per list
    terms: tuple[str, ...]  # the full-text list's terms, also the ones the relevance floor counts
    pairs: tuple[str, ...]  # the phrase list's terms
    window: int  # session evidence's stream window (``Store.write_places``)


@dataclass(frozen=True, slots=True)
class Prefetched:
    """What a store read for a recall's ranking besides the lists, and which questions that answers."""

    records: Mapping[str, MemoryRecord] = field(default_factory=dict)
    looked_up: frozenset[str] = frozenset()  # ids whose record (or its absence) ``records`` holds
    order: Mapping[str, int] = field(default_factory=dict)  # each record's insertion key
    vectors: Mapping[str, Vectors] = field(default_factory=dict)  # own vectors of some of them
    vectors_of: frozenset[str] = frozenset()  # ids whose own vector (or its absence) ``vectors`` holds
    successors_of: frozenset[str] = frozenset()  # ids all of whose successors ``records`` holds
    gaps: Sequence[tuple[str, int, int]] = ()  # (id, key, the user's records before it since the one before)
    window: int = 0  # the gaps are counted up to window + 1
    counted: tuple[str, ...] | None = None  # the terms ``term_counts`` counts
    term_counts: tuple[int, dict[str, int]] = (0, {})


@dataclass(frozen=True, slots=True)
class RecallReads:
    """A recall's candidate lists (best first), the scope's fingerprint and vector searched, and the rest read."""

    keyword: list[Candidate]
    phrase: list[Candidate]
    vector: list[Candidate]
    fingerprint: str | None  # the model whose vectors were searched (None: no vector search)
    query_vector: Vectors | None
    prefetched: Prefetched


@runtime_checkable
class OneTripRecall(Protocol):
    """An optional capability: the lists and reads of a recall in one transaction (see the module docstring)."""

    def recall_reads(self, ask: RecallAsk, vector_for: VectorFor) -> RecallReads:
        """The lists of ``ask`` and, for every candidate, what ranking reads of it."""
        ...


class ReadThrough:
    """``store`` answering a recall's reads of ``scope`` from what was prefetched, the rest from the store."""

    def __init__(self, store: Store, scope: Scope, fetched: Prefetched) -> None:
        self._store, self._scope, self._fetched = store, scope, fetched

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        return self.get_many(scope, [record_id]).get(record_id)

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        if scope != self._scope:
            return self._store.get_many(scope, record_ids)
        known = self._fetched.records
        out = {rid: known[rid] for rid in record_ids if rid in known}
        missing = [rid for rid in record_ids if rid not in self._fetched.looked_up]
        return out | self._store.get_many(scope, missing) if missing else out

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        fetched = self._fetched
        if scope != self._scope or not fetched.vectors_of.issuperset(record_ids):
            return self._store.vectors_of(scope, record_ids)
        return {rid: fetched.vectors[rid] for rid in record_ids if rid in fetched.vectors}

    def successors(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, list[MemoryRecord]]:
        fetched = self._fetched
        if scope != self._scope or not fetched.successors_of.issuperset(record_ids):
            return self._store.successors(scope, record_ids)
        wanted = set(record_ids)
        later = [r for r in fetched.records.values() if r.supersedes in wanted]
        later.sort(key=lambda r: (r.valid_from, fetched.order[r.id]))
        out: dict[str, list[MemoryRecord]] = {}
        for record in later:
            out.setdefault(str(record.supersedes), []).append(record)
        return out

    def write_places(self, scope: Scope, record_ids: Sequence[str], window: int) -> dict[str, int]:
        fetched = self._fetched
        placed = {rid for rid, _, _ in fetched.gaps}
        if scope != self._scope or window > fetched.window or not placed.issuperset(record_ids):
            return self._store.write_places(scope, record_ids, window)
        # The places of more records than asked: their differences are the same, exact up to the window.
        keyed = [(rid, key) for rid, key, _ in fetched.gaps]
        counted = {i - 1: n for i, (_, _, n) in enumerate(fetched.gaps) if i}
        every = places(keyed, counted, window)
        return {rid: every[rid] for rid in dict.fromkeys(record_ids)}

    def term_document_counts(self, scope: Scope, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        fetched = self._fetched
        counts = fetched.term_counts[1]
        if scope != self._scope or fetched.counted is None or not set(counts).issuperset(terms):
            count = getattr(self._store, "term_document_counts")  # noqa: B009  (the store has the capability)
            result: tuple[int, dict[str, int]] = count(scope, terms)
            return result
        return fetched.term_counts[0], {t: counts[t] for t in terms}
