"""(internal) Vector candidates on PostgreSQL: exact cosine in small scopes, pgvector HNSW with iterative scans above.

One HNSW index per vector dimension (a partial index on ``vec::vector(dim)``), holding the vectors of large scopes
only. A scope of up to ``EXACT_UP_TO`` records is searched exactly through its btree index: an HNSW index over
every tenant's vectors would have to visit a great many rows to find a small scope's, and inserting into one costs
~4 ms a vector here (5x the rest of a write). When a scope grows past that size its vectors are flagged
``indexed`` (which puts them in the index of their dimension), and from then on it is searched through HNSW with
``hnsw.iterative_scan = relaxed_order``, so a narrow filter still yields k rows.

Indexes are made by the schema's owner, never by a request (no DDL at request time: a distributed PostgreSQL
propagates DDL, it does not want it per write): migration 0010 makes the one of 384 dimensions (the default
models'), and a store opened by the owner (``tiermem init``, a bulk load's end) makes the index of every dimension
whose vectors are flagged. Until a dimension has its index, its large scopes are searched exactly: right, slower.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg

from tiermem.embed import Vectors
from tiermem.errors import EmbeddingMismatchError
from tiermem.store.base import Candidate
from tiermem.store.postgres.sql import filter_sql, scope_sql
from tiermem.store.vector_scan import best
from tiermem.threads import LazyPool
from tiermem.types import Filter, Scope

if TYPE_CHECKING:
    from tiermem.store.postgres.bulk import BulkState

__all__ = [
    "EXACT_UP_TO",
    "HNSW_MAX_DIM",
    "PgVectorMixin",
    "as_array",
    "build_missing_hnsw",
    "create_hnsw",
    "ef_search",
    "hnsw_dims",
    "search_sql",
]

EXACT_UP_TO = 10_000  # records in a scope searched exactly (no index); larger scopes go through HNSW
HNSW_MAX_DIM = 2_000  # pgvector indexes vectors of up to 2,000 dimensions; larger ones are searched exactly
EF_SEARCH = 100  # HNSW candidate list: larger than pgvector's 40, so large scopes stay close to exact search
PASSAGE_FANOUT = 3  # rows fetched per wanted record from HNSW: a record with passages comes back several times

_POOL = LazyPool("tiermem-pg-vector")
_log = logging.getLogger("tiermem.store")


class PgVectorMixin:
    """Vector candidates and the per-dimension HNSW indexes."""

    _dims: set[int]
    _local: threading.local

    _bulk: BulkState | None

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def _index_flags(self, conn: psycopg.Connection[Any], tenant: str, user_keys: list[str]) -> dict[str, bool]:
        """Whether each scope's vectors go into HNSW; a scope that has just grown past ``EXACT_UP_TO`` is moved in."""
        rows = conn.execute(
            "SELECT user_key, docs, indexed FROM scope_stats WHERE tenant = %s AND user_key = ANY(%s)",
            [tenant, user_keys],
        ).fetchall()
        flags = {str(u): bool(indexed) for u, _, indexed in rows}
        for user_key, docs, indexed in rows:
            if not indexed and docs > EXACT_UP_TO:
                conn.execute(
                    "UPDATE scope_stats SET indexed = true WHERE tenant = %s AND user_key = %s", [tenant, user_key]
                )
                conn.execute(
                    "UPDATE vectors SET indexed = true WHERE tenant = %s AND user_key = %s", [tenant, user_key]
                )
                flags[str(user_key)] = True
        return flags

    def _scope_indexed(self, conn: psycopg.Connection[Any], scope: Scope, dim: int) -> bool:
        """Whether the scope is searched through the HNSW index of ``dim``: flagged, and the index exists."""
        row = conn.execute(
            "SELECT indexed FROM scope_stats WHERE tenant = %s AND user_key = %s", [scope.tenant, scope.user or ""]
        ).fetchone()
        if not (row and row[0]) or dim > HNSW_MAX_DIM:
            return False
        if dim not in self._dims:
            self._dims |= hnsw_dims(conn)  # made since this store opened (by the owner), or still missing
            if dim not in self._dims:
                _log.warning(
                    "no HNSW index for %d-dimensional vectors: their large scopes are searched exactly; run"
                    " `tiermem init` as the schema's owner to make it",
                    dim,
                )
                return False
        return True

    def _scope_dim(self, conn: psycopg.Connection[Any], scope: Scope, fingerprint: str) -> int | None:
        row = conn.execute(
            "SELECT model, dim FROM vectors WHERE tenant = %s AND user_key = %s LIMIT 1",
            [scope.tenant, scope.user or ""],
        ).fetchone()
        return int(row[1]) if row is not None and row[0] == fingerprint else None

    def vector_fingerprint(self, scope: Scope) -> str | None:
        with self._tenant(scope.tenant) as conn:
            row = conn.execute(
                "SELECT model FROM vectors WHERE tenant = %s AND user_key = %s LIMIT 1",
                [scope.tenant, scope.user or ""],
            ).fetchone()
        return None if row is None else str(row[0])

    def vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        with self._tenant(scope.tenant) as conn:
            dim = self._scope_dim(conn, scope, fingerprint)
            if dim is None or limit <= 0:
                return []
            if query.shape[0] != dim:
                raise EmbeddingMismatchError(f"query vector has {query.shape[0]} dimensions, the scope's vectors {dim}")
            exact = not self._scope_indexed(conn, scope, dim)
            search = search_sql(scope, query, dim, fingerprint, filter_, now, limit, exact=exact, own_only=False)
            rows = _search(conn, search, exact=exact, ef=ef_search(limit, own_only=False))
        return [Candidate(rid, float(score)) for rid, score in rows]

    def start_vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> Future[list[Candidate]]:
        def run() -> list[Candidate]:
            return self.vector_candidates(scope, vector, fingerprint, filter_, now=now, limit=limit)

        if getattr(self._local, "conn", None) is not None:  # inside a transaction: only its connection sees it all
            done: Future[list[Candidate]] = Future()
            done.set_result(run())
            return done
        return _POOL.get().submit(run)  # another pooled connection, while the caller runs its keyword query

    def vector_candidates_many(
        self, scope: Scope, vectors: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[list[Candidate]]:
        queries = np.asarray(vectors, dtype=np.float32)
        if not len(queries):
            return []
        with self._tenant(scope.tenant) as conn:
            dim = self._scope_dim(conn, scope, fingerprint)
            if dim is None or limit <= 0:
                return [[] for _ in range(len(queries))]
            if self._scope_indexed(conn, scope, dim):
                ef = ef_search(limit, own_only=True)
                return [
                    [Candidate(rid, float(s)) for rid, s in _search(conn, search_sql(
                        scope, q, dim, fingerprint, filter_, now, limit, exact=False, own_only=True
                    ), exact=False, ef=ef)]
                    for q in queries
                ]  # fmt: skip
            # A small scope: its own vectors once, one matrix product for every query (as the SQLite store does).
            where, params = scope_sql(scope)
            fwhere, fparams = filter_sql(filter_, now)
            with _hash_joins(conn):
                rows = conn.execute(
                    "SELECT r.id, v.vec FROM vectors v JOIN records r ON r.tenant = v.tenant AND r.id = v.record_id"
                    f" WHERE v.tenant = %s AND v.user_key = %s AND v.part = 0 AND v.model = %s AND {where} AND {fwhere}"
                    " ORDER BY r.seq",
                    [scope.tenant, scope.user or "", fingerprint, *params, *fparams],
                ).fetchall()
        if not rows:
            return [[] for _ in range(len(queries))]
        ids = np.array([r[0] for r in rows], dtype=object)
        matrix = np.stack(
            [np.asarray(r[1].to_numpy() if hasattr(r[1], "to_numpy") else r[1], dtype=np.float32) for r in rows]
        )
        allowed = np.arange(len(rows))
        return [best(row, allowed, ids, limit) for row in queries @ matrix.T]


def as_array(value: Any) -> Vectors:
    """A pgvector value (``Vector`` or already an array) as float32."""
    to_numpy = getattr(value, "to_numpy", None)
    return np.asarray(to_numpy() if to_numpy is not None else value, dtype=np.float32)


def hnsw_dims(conn: psycopg.Connection[Any]) -> set[int]:
    """The dimensions whose HNSW index exists in the current schema (the catalog's word)."""
    rows = conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'vectors\\_hnsw\\_%'"
    ).fetchall()
    return {int(str(name).rsplit("_", 1)[1]) for (name,) in rows}


def build_missing_hnsw(conn: psycopg.Connection[Any]) -> set[int]:
    """As the schema's owner: make the HNSW index of every dimension whose vectors are flagged (none for a role
    that may not, or that reads no rows across tenants); the dimensions indexed now."""
    # One vector of each flagged scope (through the scope's btree), not a scan of every vector.
    flagged = conn.execute(
        "SELECT DISTINCT v.dim FROM scope_stats s CROSS JOIN LATERAL (SELECT dim FROM vectors"
        " WHERE tenant = s.tenant AND user_key = s.user_key LIMIT 1) v WHERE s.indexed AND v.dim <= %s",
        [HNSW_MAX_DIM],
    ).fetchall()
    for (dim,) in flagged:
        create_hnsw(conn, int(dim))
    return hnsw_dims(conn)


def create_hnsw(conn: psycopg.Connection[Any], dim: int) -> str | None:
    """Make the HNSW index of ``dim``-dimensional vectors if missing; its name (None: the role may not)."""
    name = f"vectors_hnsw_{dim}"
    found = conn.execute("SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = %s", [name])
    if found.fetchone() is None:
        try:
            with conn.transaction():  # a savepoint: a role that may not create indexes searches exactly
                conn.execute(
                    f"CREATE INDEX IF NOT EXISTS {name} ON vectors USING hnsw ((vec::vector({dim})) vector_cosine_ops)"
                    f" WHERE dim = {dim} AND indexed".encode()
                )
        except psycopg.errors.InsufficientPrivilege:
            return None
    return name


@contextmanager
def _hash_joins(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """Join a scope's vectors and records by hashing, not by a lookup per vector.

    A new scope has no statistics yet (or none that say it is large), and the planner then picks a nested loop
    that walks the scope's records once per vector: 140 ms for 600 records, against 2 ms hashed.
    """
    conn.execute("SELECT set_config('enable_nestloop', 'off', true)")
    try:
        yield
    finally:
        if conn.info.transaction_status.name != "INERROR":
            conn.execute("SELECT set_config('enable_nestloop', 'on', true)")


def _narrow(scope: Scope) -> tuple[str, list[Any]]:
    """Agent and session conditions on the joined record; (tenant, user) are the vector row's own columns."""
    clauses = ["TRUE"]
    params: list[Any] = []
    if scope.agent is not None:
        clauses.append("r.agent = %s")
        params.append(scope.agent)
    if scope.session is not None:
        clauses.append("r.session = %s")
        params.append(scope.session)
    return " AND ".join(clauses), params


def search_sql(
    scope: Scope,
    query: Vectors,
    dim: int,
    fingerprint: str,
    filter_: Filter,
    now: datetime,
    limit: int,
    *,
    exact: bool,
    own_only: bool,
) -> tuple[str, list[Any]]:
    """The query of (record id, best cosine over its vectors, insertion key) best first, ties in insertion order,
    and its parameters. Exact, it wants nested loops off (``_hash_joins``); through HNSW, ``hnsw_settings``."""
    # Exact: hash-joined, so the records side needs its scope (else it is a scan of every tenant's records);
    # HNSW: each vector the index yields finds its record by primary key, and only agent and session narrow.
    where, params = scope_sql(scope) if exact else _narrow(scope)
    fwhere, fparams = filter_sql(filter_, now)
    parts = " AND v.part = 0" if own_only else ""
    parts += "" if exact else " AND v.indexed"  # the HNSW indexes' predicate
    base = (
        "FROM vectors v JOIN records r ON r.tenant = v.tenant AND r.id = v.record_id"
        f" WHERE v.tenant = %s AND v.user_key = %s AND v.model = %s AND v.dim = {int(dim)}{parts}"
        f" AND {where} AND {fwhere}"
    )
    head = [scope.tenant, scope.user or "", fingerprint]
    if exact:
        # GROUP BY: the planner cannot walk an HNSW index for it, so every row of the scope is scored.
        return (
            f"SELECT v.record_id, max(1 - (v.vec <=> %s)) AS s, min(r.seq) AS o {base}"
            " GROUP BY v.record_id ORDER BY s DESC, o LIMIT %s",
            [query, *head, *params, *fparams, limit],
        )
    wanted = limit * (1 if own_only else PASSAGE_FANOUT)
    cast = f"vector({int(dim)})"
    return (
        f"WITH near AS MATERIALIZED (SELECT v.record_id, r.seq, v.vec::{cast} <=> %s::{cast} AS d {base}"
        f" ORDER BY v.vec::{cast} <=> %s::{cast} LIMIT %s)"
        " SELECT record_id, max(1 - d) AS s, min(seq) AS o FROM near GROUP BY record_id ORDER BY s DESC, o LIMIT %s",
        [query, *head, *params, *fparams, query, wanted, limit],
    )


def ef_search(limit: int, *, own_only: bool) -> int:
    """HNSW's candidate list for ``limit`` records (rows of several passages each when not ``own_only``)."""
    return max(EF_SEARCH, limit * (1 if own_only else PASSAGE_FANOUT))


def _search(
    conn: psycopg.Connection[Any], search: tuple[str, list[Any]], *, exact: bool, ef: int
) -> list[tuple[str, float]]:
    """Run a ``search_sql`` query with the settings it wants: (record id, best cosine), best first."""
    if exact:
        with _hash_joins(conn):
            rows = conn.execute(*search).fetchall()
    else:
        conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", [str(ef)])
        rows = conn.execute(*search).fetchall()
    return [(rid, float(s)) for rid, s, _ in rows]
