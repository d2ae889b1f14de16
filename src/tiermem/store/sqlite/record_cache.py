"""(internal) What recall reads of the SQLite store's records, kept per scope generation: recall reads the same
records and vectors question after question, and decoding a row (times, JSON, enums, a blob) costs more than
finding it.

Every write to a (tenant, user)'s records bumps its generation (``vectors._bump``, ``erase_scope``), and a
generation never repeats, so what was cached at the generation the file holds is what the file holds. Records
and vectors are handed out as they are: records are immutable, and vectors are read-only copies.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from tiermem.store.sqlite.rows import SQL_VARS, chunks
from tiermem.types import MemoryRecord, Scope

__all__ = ["MAX_CACHED_RECORDS", "MAX_CACHED_VECTORS", "ScopeCache", "record_in_scope"]

MAX_CACHED_RECORDS = 100_000  # bounds the memory decoded records may take; past it the cache starts again
MAX_CACHED_VECTORS = 20_000  # the same bound for stored vectors

V = TypeVar("V")


class ScopeCache(Generic[V]):
    """Values by record id per (tenant, user) at a generation; the caller holds the store's lock."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._scopes: dict[tuple[str, str], tuple[int, dict[str, V]]] = {}
        self._size = 0

    def get_many(
        self,
        conn: sqlite3.Connection,
        scope: Scope,
        record_ids: Sequence[str],
        fetch: Callable[[Scope, Sequence[str]], dict[str, V]],
        admits: Callable[[V, Scope], bool] | None,
        pinned: int | None = None,
    ) -> dict[str, V]:
        """``fetch(scope, record_ids)``, by id within each chunk of the request (``fetch``'s own order).

        ``fetch`` reads values of a whole (tenant, user) from the file; ``admits`` says whether a value belongs
        to a narrower scope (an agent's, a session's); without it such scopes are read from the file. Inside a
        transaction the file may hold writes yet to be committed or rolled back, so it is read directly.
        ``pinned``: the generation the caller read for its recall (``pin.py``), trusted if the cache holds it.
        """
        narrower = scope.agent is not None or scope.session is not None
        if conn.in_transaction or (narrower and admits is None):
            return fetch(scope, record_ids)
        key = (scope.tenant, scope.user or "")
        cached = self._scopes.get(key)
        if pinned is not None and cached is not None and cached[0] == pinned:
            return self._read(scope, key, pinned, record_ids, fetch, admits)
        # The generation first: a write landing after this read makes what follows newer than it, never older.
        row = conn.execute("SELECT gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key).fetchone()
        if row is None:
            return fetch(scope, record_ids)
        return self._read(scope, key, int(row[0]), record_ids, fetch, admits)

    def _read(
        self,
        scope: Scope,
        key: tuple[str, str],
        gen: int,
        record_ids: Sequence[str],
        fetch: Callable[[Scope, Sequence[str]], dict[str, V]],
        admits: Callable[[V, Scope], bool] | None,
    ) -> dict[str, V]:
        """``get_many`` at ``gen``, the generation read (or pinned) before anything is fetched."""
        narrower = scope.agent is not None or scope.session is not None
        known = self._at(key, gen)
        missing = [rid for rid in dict.fromkeys(record_ids) if rid not in known]
        if missing:
            found = fetch(Scope(scope.tenant, scope.user), missing)
            if self._size + len(found) > self._limit:
                self.clear()
                known = self._at(key, gen)
            known.update(found)
            self._size += len(found)
        ordered = sorted(set(record_ids)) if len(record_ids) <= SQL_VARS else _by_chunk(record_ids)
        if not narrower:
            return {rid: value for rid in ordered if (value := known.get(rid)) is not None}
        out: dict[str, V] = {}
        for rid in ordered:
            value = known.get(rid)
            if value is not None and admits is not None and admits(value, scope):
                out[rid] = value
        return out

    def _at(self, key: tuple[str, str], gen: int) -> dict[str, V]:
        """The cached values of ``key`` at ``gen`` (a fresh map when the scope moved on)."""
        cached = self._scopes.get(key)
        if cached is not None and cached[0] == gen:
            return cached[1]
        if cached is not None:
            self._size -= len(cached[1])
        values: dict[str, V] = {}
        self._scopes[key] = (gen, values)
        return values

    def clear(self) -> None:
        """Forget every cached value."""
        self._scopes.clear()
        self._size = 0


def _by_chunk(record_ids: Sequence[str]) -> list[str]:
    """The ids sorted within each chunk of the request: the order ``fetch`` reads them in."""
    return [rid for chunk in chunks(list(record_ids)) for rid in sorted(set(chunk))]


def record_in_scope(record: MemoryRecord, scope: Scope) -> bool:
    """Whether ``scope_sql(scope)`` admits the record (its tenant and user are the cache's already)."""
    if scope.agent is not None and record.scope.agent != scope.agent:
        return False
    return scope.session is None or record.scope.session == scope.session
