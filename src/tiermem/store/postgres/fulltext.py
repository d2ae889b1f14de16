"""(internal) Full-text candidates on PostgreSQL: a GIN-indexed tsvector finds the rows, BM25 ranks them.

PostgreSQL's ``ts_rank`` is not BM25 and reads no collection statistics, so the ranking is computed here the way
SQLite's FTS5 ``bm25()`` computes it (k1 1.2, b 0.75, IDF ``log((N - n + 0.5) / (n + 0.5))`` floored at 1e-6, a
phrase's frequency summed over its occurrences weighted by column), from the statistics of the (tenant, user)
alone: N and the average length from ``scope_stats``, document frequencies counted among the scope's matching rows
(``fts_terms`` keeps them per term for pruning). One tenant's words never change another's ranking.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.store.base import Candidate
from tiermem.store.postgres.sql import filter_sql
from tiermem.store.postgres.terms import query_stems, tsquery_text
from tiermem.store.sqlite.fts import CONTEXT_WEIGHT, POSTINGS_BUDGET
from tiermem.types import Filter, Scope

__all__ = ["PgFullTextMixin", "bm25_scores"]

K1, B = 1.2, 0.75
# Scopes this large get their most common query words pruned (as the SQLite store does from 20,000): every matching
# row's positions travel to the client here, ~10 us each, where FTS5 ranks a row in C in 2.5 us.
PRUNE_FROM_RECORDS = 5_000
_WEIGHT = {"A": 1.0, "B": CONTEXT_WEIGHT}  # content, context (see terms.py)
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
            docs, tokens = int(row[0]), int(row[1])
            if docs >= PRUNE_FROM_RECORDS:
                phrases = _prune(conn, key, phrases)
            narrow = ""
            nparams: list[Any] = []
            if scope.agent is not None:
                narrow += " AND r.agent = %s"
                nparams.append(scope.agent)
            if scope.session is not None:
                narrow += " AND r.session = %s"
                nparams.append(scope.session)
            fwhere, fparams = filter_sql(filter_, now)
            stems = sorted({s for p in phrases for s in p})
            # Every matching row of the (tenant, user), whether the filter admits it or not: each counts in the
            # document frequencies, as every row of the index does in FTS5's.
            rows = conn.execute(
                f"SELECT r.id, r.seq, r.fts_len, (TRUE{narrow} AND {fwhere}) AS ok, u.lexeme, u.positions, u.weights"
                " FROM records r, unnest(r.fts) u WHERE r.tenant = %s AND r.user_key = %s AND r.fts @@ %s::tsquery"
                " AND u.lexeme = ANY(%s)",
                [*nparams, *fparams, *key, tsquery_text(phrases), stems],
            ).fetchall()
        found: dict[str, tuple[int, int, bool, Positions]] = {}
        for rid, seq, length, ok, lexeme, positions, weights in rows:
            entry = found.setdefault(rid, (seq, length, bool(ok), {}))
            entry[3][lexeme] = {p: _WEIGHT.get(w, 1.0) for p, w in zip(positions, weights, strict=True)}
        scores = bm25_scores(phrases, {rid: (e[1], e[3]) for rid, e in found.items()}, docs, tokens)
        ranked = sorted(((-s, found[rid][0], rid) for rid, s in scores.items() if found[rid][2]))
        return [Candidate(rid, -neg) for neg, _, rid in ranked[:limit]]


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
    kept: list[int] = []
    total = 0
    for postings, i in ranked:
        if kept and total + postings > POSTINGS_BUDGET:
            break
        kept.append(i)
        total += postings
    return [phrases[i] for i in sorted(kept)]
