"""(internal) Vector search for the SQLite store: per-scope vectors cached in memory, kept fresh by generation numbers.

Every write bumps its (tenant, user)'s generation in ``scope_generations`` and carries the change into the
cached index in place; a cache whose generation another process moved on is rebuilt on its next search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import datetime
from typing import Any

import numpy as np

from tiermem.embed import Vectors
from tiermem.errors import EmbeddingMismatchError
from tiermem.store.base import Candidate, StoredItem
from tiermem.store.sqlite.pin import SQLiteGenerationPin
from tiermem.store.sqlite.record_cache import ScopeCache
from tiermem.store.sqlite.rows import SQL_VARS, ts
from tiermem.store.sqlite.sql import TAG_SETS_KEPT, tagged_rowids
from tiermem.store.vector_index import IndexRow, ScopeVectors, VectorCache, rows_from_sql
from tiermem.store.vector_scan import best, nearest, nearest_to
from tiermem.threads import LazyPool
from tiermem.types import Filter, MemoryRecord, Scope

__all__ = ["INLINE_SCAN_ROWS", "SQLiteVectorMixin", "index_row"]

_POOL = LazyPool("tiermem-vector")
INLINE_SCAN_ROWS = 4_096  # vectors a scan scores in under a millisecond: scanned in the caller's thread


class SQLiteVectorMixin(SQLiteGenerationPin):
    """Vector candidates and the in-memory vector cache on the store's connection."""

    _vectors: VectorCache
    _records: ScopeCache[MemoryRecord]
    _vector_rows: ScopeCache[Vectors]
    _successors: ScopeCache[list[MemoryRecord]]
    cache_bytes: int
    shortlist_from: int | None
    shortlist_size: int
    neighbour_shortlist: int

    def _bump(
        self,
        deltas: dict[tuple[str, str], int],
        upserts: dict[tuple[str, str], list[IndexRow]],
        removals: dict[tuple[str, str], list[int]],
    ) -> None:
        """Mark scopes changed, adjust their record counts, and carry the change into cached vector indexes."""
        for key, delta in deltas.items():
            (gen,) = self._conn.execute(
                "INSERT INTO scope_generations VALUES (?, ?, 1, ?) "
                "ON CONFLICT (tenant, user_key) DO UPDATE SET gen = gen + 1, n = n + excluded.n RETURNING gen",
                (*key, delta),
            ).fetchone()
            cached = self._vectors.get(key)
            if cached is None:
                continue
            if cached.gen != gen - 1:  # another process wrote in between: rebuild on the next search
                del self._vectors[key]
                continue
            cached.remove(removals.get(key, ()))
            fresh = upserts.get(key, [])
            new_vec = next((r.vector for r in fresh if r.vector is not None), None)
            if new_vec is not None and (cached.dim != len(new_vec) or cached.fingerprint is None):
                if len(cached):
                    del self._vectors[key]
                    continue
                cached = self._vectors[key] = ScopeVectors(cached.gen, None, len(new_vec))
            cached.upsert(fresh)
            self._vectors.resized(key)
            if new_vec is not None:
                cached.fingerprint = cached.fingerprint or self._fingerprint_of(key)
            cached.gen = gen

    def _indexed_vectors(
        self, scope: Scope, record_ids: Sequence[str], pinned: int | None
    ) -> dict[str, Vectors] | None:
        """``vectors_of`` from the in-memory index when it is at the generation this thread pinned and holds every
        one of ``record_ids`` (by id, as the cache orders them), else None; the caller holds the lock."""
        index = self._vectors.get((scope.tenant, scope.user or ""))
        narrower = scope.agent is not None or scope.session is not None
        if index is None or pinned is None or index.gen != pinned or narrower or self._conn.in_transaction:
            return None
        found = index.own_vectors(record_ids)
        if len(found) < len(set(record_ids)) or len(found) > SQL_VARS:
            return None
        return {rid: found[rid] for rid in sorted(found)}

    def vector_fingerprint(self, scope: Scope) -> str | None:
        pin = self._pin((scope.tenant, scope.user or ""))
        if pin is not None:
            return pin.model
        with self._lock:
            row = self._conn.execute(
                "SELECT model FROM vectors WHERE tenant = ? AND user_key = ? LIMIT 1", (scope.tenant, scope.user or "")
            ).fetchone()
        return None if row is None else str(row[0])

    def vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        scan, _ = self._prepare_scan(scope, vector, fingerprint, filter_, now=now, limit=limit)
        return scan()

    def start_vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> Future[list[Candidate]]:
        # The scan is memory-bound numpy and a keyword query is SQLite C code; both release the GIL, so a caller
        # that runs its keyword query meanwhile pays for the slower of the two, not their sum.
        scan, rows = self._prepare_scan(scope, vector, fingerprint, filter_, now=now, limit=limit)
        if rows > INLINE_SCAN_ROWS:
            return _POOL.get().submit(scan)
        # A small scope's scan takes less than handing it to a thread and waking the caller when it is done.
        done: Future[list[Candidate]] = Future()
        done.set_result(scan())
        return done

    def vector_candidates_many(
        self, scope: Scope, vectors: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[list[Candidate]]:
        with self._lock:
            index = self._scope_vectors(scope)
            if not len(index) or index.fingerprint != fingerprint or not len(vectors):
                return [[] for _ in range(len(vectors))]
            mask = self._mask(index, scope, filter_, now)
            matrix, ids = index.view("matrix"), index.view("ids")
            codes = self._codes(scope, index)
        queries = np.asarray(vectors, dtype=np.float32)
        allowed = np.flatnonzero(mask)
        size = self.neighbour_shortlist
        if codes is not None and allowed.size > size:
            return [nearest(matrix, codes, q, mask, ids, limit, shortlist=size) for q in queries]
        # One matrix-matrix product over the allowed rows: compute-bound BLAS, not one memory-bound scan each.
        scores = queries @ (matrix if allowed.size == len(mask) else matrix[allowed]).T
        return [best(row, allowed, ids, limit) for row in scores]

    def prepare_vector_candidates(
        self, scope: Scope, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> Callable[[Vectors], list[Candidate]]:
        scan, _, _ = self._prepared(scope, fingerprint, filter_, now=now, limit=limit)
        return scan

    def _prepare_scan(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> tuple[Callable[[], list[Candidate]], int]:
        """Everything touching the database, in the caller's thread (which may hold the write lock inside a
        transaction, so another thread could not), and how many vectors (records' and passages') the returned
        scan may score; the scan is pure numpy and may run on any thread."""
        scan, rows, dim = self._prepared(scope, fingerprint, filter_, now=now, limit=limit)
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if dim is not None:
            _check_dimension(query, dim)
        return lambda: scan(query), rows

    def _prepared(
        self, scope: Scope, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> tuple[Callable[[Vectors], list[Candidate]], int, int | None]:
        """``_prepare_scan`` before the vector is known: the scan of a vector, the rows it may score, and the
        dimension its vector must have (None: the scope holds no vectors of ``fingerprint``)."""
        with self._lock:
            index = self._scope_vectors(scope)
            if not len(index) or index.fingerprint != fingerprint:
                return _nothing, 0, None
            dim = index.dim
            mask = self._mask(index, scope, filter_, now)
            # Views taken now: later in-place writes grow or overwrite, never invalidate them.
            matrix, ids, passages = index.view("matrix"), index.view("ids"), index.passages()
            codes = self._codes(scope, index)
            size = self.shortlist_size
        rows = len(index) + (0 if passages is None else len(passages.owner))
        nearest_of = nearest_to(matrix, codes, mask, ids, limit, shortlist=size, passages=passages)

        def scan(vector: Vectors) -> list[Candidate]:
            query = np.asarray(vector, dtype=np.float32).reshape(-1)
            _check_dimension(query, dim)
            return nearest_of(query)

        return scan, rows, dim

    def _codes(self, scope: Scope, index: ScopeVectors) -> Any:
        """The scope's SimHash codes when it is big enough for the shortlist (made on first use), else None."""
        if self.shortlist_from is None or len(index) < self.shortlist_from:
            return None
        made = index.codes is None
        codes = index.code_view()
        key = (scope.tenant, scope.user or "")
        if made and key in self._vectors:
            self._vectors.resized(key)  # the codes are new bytes in the cache
        return codes

    def _mask(self, ix: ScopeVectors, scope: Scope, filter_: Filter, now: datetime) -> Any:
        at = (filter_.as_of or now).timestamp()
        valid_from = ix.view("valid_from")
        with np.errstate(invalid="ignore"):
            mask = ix.view("alive") & ~(ix.view("expires_at") <= at)
            if not filter_.with_closed:
                mask &= ~(ix.view("valid_to") <= at)
            if filter_.as_of is not None:
                mask &= valid_from <= at
        if scope.agent is not None:
            mask &= ix.matches("agents", [scope.agent])
        if scope.session is not None:
            mask &= ix.matches("sessions", [scope.session])
        if filter_.types:
            mask &= ix.matches("types", [t.value for t in filter_.types])
        if filter_.sources:
            mask &= ix.matches("source_kinds", [s.value for s in filter_.sources])
        if filter_.time_from is not None:
            mask &= valid_from >= filter_.time_from.timestamp()
        if filter_.time_to is not None:
            mask &= valid_from <= filter_.time_to.timestamp()
        if filter_.tags:
            mask &= self._tagged(ix, scope, tuple(sorted(filter_.tags)))
        return mask

    def _tagged(self, ix: ScopeVectors, scope: Scope, tags: tuple[str, ...]) -> Any:
        """Which rows of ``ix`` hold one of ``tags``, kept on the index until its generation moves."""
        # Every write to the scope's records (their tags too) moves the generation, so a mask made at this one
        # is still true; inside a transaction the writes so far are the index's own, read through this connection.
        key = (ix.gen, tags)
        cached = ix.tagged.get(key)
        if cached is None or len(cached) != ix.n:
            rowids = tagged_rowids(self._conn, (scope.tenant, scope.user or ""), tags)
            cached = np.zeros(ix.n, dtype=bool)
            cached[ix.positions(rowids)] = True
            ix.tagged = {k: v for k, v in ix.tagged.items() if k[0] == ix.gen}  # older generations are dead
            if len(ix.tagged) >= TAG_SETS_KEPT:  # a read-only scope keeps its generation: bound it by count too
                ix.tagged.clear()
            ix.tagged[key] = cached
        return cached

    def _scope_vectors(self, scope: Scope) -> ScopeVectors:
        key = (scope.tenant, scope.user or "")
        with self._lock:
            cached = self._vectors.get(key)
            pin = self._pin(key)
            if cached is not None and pin is not None and cached.gen == pin.gen:
                self._vectors.move_to_end(key)
                return cached
            row = self._conn.execute(
                "SELECT gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key
            ).fetchone()
            gen = int(row[0]) if row else 0
            if cached is not None and cached.gen == gen:
                self._vectors.move_to_end(key)
                return cached
            rows = self._conn.execute(
                "SELECT r.rowid, r.id, r.type, r.source_kind, r.agent, r.session, r.valid_from, r.valid_to,"
                " r.expires_at, v.vec, v.dim FROM vectors v JOIN records r ON r.rowid = v.record_rowid"
                " WHERE v.tenant = ? AND v.user_key = ? ORDER BY v.record_rowid",
                key,
            ).fetchall()
            dim = int(rows[0][10]) if rows else 0
            built = ScopeVectors(gen, self._fingerprint_of(key) if rows else None, dim, capacity=len(rows) + 64)
            indexed = rows_from_sql(rows)
            built.reserve_passages(sum(len(r.passages) for r in indexed if r.passages is not None) + 64)
            built.upsert(indexed)
            self._vectors[key] = built
            self._vectors.move_to_end(key)
            self._vectors.evict(self.cache_bytes, keep=key)
            return built

    def _fingerprint_of(self, key: tuple[str, str]) -> str | None:
        row = self._conn.execute("SELECT model FROM vectors WHERE tenant = ? AND user_key = ? LIMIT 1", key).fetchone()
        return None if row is None else str(row[0])

    def drop_cached_vectors(self, tenant: str, user_key: str | None = None) -> None:
        """Forget the in-memory vectors and records of a tenant (or of one user of it); the next search reloads them."""
        with self._lock:
            self._records.clear()
            self._vector_rows.clear()
            self._successors.clear()
            for key in [k for k in self._vectors if k[0] == tenant and (user_key is None or k[1] == user_key)]:
                del self._vectors[key]


def _nothing(vector: Vectors) -> list[Candidate]:
    """The scan of a scope without vectors of the model asked for."""
    return []


def _check_dimension(query: Vectors, dim: int) -> None:
    if query.shape[0] != dim:
        raise EmbeddingMismatchError(f"query vector has {query.shape[0]} dimensions, the scope's vectors {dim}")


def index_row(rowid: int, item: StoredItem) -> IndexRow:
    """What the cached index keeps of a stored item."""
    r = item.record
    return IndexRow(
        rowid,
        r.id,
        r.type.value,
        r.source.kind.value,
        r.scope.agent or "",
        r.scope.session or "",
        r.valid_from.timestamp(),
        ts(r.valid_to),
        ts(r.expires_at),
        None if item.vector is None else np.asarray(item.vector, dtype=np.float32),
        None if item.vector is None or item.passages is None else np.asarray(item.passages, dtype=np.float32),
    )
