"""(internal) A recall's reads on PostgreSQL: one transaction, two statements, two round trips (PostgresStore's mixin).

The first statement reads the scope's full-text side while the model embeds the question: its statistics, the
postings of both lists' terms (the most common pruned in a large scope, as ``keyword_candidates`` prunes them),
their records' lengths and whether the filter admits them, the relevance floor's word counts, the scope's
embedding model and whether it is searched through HNSW (and sets the planner for the second statement
accordingly). BM25 ranks the full-text lists here, as ``keyword_candidates`` does. The second statement, once
the question's vector is known, runs the vector search and reads, for every candidate of any list, what the
ranking reads (``store.recall_reads``): the record, its own vector, its successors two links down, the
records it and they supersede, and its place in the user's write order. Where the scope is searched exactly, the
second statement is prepared once per connection and runs on a generic plan: planning it took longer than running it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg
from psycopg_pool import ConnectionPool

from tiermem.embed import Vectors
from tiermem.errors import EmbeddingMismatchError, StoreError
from tiermem.store.base import Candidate
from tiermem.store.postgres.fulltext import COUNT_CAP, POSTINGS_BUDGET, PRUNE_FROM_RECORDS, admitted_sql, ranked
from tiermem.store.postgres.sql import COLUMNS, row_to_record, scope_sql, set_tenant
from tiermem.store.postgres.terms import query_stems
from tiermem.store.postgres.vectors import HNSW_MAX_DIM, ef_search, hnsw_dims, search_sql
from tiermem.store.recall_reads import Prefetched, RecallAsk, RecallReads, VectorFor
from tiermem.types import Filter, Scope

__all__ = ["PgRecallMixin"]

_NO_VECTORS = "SELECT NULL::text AS record_id, NULL::float8 AS s, NULL::bigint AS o WHERE false"


class PgRecallMixin:
    """``recall_reads``: a recall's lists and the reads of its ranking in one transaction."""

    _dims: set[int]

    if TYPE_CHECKING:
        _local: threading.local

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _connection(self) -> tuple[ConnectionPool[psycopg.Connection[Any]], psycopg.Connection[Any]]: ...

        def _failed(self, conn: psycopg.Connection[Any], action: str, exc: psycopg.Error) -> StoreError: ...

    def recall_reads(self, ask: RecallAsk, vector_for: VectorFor) -> RecallReads:
        scope = ask.scope
        stems = query_stems([*ask.terms, *ask.pairs])  # one call of the tokenizer for both lists
        term_stems, pair_stems = stems[: len(ask.terms)], stems[len(ask.terms) :]
        lists = [[p for p in term_stems if p], [p for p in pair_stems if p]]
        # Pipelined: BEGIN and the tenant go with the first statement, COMMIT with the second (two round trips).
        with self._pipelined(scope.tenant) as conn:
            side = _full_text(conn, scope, ask.filter_, ask.now, lists, term_stems, sorted(self._dims), ask.limit)
            docs, tokens, indexed, model, dim, kept, postings, rows, singles, exact_planned = side
            keyword, phrase = (
                ranked([lst[i] for i in sorted(kept.get(n, ()))], postings, rows, docs, tokens, ask.limit)
                if docs and postings
                else []
                for n, lst in enumerate(lists)
            )
            vector = vector_for(model)
            search: tuple[str, list[Any]] = (_NO_VECTORS, [])
            walks = False  # the search walks an HNSW index
            if vector is not None and model is not None and dim is not None:
                query = np.asarray(vector, dtype=np.float32).reshape(-1)
                if query.shape[0] != dim:
                    raise EmbeddingMismatchError(
                        f"query vector has {query.shape[0]} dimensions, the scope's vectors {dim}"
                    )
                exact = self._exact(conn, indexed, dim)
                if exact != exact_planned:  # an index made since this store opened: the plan follows it
                    conn.execute("SELECT set_config('enable_nestloop', %s, true)", ["off" if exact else "on"])
                walks = not exact
                search = search_sql(
                    scope, query, dim, model, ask.filter_, ask.now, ask.limit, exact=exact, own_only=False
                )
            listed = list(dict.fromkeys(c.id for c in [*keyword, *phrase]))
            # Prepared (and so planned once per connection, generically: the first statement set plan_cache_mode)
            # unless HNSW is walked, or was to be: a generic plan, blind to the scope, may score a large scope exactly.
            generic = not walks and not (dim is not None and not exact_planned)
            evidence = _evidence(conn, scope, listed, search, ask.window, prepared=generic)
        read = _read(evidence.fetchall())  # its rows arrive with the COMMIT's answer
        counts = {
            t: (singles.get(p[0], 0) if p else 0) for t, p in zip(ask.terms, term_stems, strict=True) if len(p) <= 1
        }
        searched = vector is not None and model is not None and dim is not None
        return RecallReads(
            keyword,
            phrase,
            read.vector,
            model if searched else None,
            vector if searched else None,
            Prefetched(
                records=read.records,
                looked_up=frozenset(listed) | read.looked_up,
                order=read.order,
                vectors=read.vectors,
                vectors_of=frozenset(read.vector_read),
                successors_of=read.successors_of,
                gaps=read.gaps,
                window=ask.window,
                counted=tuple(counts),
                term_counts=(docs, counts),
            ),
        )

    @contextmanager
    def _pipelined(self, tenant: str) -> Iterator[psycopg.Connection[Any]]:
        """A transaction for ``tenant`` sent in pipeline mode: BEGIN and the tenant travel with the first statement
        whose rows are read, COMMIT with the last (psycopg's ``transaction()`` would wait at both); inside a
        transaction already, that one."""
        if getattr(self._local, "conn", None) is not None:
            with self._tenant(tenant) as conn:
                yield conn
            return
        pool, conn = self._connection()
        local = self._local
        local.conn, local.tenant = conn, tenant
        try:
            with conn.pipeline():
                conn.execute("BEGIN")
                conn.execute(set_tenant(tenant))
                yield conn
                conn.execute("COMMIT")
        except psycopg.Error as exc:
            raise self._failed(conn, "read from", exc) from exc
        finally:
            local.conn = None
            try:
                if not conn.broken and conn.info.transaction_status.name != "IDLE":
                    conn.rollback()  # the body raised before COMMIT
            finally:
                pool.putconn(conn)

    def _exact(self, conn: psycopg.Connection[Any], indexed: bool, dim: int) -> bool:
        """Whether the scope is searched exactly (``PgVectorMixin._scope_indexed`` from what was read)."""
        if not indexed or dim > HNSW_MAX_DIM:
            return True
        if dim not in self._dims:
            self._dims |= hnsw_dims(conn)
        return dim not in self._dims


_FullText = tuple[
    int, int, bool, str | None, int | None, dict[int, list[int]], list[Any], list[Any], dict[str, int], bool
]


def _full_text(
    conn: psycopg.Connection[Any],
    scope: Scope,
    filter_: Filter,
    now: datetime,
    lists: list[list[tuple[str, ...]]],
    term_stems: list[tuple[str, ...]],
    dims: list[int],
    limit: int,
) -> _FullText:
    """The first statement (see the module docstring)."""
    key = [scope.tenant, scope.user or ""]
    flat = [(n, i, s) for n, lst in enumerate(lists) for i, p in enumerate(lst) for s in p]
    admitted, aparams = admitted_sql(scope, filter_, now)
    singles = sorted({p[0] for p in term_stems if len(p) == 1})
    # Every row of the (tenant, user) holding a kept stem, admitted by the filter or not (each counts in the
    # document frequencies); only equality conditions on the postings, which row-level security lets through
    # their btree. ``= ANY(ARRAY(subquery))`` rather than joins: nested loops may be off for the second statement.
    statement = (
        "WITH q AS (SELECT * FROM unnest(%s::int[], %s::int[], %s::text[]) AS q(l, i, stem)),"
        " s AS (SELECT docs, tokens, indexed FROM scope_stats WHERE tenant = %s AND user_key = %s),"
        " m AS (SELECT model, dim FROM vectors WHERE tenant = %s AND user_key = %s LIMIT 1),"
        # A scalar subquery per stem: an index lookup each, where a join may scan every term of the scope.
        " df AS (SELECT q.l, q.i, sum(coalesce((SELECT t.df FROM fts_terms t"
        " WHERE t.tenant = %s AND t.user_key = %s AND t.term = q.stem), 0)) AS n FROM q GROUP BY q.l, q.i),"
        " ranked AS (SELECT l, i, row_number() OVER w AS rn, sum(n) OVER w AS running FROM df"
        " WINDOW w AS (PARTITION BY l ORDER BY n, i)),"
        " kept AS (SELECT l, i FROM ranked WHERE rn = 1 OR running <= %s OR coalesce((SELECT docs FROM s), 0) < %s),"
        " p AS MATERIALIZED (SELECT seq, term, at FROM fts_postings WHERE tenant = %s AND user_key = %s"
        " AND term = ANY(ARRAY(SELECT DISTINCT q.stem FROM q JOIN kept USING (l, i)))),"
        f" rr AS (SELECT r.seq, r.id, r.fts_len, {admitted} AS ok FROM records r"
        " WHERE r.tenant = %s AND r.user_key = %s AND r.seq = ANY(ARRAY(SELECT DISTINCT seq FROM p)))"
        " SELECT s.docs, s.tokens, s.indexed, m.model, m.dim,"
        " (SELECT json_agg(json_build_array(l, i)) FROM kept),"
        " (SELECT json_agg(json_build_array(seq, term, at)) FROM p),"
        " (SELECT json_agg(json_build_array(seq, id, fts_len, ok)) FROM rr),"
        " (SELECT json_object_agg(c, (SELECT count(*) FROM (SELECT 1 FROM fts_postings WHERE tenant = %s"
        " AND user_key = %s AND term = c AND at[1] > 0 LIMIT %s) x)) FROM unnest(%s::text[]) c),"
        " m.dim IS NOT NULL AND NOT (coalesce(s.indexed, false) AND m.dim <= %s AND m.dim = ANY(%s::int[])) AS exact,"
        # For the second statement: set now, so that it is planned with them (HNSW's are only read by HNSW).
        " set_config('enable_nestloop', CASE WHEN m.dim IS NOT NULL AND NOT (coalesce(s.indexed, false)"
        " AND m.dim <= %s AND m.dim = ANY(%s::int[])) THEN 'off' ELSE 'on' END, true),"
        " set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', %s, true),"
        # ... and a generic plan for its prepared form, unless it walks HNSW (not prepared then).
        " set_config('plan_cache_mode', CASE WHEN m.dim IS NOT NULL AND coalesce(s.indexed, false)"
        " AND m.dim <= %s AND m.dim = ANY(%s::int[]) THEN current_setting('plan_cache_mode')"
        " ELSE 'force_generic_plan' END, true)"
        " FROM (SELECT 1) one LEFT JOIN s ON true LEFT JOIN m ON true"
    )
    params = [
        [f[0] for f in flat],
        [f[1] for f in flat],
        [f[2] for f in flat],
        *key,
        *key,
        *key,
        POSTINGS_BUDGET,
        PRUNE_FROM_RECORDS,
        *key,
        *aparams,
        *key,
        *key,
        COUNT_CAP,
        singles,
        HNSW_MAX_DIM,
        dims,
        HNSW_MAX_DIM,
        dims,
        str(ef_search(limit, own_only=False)),
        HNSW_MAX_DIM,
        dims,
    ]
    row = conn.execute(statement, params).fetchone()
    assert row is not None  # one row, whatever the scope holds
    docs, tokens, indexed, model, dim, kept_rows, postings, rows, counted, exact = row[:10]
    kept: dict[int, list[int]] = {}
    for n, i in kept_rows or []:
        kept.setdefault(int(n), []).append(int(i))
    return (
        int(docs or 0),
        int(tokens or 0),
        bool(indexed),
        None if model is None else str(model),
        None if dim is None else int(dim),
        kept,
        postings or [],
        rows or [],
        {str(s): int(n) for s, n in (counted or {}).items()},
        bool(exact),
    )


class _Read:
    """What the second statement read."""

    __slots__ = ("gaps", "looked_up", "order", "records", "successors_of", "vector", "vector_read", "vectors")

    def __init__(self) -> None:
        self.vector: list[Candidate] = []
        self.records: dict[str, Any] = {}
        self.order: dict[str, int] = {}
        self.vectors: dict[str, Vectors] = {}
        self.vector_read: list[str] = []  # ids whose own vector was read (found or not)
        self.successors_of: frozenset[str] = frozenset()  # ids all of whose successors were read
        self.looked_up: frozenset[str] = frozenset()  # ids read by id (found or not)
        self.gaps: list[tuple[str, int, int]] = []


def _evidence(
    conn: psycopg.Connection[Any],
    scope: Scope,
    listed: Sequence[str],
    search: tuple[str, list[Any]],
    window: int,
    *,
    prepared: bool,
) -> psycopg.Cursor[Any]:
    """The second statement (see the module docstring), sent; its rows are read once the transaction ends."""
    where, params = scope_sql(scope)
    records = f"SELECT {COLUMNS}, r.seq FROM records r WHERE {where} AND"
    statement = (
        "WITH vq AS MATERIALIZED (SELECT record_id, s, row_number() OVER (ORDER BY s DESC, o) AS at"
        f" FROM ({search[0]}) z),"
        f" cr AS MATERIALIZED ({records} r.id = ANY(ARRAY("
        "SELECT unnest(%s::text[]) UNION SELECT record_id FROM vq))),"
        f" s1 AS MATERIALIZED ({records} r.supersedes = ANY(ARRAY(SELECT id FROM cr))),"
        f" s2 AS MATERIALIZED ({records} r.supersedes = ANY(ARRAY(SELECT id FROM s1))),"
        " known AS (SELECT *, 0 AS role FROM cr UNION ALL SELECT *, 1 FROM s1 UNION ALL SELECT *, 2 FROM s2),"
        f" pre AS ({records} r.id = ANY(ARRAY(SELECT supersedes FROM known))),"
        " every AS (SELECT DISTINCT ON (id) * FROM (SELECT * FROM known UNION ALL SELECT *, 3 FROM pre) a"
        " ORDER BY id, role),"
        # Places in the write order of the records without a session (the stream): each one's gap to the one before.
        # (a superset of the turns of a stream: without a session, with a search context or a speaker's label).
        " st AS (SELECT id, seq, lag(seq) OVER (ORDER BY seq) AS prev FROM every"
        " WHERE session = '' AND (coalesce(context, '') <> '' OR strpos(content, ': ') > 0)),"
        " gap AS (SELECT st.id, CASE WHEN st.prev IS NULL OR st.seq - st.prev <= 1 THEN 0 ELSE (SELECT count(*)"
        " FROM (SELECT 1 FROM records g WHERE g.tenant = %s AND g.user_key = %s AND g.seq > st.prev"
        " AND g.seq < st.seq LIMIT %s) x) END AS n FROM st),"
        # Own vectors where ranking may read them: a fact's (newer facts first), and a record's the vector search
        # did not score (its cosine, for relevance).
        " vs AS (SELECT record_id, vec FROM vectors WHERE tenant = %s AND part = 0 AND record_id = ANY(ARRAY("
        "SELECT id FROM every WHERE role > 0 OR type = 'semantic' OR id NOT IN (SELECT record_id FROM vq))))"
        f" SELECT {COLUMNS}, r.seq, vector_send(vs.vec), vq.s, vq.at, gap.n, r.role,"
        " r.role > 0 OR r.type = 'semantic' OR vq.at IS NULL"
        " FROM every r LEFT JOIN vs ON vs.record_id = r.id LEFT JOIN vq ON vq.record_id = r.id"
        " LEFT JOIN gap ON gap.id = r.id ORDER BY r.seq"
    )
    # The store's connections prepare nothing (``prepare_threshold`` None, which also refuses ``prepare=True``):
    # for this one statement, only what is asked.
    kept = conn.prepare_threshold
    conn.prepare_threshold = sys.maxsize if prepared else kept
    try:
        return conn.execute(
            statement,
            [
                *search[1],
                *params,
                list(listed),
                *params,
                *params,
                *params,
                scope.tenant,
                scope.user or "",
                window + 1,
                scope.tenant,
            ],
            prepare=prepared,
        )
    finally:
        conn.prepare_threshold = kept


def _read(rows: list[tuple[Any, ...]]) -> _Read:
    """The second statement's rows."""
    read = _Read()
    width = len(COLUMNS.split(","))
    vector: list[tuple[int, Candidate]] = []
    followed: list[str] = []  # records whose successors were read: the candidates and their successors
    asked: set[str] = set()  # ids read by id: the candidates and what the records before pre supersede
    for row in rows:
        record = row_to_record(row[:width])
        seq, vec, score, at, gap, role, vector_read = row[width:]
        if vector_read:
            read.vector_read.append(record.id)
        read.records[record.id] = record
        read.order[record.id] = int(seq)
        if vec is not None:
            read.vectors[record.id] = np.frombuffer(bytes(vec), dtype=">f4", offset=4).astype(np.float32)
        if score is not None:
            vector.append((int(at), Candidate(record.id, float(score))))
        if gap is not None:
            read.gaps.append((record.id, int(seq), int(gap)))
        if role <= 1:
            followed.append(record.id)
        if role <= 2 and record.supersedes is not None:
            asked.add(record.supersedes)
    read.gaps.sort(key=lambda g: g[1])
    read.vector = [c for _, c in sorted(vector, key=lambda v: v[0])]
    read.successors_of = frozenset(followed)
    read.looked_up = frozenset(asked | {c.id for c in read.vector})
    return read
