"""(internal) Full-text candidates for the SQLite store: FTS5 BM25, bounded work in big scopes."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from datetime import datetime

from tiermem.store.base import Candidate
from tiermem.store.sqlite.sql import filter_sql, scope_sql
from tiermem.text_index import INDEX_FUNCTION
from tiermem.types import Filter, Scope

__all__ = [
    "CONTEXT_WEIGHT",
    "COUNT_CAP",
    "POSTINGS_BUDGET",
    "PRUNE_FROM_RECORDS",
    "REFILL_FULL_TEXT",
    "SQLiteFullTextMixin",
    "fts_query",
]

PRUNE_FROM_RECORDS = 20_000  # scopes this large get their most common query words pruned from full text
POSTINGS_BUDGET = 2_000  # matching rows bm25() may rank per query in such scopes (~5 ms)
COUNT_CAP = 1_000  # term_document_counts stops counting a word's records here
# bm25 weight of a record's search context against its content (1.0): a word around a record is weaker evidence
# than a word in it. Measured on LoCoMo with the previous turn as context: 0.25 and 0.5 alike, 1.0 worse.
CONTEXT_WEIGHT = 0.5
# Columns content, context, scope token: the token is in every document of its scope and says nothing.
_BM25 = f"bm25(records_fts, 1.0, {CONTEXT_WEIGHT}, 0.0)"
# The index holds each record's ``text_index.index_text`` (CJK runs as pairs, accents folded), which the
# triggers compute (migration 0005); FTS5's own 'rebuild' would index the raw text, so this refills it instead.
REFILL_FULL_TEXT = (
    "INSERT INTO records_fts (rowid, content, context, scope_tok)"
    f" SELECT rowid, {INDEX_FUNCTION}(content), {INDEX_FUNCTION}(context), scope_tok FROM records"
)


def fts_query(scope: Scope, terms: Sequence[str], *, with_scope_token: bool) -> str:
    """Any of the terms, each quoted so user text is never FTS5 syntax; optionally AND the scope's token."""
    words = "{content context} : (" + " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) + ")"
    if not with_scope_token:
        return words
    token = "s" + (f"{scope.tenant}/{scope.user or ''}").encode().hex().upper()
    return f"scope_tok : {token} AND {words}"


class SQLiteFullTextMixin:
    """Keyword candidates on the store's connection (the FTS5 table itself comes with the migrations)."""

    _conn: sqlite3.Connection
    _lock: threading.RLock

    def _init_full_text(self) -> None:
        """Per-connection helpers for pruning query words (see ``_prune_common_terms``)."""
        # A scratch FTS5 table that stems words exactly as the index does, and document counts read straight
        # from the index.
        self._conn.execute(
            "CREATE VIRTUAL TABLE temp.query_words USING fts5(word, tokenize='porter unicode61 remove_diacritics 2')"
        )
        self._conn.execute("CREATE VIRTUAL TABLE temp.query_stems USING fts5vocab(temp, query_words, 'instance')")
        self._conn.execute("CREATE VIRTUAL TABLE temp.index_terms USING fts5vocab(main, records_fts, 'row')")
        # Document counts of index terms, with the table size when read: fts5vocab counts a term by walking its
        # whole postings list (~15 ms for a word in 30k rows), and pruning needs only their order of magnitude.
        self._doc_counts: dict[str, tuple[int, int]] = {}

    def keyword_candidates(
        self, scope: Scope, terms: Sequence[str], filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        if not terms:
            return []
        where, params = scope_sql(scope, by_key=True)
        fwhere, fparams = filter_sql(filter_, now)
        with self._lock:
            # ANDing the scope token skips other scopes' postings (x10 faster for a small scope in a big
            # file) but costs a walk of the token's own postings: worth it only for a minor part of the file.
            row = self._conn.execute(
                "SELECT n, (SELECT MAX(rowid) FROM records) FROM scope_generations WHERE tenant = ? AND user_key = ?",
                (scope.tenant, scope.user or ""),
            ).fetchone()
            if row is None or not row[0]:
                return []
            use_token = row[0] * 4 < (row[1] or 0)
            if row[0] >= PRUNE_FROM_RECORDS:
                terms = self._prune_common_terms(terms, row[1] or 0)
            match = fts_query(scope, terms, with_scope_token=use_token)
            # First the best matches by BM25 alone, then the scope and filter checks on those only: looking up
            # each match's record costs as much as ranking it. Rows that pass among the index's top ``wide``
            # are exactly the scope's top rows; when fewer than ``limit`` pass, rank with the checks throughout.
            wide = max(4 * limit, 200)
            rows = self._conn.execute(
                f"SELECT r.id, f.s FROM (SELECT rowid, {_BM25} AS s"
                " FROM records_fts WHERE records_fts MATCH ? ORDER BY s, rowid LIMIT ?) f"
                f" JOIN records r ON r.rowid = f.rowid WHERE {where} AND {fwhere} ORDER BY f.s, f.rowid LIMIT ?",
                [match, wide, *params, *fparams, limit],
            ).fetchall()
            if len(rows) < limit:
                rows = self._conn.execute(
                    f"SELECT r.id, {_BM25} AS s FROM records_fts"
                    " JOIN records r ON r.rowid = records_fts.rowid"
                    f" WHERE records_fts MATCH ? AND {where} AND {fwhere} ORDER BY s, r.rowid LIMIT ?",
                    [match, *params, *fparams, limit],
                ).fetchall()
        return [Candidate(rid, -score) for rid, score in rows]  # bm25() is lower-is-better

    def term_document_counts(self, scope: Scope, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The (tenant, user)'s record count and how many of its records' content holds each term (at most
        ``COUNT_CAP``)."""
        token = "s" + (f"{scope.tenant}/{scope.user or ''}").encode().hex().upper()
        with self._lock:
            row = self._conn.execute(
                "SELECT n FROM scope_generations WHERE tenant = ? AND user_key = ?", (scope.tenant, scope.user or "")
            ).fetchone()
            if row is None or not row[0]:
                return 0, dict.fromkeys(terms, 0)
            counts: dict[str, int] = {}
            for term in terms:
                quoted = '"' + term.replace('"', '""') + '"'
                match = f"scope_tok : {token} AND {{content}} : {quoted}"
                # Capped: a word in a thousand records weighs little either way, and counting stops there.
                sql = "SELECT COUNT(*) FROM (SELECT 1 FROM records_fts WHERE records_fts MATCH ? LIMIT ?)"
                counts[term] = int(self._conn.execute(sql, (match, COUNT_CAP)).fetchone()[0])
        return int(row[0]), counts

    def _document_counts(self, stems: list[str], table_rows: int) -> dict[str, int]:
        """How many rows hold each stem; a count is reused until the table has grown or shrunk by a tenth."""
        cache = self._doc_counts
        fresh = {t: c for t in stems if (c := cache.get(t)) is not None and abs(table_rows - c[1]) * 10 <= c[1]}
        missing = [t for t in stems if t not in fresh]
        if missing:
            found = dict(
                self._conn.execute(
                    f"SELECT term, doc FROM temp.index_terms WHERE term IN ({','.join('?' * len(missing))})", missing
                ).fetchall()
            )
            if len(cache) > 100_000:  # bounded: a long-lived process sees many distinct words
                cache.clear()
            for term in missing:
                cache[term] = fresh[term] = (int(found.get(term, 0)), table_rows)
        return {t: c for t, (c, _) in fresh.items()}

    def _prune_common_terms(self, terms: Sequence[str], table_rows: int = 0) -> list[str]:
        """The rarest query words whose postings fit ``POSTINGS_BUDGET`` (always at least the rarest one).

        FTS5 computes bm25() for every row a query matches (~2.5 µs each here), so one common word in a big
        scope costs tens of milliseconds. Rare words carry most of BM25's weight (IDF), so the common ones are
        dropped from the full-text query once the rarer ones already cover the budget; the vector signal still
        sees the whole query. Applies to scopes of ``PRUNE_FROM_RECORDS`` or more.
        """
        self._conn.execute("DELETE FROM temp.query_words")
        self._conn.executemany(
            "INSERT INTO temp.query_words (rowid, word) VALUES (?, ?)", list(enumerate(terms, start=1))
        )
        stems_of: dict[str, list[str]] = {}
        for stem, doc in self._conn.execute("SELECT term, doc FROM temp.query_stems"):
            stems_of.setdefault(terms[doc - 1], []).append(stem)  # a phrase has several
        counts = self._document_counts(sorted({s for stems in stems_of.values() for s in stems}), table_rows)
        # A phrase query walks the postings of each of its words.
        ranked = sorted((sum(counts.get(s, 0) for s in stems_of.get(t, ())), t) for t in terms)
        kept: list[str] = []
        total = 0
        for postings, term in ranked:
            if kept and total + postings > POSTINGS_BUDGET:
                break
            kept.append(term)
            total += postings
        return kept
