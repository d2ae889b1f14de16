"""(internal) Bulk loads on PostgreSQL: many records in at once, the HNSW indexes built once at the end.

Inserting a vector into an HNSW index is a graph search plus page writes (4 ms idle, 15-30 ms under load here),
so loading a big scope one batch after another spends most of its time there; building the index once over the
loaded vectors is a sort-like pass that uses ``maintenance_work_mem`` and parallel workers. Inside
``bulk_load()`` the store drops its HNSW indexes (when its role may), writes every vector flagged as it would
otherwise, and at the end builds the indexes again, recounts the per-term document frequencies of the scopes it
wrote (migration 0006: the statistics trigger skips them during the load) and runs ``VACUUM (ANALYZE)`` on the
tables: the planner sees the new sizes at once, and autovacuum does not start that work under the first searches
after the load (they measured twice as slow while it ran). Meant for an initial load or a migration into a store
that is not serving searches of large scopes meanwhile: until the end those run without their HNSW index
(exactly, so correctly, but slowly).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from tiermem.errors import StoreError
from tiermem.store.postgres.vectors import create_hnsw

__all__ = ["BulkLoad", "BulkState", "PgBulkMixin"]

_ANALYSED = ("records", "vectors", "fts_postings", "fts_terms", "scope_stats")


@dataclass(slots=True)
class BulkLoad:
    """What a bulk load did, filled in as it ends: the indexes built and the seconds each step took."""

    indexes: list[str] = field(default_factory=list)
    index_build_s: float = 0.0
    recount_s: float = 0.0
    analyse_s: float = 0.0  # VACUUM (ANALYZE) of the written tables


@dataclass(slots=True)
class BulkState:
    """A running bulk load: the vector dimensions whose index waits, and the scopes written."""

    dims: set[int] = field(default_factory=set)
    scopes: set[tuple[str, str]] = field(default_factory=set)


class PgBulkMixin:
    """``bulk_load()``: a context in which ``put_many`` defers index work to the end."""

    _dims: set[int]
    _bulk: BulkState | None
    _local: threading.local
    _pool: ConnectionPool[psycopg.Connection[Any]]

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _anywhere(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    @contextmanager
    def bulk_load(self) -> Iterator[BulkLoad]:
        """Write many records fast: HNSW indexes are built and term statistics counted once, when this ends."""
        if self._bulk is not None:
            raise StoreError("bulk_load: a bulk load is already running on this store (they do not nest)")
        report = BulkLoad()
        state = BulkState()
        state.dims |= self._drop_hnsw()
        self._bulk = state
        try:
            yield report
        finally:
            self._bulk = None
            self._finish(state, report)

    def _bulk_write(self, conn: psycopg.Connection[Any], tenant: str, user_keys: set[str]) -> None:
        """Note the scopes this write adds to the running bulk load (if any): their term counts are made at its end."""
        state = self._bulk
        if state is None:
            return
        state.scopes |= {(tenant, u) for u in user_keys}

    def _drop_hnsw(self) -> set[int]:
        """Drop the schema's HNSW indexes (those the role may drop); the dimensions they were for."""
        dropped: set[int] = set()
        with self._anywhere() as conn:
            rows = conn.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
                " AND indexname LIKE 'vectors\\_hnsw\\_%'"
            ).fetchall()
            for (name,) in rows:
                try:
                    with conn.transaction():  # a savepoint: a role that does not own the table keeps its index
                        conn.execute(f'DROP INDEX "{name}"'.encode())
                except psycopg.errors.InsufficientPrivilege:
                    continue
                dim = int(str(name).rsplit("_", 1)[1])
                dropped.add(dim)
                self._dims.discard(dim)
        return dropped

    def _finish(self, state: BulkState, report: BulkLoad) -> None:
        started = time.perf_counter()
        with self._anywhere() as conn:
            for dim in sorted(state.dims):
                name = create_hnsw(conn, dim)
                if name is not None:
                    report.indexes.append(name)
                    self._dims.add(dim)
        report.index_build_s = time.perf_counter() - started
        started = time.perf_counter()
        by_tenant: dict[str, list[str]] = {}
        for tenant, user_key in state.scopes:
            by_tenant.setdefault(tenant, []).append(user_key)
        for tenant, users in sorted(by_tenant.items()):
            with self._tenant(tenant) as conn:
                key = [tenant, sorted(users)]
                conn.execute("DELETE FROM fts_terms WHERE tenant = %s AND user_key = ANY(%s)", key)
                conn.execute(
                    "INSERT INTO fts_terms (tenant, user_key, term, df) SELECT tenant, user_key, term, count(*)"
                    " FROM fts_postings WHERE tenant = %s AND user_key = ANY(%s) GROUP BY 1, 2, 3",
                    key,
                )
        report.recount_s = time.perf_counter() - started
        started = time.perf_counter()
        if getattr(self._local, "conn", None) is not None:
            return  # inside the caller's transaction VACUUM cannot run; autovacuum will
        with self._pool.connection() as conn:  # autocommit: VACUUM runs outside a transaction
            for table in _ANALYSED:
                try:
                    conn.execute(sql.SQL("VACUUM (ANALYZE) {}").format(sql.Identifier(table)))
                except psycopg.errors.InsufficientPrivilege:
                    continue  # a role that does not own the table: autovacuum will
        report.analyse_s = time.perf_counter() - started
