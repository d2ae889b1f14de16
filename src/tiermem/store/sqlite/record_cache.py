"""(internal) Decoded records of the SQLite store, kept per scope generation: recall reads the same records query
after query, and decoding a row (times, JSON, enums) costs more than finding it.

Every write to a (tenant, user)'s records bumps its generation (``vectors._bump``, ``erase_scope``), and a
generation never repeats, so records cached at the generation the file holds are the records the file holds.
Records are immutable values, so one object may be handed to every caller.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

from tiermem.store.sqlite.rows import chunks
from tiermem.types import MemoryRecord, Scope

__all__ = ["MAX_CACHED_RECORDS", "RecordCache"]

MAX_CACHED_RECORDS = 100_000  # ~100 MB of decoded records at most; then the cache starts again
Fetch = Callable[[Scope, Sequence[str]], dict[str, MemoryRecord]]


class RecordCache:
    """Records by id per (tenant, user) at a generation; the caller holds the store's lock."""

    def __init__(self, limit: int = MAX_CACHED_RECORDS) -> None:
        self._limit = limit
        self._scopes: dict[tuple[str, str], tuple[int, dict[str, MemoryRecord]]] = {}
        self._size = 0

    def get_many(
        self, conn: sqlite3.Connection, scope: Scope, record_ids: Sequence[str], fetch: Fetch
    ) -> dict[str, MemoryRecord]:
        """The records of ``record_ids`` in ``scope``, in ``fetch``'s order (by id within each chunk of the request).

        ``fetch`` reads records of a whole (tenant, user) from the file. Inside a transaction the file may hold
        writes that are yet to be committed or rolled back, so they are read from it directly.
        """
        if conn.in_transaction:
            return fetch(scope, record_ids)
        key = (scope.tenant, scope.user or "")
        # The generation first: a write landing after this read makes what follows newer than it, never older.
        row = conn.execute("SELECT gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key).fetchone()
        if row is None:
            return fetch(scope, record_ids)
        known = self._at(key, int(row[0]))
        missing = [rid for rid in dict.fromkeys(record_ids) if rid not in known]
        if missing:
            found = fetch(Scope(scope.tenant, scope.user), missing)
            self._size += len(found)
            if self._size > self._limit:
                self._scopes.clear()
                self._size = len(found)
                known = self._at(key, int(row[0]))
            known.update(found)
        out: dict[str, MemoryRecord] = {}
        for chunk in chunks(list(record_ids)):
            for rid in sorted(set(chunk)):
                record = known.get(rid)
                if record is not None and _in_scope(record, scope):
                    out[rid] = record
        return out

    def _at(self, key: tuple[str, str], gen: int) -> dict[str, MemoryRecord]:
        """The cached records of ``key`` at ``gen`` (a fresh map when the scope moved on)."""
        cached = self._scopes.get(key)
        if cached is not None and cached[0] == gen:
            return cached[1]
        if cached is not None:
            self._size -= len(cached[1])
        records: dict[str, MemoryRecord] = {}
        self._scopes[key] = (gen, records)
        return records

    def clear(self) -> None:
        """Forget every cached record."""
        self._scopes.clear()
        self._size = 0


def _in_scope(record: MemoryRecord, scope: Scope) -> bool:
    """Whether ``scope_sql(scope)`` admits the record (its tenant and user are the cache's already)."""
    if scope.agent is not None and record.scope.agent != scope.agent:
        return False
    return scope.session is None or record.scope.session == scope.session
