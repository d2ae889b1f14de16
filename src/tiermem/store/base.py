"""The Store protocol every backend implements; stores return candidates, ranking lives in retrieval."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from tiermem.embed import Vectors
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope

__all__ = ["Candidate", "Page", "Store", "StoredItem"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A record id proposed by one retrieval signal, with that signal's raw score (higher is better)."""

    id: str
    score: float


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a listing and the cursor for the next (None at the end)."""

    records: tuple[MemoryRecord, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class StoredItem:
    """A record and its vector (None when the record has no embedding)."""

    record: MemoryRecord
    vector: Vectors | None


class Store(Protocol):
    """Scoped persistence. Every read and write is confined to the scope passed in, inside the query.

    Scope matching: tenant and user match exactly (user None = the tenant's shared memory); agent and
    session match exactly when given and match any value when None.
    """

    def put_many(self, items: Sequence[StoredItem]) -> None:
        """Insert or replace records (by id) with their vectors, in one transaction."""
        ...

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        """The record with this id in this scope, or None (also for another scope's id)."""
        ...

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The records with these ids that exist in this scope."""
        ...

    def find_by_hash(self, scope: Scope, type_: MemoryType, hashes: Sequence[str]) -> dict[str, MemoryRecord]:
        """Live-or-not records in this exact scope and type whose content hash is one of ``hashes``."""
        ...

    def list_records(self, scope: Scope, filter_: Filter, *, now: datetime, limit: int, cursor: str | None) -> Page:
        """Records newest first, filtered like recall, with cursor pagination."""
        ...

    def delete(self, scope: Scope, record_ids: Sequence[str]) -> int:
        """Delete these records (and their index and vector rows); returns how many existed."""
        ...

    def keyword_candidates(
        self, scope: Scope, terms: Sequence[str], filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        """Full-text (BM25) candidates for any of ``terms``, best first."""
        ...

    def vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        """Nearest records by cosine similarity among vectors of ``fingerprint``, best first."""
        ...

    def vector_search(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> Callable[[], list[Candidate]]:
        """Prepare ``vector_candidates`` in this thread; the returned call does the scan on any thread."""
        ...

    def vector_fingerprint(self, scope: Scope) -> str | None:
        """The embedding fingerprint this scope's vectors use, or None if it holds none."""
        ...

    def count(self, scope: Scope | None = None) -> int:
        """Rows in this scope (or in the whole store)."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """Group several writes atomically; nested calls join the outer transaction."""
        ...

    def iter_scopes(self) -> Iterator[Scope]:
        """Every (tenant, user) that holds records."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...
