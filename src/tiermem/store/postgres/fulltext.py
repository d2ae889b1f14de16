"""(internal) Full-text candidates on PostgreSQL: the postings table finds the rows, BM25 ranks them.

The postings (``fts_postings``, migration 0005: a row per record and term, with its positions) are looked up by
equality alone, which row-level security lets through an index; a GIN-indexed ``@@`` match is not (``@@`` is not
leakproof), so under the policy it walked every row of the scope.

PostgreSQL's ``ts_rank`` is not BM25 and reads no collection statistics, so the ranking is computed here the way
SQLite's FTS5 ``bm25()`` computes it (k1 1.2, b 0.75, IDF ``log((N - n + 0.5) / (n + 0.5))`` floored at 1e-6, a
phrase's frequency summed over its occurrences weighted by column), from the statistics of the (tenant, user)
alone: N and the average length from ``scope_stats``, document frequencies counted among the scope's matching rows
(``fts_terms`` keeps them per term for pruning). One tenant's words never change another's ranking. The same
postings give the relevance floor its term statistics (``TermStatistics``), counted as the SQLite store counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.store.base import Candidate
from tiermem.store.fulltext import CONTEXT_WEIGHT, COUNT_CAP, POSTINGS_BUDGET, query_stems, rarest_within_budget
from tiermem.store.postgres.sql import filter_sql
from tiermem.types import Filter, Scope

__all__ = [
    "COUNT_CAP",
    "POSTINGS_BUDGET",
    "PRUNE_FROM_RECORDS",
    "PgFullTextMixin",
    "admitted_sql",
    "bm25_scores",
    "ranked",
]

K1, B = 1.2, 0.75
# Scopes this large get their most common query words pruned (as the SQLite store does from 20,000): every matching
# row's positions travel to the client here, where FTS5 ranks a row in C inside the database.
PRUNE_FROM_RECORDS = 5_000
Positions = dict[str, dict[int, float]]  # stem -> position -> column weight


class PgFullTextMixin:
    """Keyword candidates (BM25 over the scope's own statistics)."""

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def keyword_candidates(
        self, scope: Scope, terms: Sequence[str], filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        phrases = [p for p in query_stems(terms) if p]
        if not phrases or limit <= 0:
            return []
        key = [scope.tenant, scope.user or ""]
        with self._tenant(scope.tenant) as conn:
            stats = conn.execute("SELECT docs, tokens FROM scope_stats WHERE tenant = %s AND user_key = %s", key)
            row = stats.fetchone()
            if row is None or not row[0]:
                return []
            if int(row[0]) >= PRUNE_FROM_RECORDS:
                phrases = _prune(conn, key, phrases)
            admitted, aparams = admitted_sql(scope, filter_, now)
            stems = sorted({s for p in phrases for s in p})
            # Every row of the (tenant, user) holding a query stem, whether the filter admits it or not: each
            # counts in the document frequencies, as every row of the index does in FTS5's. Only equality
            # (leakproof) conditions, so both lookups go through their btrees under row-level security. N and
            # the lengths are read again with them: each statement sees its own snapshot, and postings counted
            # against an N read before other writers committed could outnumber it.
            found = conn.execute(
                "SELECT s.docs, s.tokens, p.seq, p.term, p.at FROM scope_stats s, fts_postings p"
                " WHERE s.tenant = %s AND s.user_key = %s AND p.tenant = %s AND p.user_key = %s AND p.term = ANY(%s)",
                [*key, *key, stems],
            ).fetchall()
            if not found:
                return []
            docs, tokens = int(found[0][0]), int(found[0][1])
            postings = [posting[2:] for posting in found]
            rows = conn.execute(
                f"SELECT r.seq, r.id, r.fts_len, {admitted} AS ok FROM records r"
                " WHERE r.tenant = %s AND r.user_key = %s AND r.seq = ANY(%s::bigint[])",
                [*aparams, *key, sorted({seq for seq, _, _ in postings})],
            ).fetchall()
        return ranked(phrases, postings, rows, docs, tokens, limit)

    def term_document_counts(self, scope: Scope, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The (tenant, user)'s record count and how many of its records' content holds each term (at most
        ``COUNT_CAP``), as the SQLite store counts them."""
        key = [scope.tenant, scope.user or ""]
        with self._tenant(scope.tenant) as conn:
            row = conn.execute("SELECT docs FROM scope_stats WHERE tenant = %s AND user_key = %s", key).fetchone()
            if row is None or not row[0]:
                return 0, dict.fromkeys(terms, 0)
            stems = query_stems(terms)
            singles = _count_single_stems(conn, key, sorted({p[0] for p in stems if len(p) == 1}))
            counts = {
                t: singles[p[0]] if len(p) == 1 else _count_in_content(conn, key, p)
                for t, p in zip(terms, stems, strict=True)
            }
        return int(row[0]), counts


def admitted_sql(scope: Scope, filter_: Filter, now: datetime) -> tuple[str, list[Any]]:
    """Whether a row of the (tenant, user) is in ``scope`` (its agent and session) and ``filter_`` admits it."""
    narrow = ""
    params: list[Any] = []
    if scope.agent is not None:
        narrow += " AND r.agent = %s"
        params.append(scope.agent)
    if scope.session is not None:
        narrow += " AND r.session = %s"
        params.append(scope.session)
    fwhere, fparams = filter_sql(filter_, now)
    return f"(TRUE{narrow} AND {fwhere})", [*params, *fparams]


def ranked(
    phrases: Sequence[tuple[str, ...]],
    postings: Sequence[Sequence[Any]],
    rows: Sequence[Sequence[Any]],
    docs: int,
    tokens: int,
    limit: int,
) -> list[Candidate]:
    """The ``limit`` best of ``rows`` (seq, id, length, admitted by the filter) by BM25 for ``phrases``, from
    their ``postings`` (seq, stem, positions; a context position is negative); ties in insertion order."""
    positions: dict[int, Positions] = {}
    for seq, term, at in postings:
        positions.setdefault(seq, {})[term] = {abs(p): 1.0 if p > 0 else CONTEXT_WEIGHT for p in at}
    found = {rid: (seq, length, bool(ok), positions[seq]) for seq, rid, length, ok in rows}
    scores = bm25_scores(phrases, {rid: (e[1], e[3]) for rid, e in found.items()}, docs, tokens)
    best = sorted(((-s, found[rid][0], rid) for rid, s in scores.items() if found[rid][2]))
    return [Candidate(rid, -neg) for neg, _, rid in best[:limit]]


def _frequency(phrase: tuple[str, ...], positions: Positions) -> float:
    """Occurrences of the phrase in a document, each weighted by its column."""
    first = positions.get(phrase[0])
    if not first:
        return 0.0
    if len(phrase) == 1:
        return sum(first.values())
    total = 0.0
    for start, weight in first.items():
        if all(positions.get(s, {}).get(start + i) == weight for i, s in enumerate(phrase[1:], start=1)):
            total += weight
    return total


def bm25_scores(
    phrases: Sequence[tuple[str, ...]], documents: dict[str, tuple[int, Positions]], docs: int, tokens: int
) -> dict[str, float]:
    """BM25 of each document (id -> (length, positions)) for the phrases, as FTS5's bm25() with positive sign.

    FTS5 counts its one scope token per row in every length; so are they counted here (the + 1s)."""
    avgdl = tokens / docs + 1
    freqs = {rid: [_frequency(p, pos) for p in phrases] for rid, (_, pos) in documents.items()}
    idf = []
    for i in range(len(phrases)):
        hits = sum(1 for f in freqs.values() if f[i] > 0)
        value = math.log((docs - hits + 0.5) / (hits + 0.5))
        idf.append(value if value > 0 else 1e-6)
    out: dict[str, float] = {}
    for rid, f in freqs.items():
        norm = K1 * (1 - B + B * (documents[rid][0] + 1) / avgdl)
        score = sum(idf[i] * (x * (K1 + 1)) / (x + norm) for i, x in enumerate(f) if x > 0)
        if score > 0:
            out[rid] = score
    return out


def _prune(conn: psycopg.Connection[Any], key: list[str], phrases: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The rarest phrases whose postings fit ``POSTINGS_BUDGET`` (at least the rarest), as the SQLite store does."""
    stems = sorted({s for p in phrases for s in p})
    df = dict(
        conn.execute(
            "SELECT term, df FROM fts_terms WHERE tenant = %s AND user_key = %s AND term = ANY(%s)", [*key, stems]
        ).fetchall()
    )
    ranked = sorted((sum(int(df.get(s, 0)) for s in p), i) for i, p in enumerate(phrases))
    kept = rarest_within_budget(ranked, POSTINGS_BUDGET)
    return [phrases[i] for i in sorted(kept)]


def _count_single_stems(conn: psycopg.Connection[Any], key: list[str], stems: list[str]) -> dict[str, int]:
    """For each stem, the scope's records whose content holds it, up to ``COUNT_CAP``: one query for them all."""
    if not stems:
        return {}
    rows = conn.execute(
        "SELECT s, (SELECT count(*) FROM (SELECT 1 FROM fts_postings WHERE tenant = %s AND user_key = %s AND term = s"
        " AND at[1] > 0 LIMIT %s) c) FROM unnest(%s::text[]) s",
        [*key, COUNT_CAP, stems],
    ).fetchall()
    return {str(stem): int(n) for stem, n in rows}


def _count_in_content(conn: psycopg.Connection[Any], key: list[str], phrase: tuple[str, ...]) -> int:
    """The scope's records whose content holds the phrase, up to ``COUNT_CAP`` (a content position is > 0)."""
    if not phrase:
        return 0
    rows = conn.execute(
        "SELECT seq, term, at FROM fts_postings WHERE tenant = %s AND user_key = %s AND term = ANY(%s)",
        [*key, sorted(set(phrase))],
    ).fetchall()
    documents: dict[int, Positions] = {}
    for seq, term, at in rows:
        documents.setdefault(seq, {})[term] = {p: 1.0 for p in at if p > 0}
    return min(sum(1 for pos in documents.values() if _frequency(phrase, pos) > 0), COUNT_CAP)
