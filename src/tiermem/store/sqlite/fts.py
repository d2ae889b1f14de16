"""(internal) Full-text candidates for the SQLite store: FTS5 matching, BM25 with the scope's own statistics.

FTS5 finds the scope's matching rows; their score is BM25 computed from the scope's document count, average
length and document frequencies (``bm25.py``), never from the whole table's: another tenant's records must not
change this one's ranking. The scope's size is cached per scope generation; each query tokenises its matching
rows once more (a scratch FTS5 table, the very tokenizer of the index) to count each phrase per column.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from tiermem.store.base import Candidate
from tiermem.store.sqlite.bm25 import ScopeTextStats, bm25_scores, docsize_tokens, docsize_total, phrase_frequencies
from tiermem.store.sqlite.sql import filter_sql, scope_sql
from tiermem.types import Filter, Scope

__all__ = [
    "CONTEXT_WEIGHT",
    "POSTINGS_BUDGET",
    "PRUNE_FROM_RECORDS",
    "REREAD_BELOW_SHARE",
    "SQLiteFullTextMixin",
    "fts_query",
]

PRUNE_FROM_RECORDS = 20_000  # scopes this large get their most common query words pruned from full text
POSTINGS_BUDGET = 2_000  # matching rows bm25() may rank per query in such scopes (~5 ms)
# A scope holding less than this share of the file has its matching rows tokenised again (~50 µs a row) to find
# the query's words in them; a bigger one reads their positions from the index (~1 µs a position, but the
# index lists every scope's). Both give the same scores.
REREAD_BELOW_SHARE = 1 / 32
# bm25 weight of a record's search context against its content (1.0): a word around a record is weaker evidence
# than a word in it. Measured on LoCoMo with the previous turn as context: 0.25 and 0.5 alike, 1.0 worse.
CONTEXT_WEIGHT = 0.5
# Columns content, context, scope token: the token is in every document of its scope and says nothing.
_WEIGHTS = (1.0, CONTEXT_WEIGHT)
_TOKENIZER = "porter unicode61 remove_diacritics 2"  # the index's (migrations): a stem must match its stems
_COLUMN = {"content": 0, "context": 1}
_Positions = dict[int, dict[int, list[tuple[int, str]]]]  # rowid -> column -> (offset, stem) of query stems


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
        self._conn.execute(f"CREATE VIRTUAL TABLE temp.query_words USING fts5(word, tokenize='{_TOKENIZER}')")
        self._conn.execute("CREATE VIRTUAL TABLE temp.query_stems USING fts5vocab(temp, query_words, 'instance')")
        # The matching rows tokenised again, to count each query phrase in each row's columns (contentless, so
        # 'delete-all' empties it at once).
        self._conn.execute(
            f"CREATE VIRTUAL TABLE temp.scoring USING fts5(content, context, content='', tokenize='{_TOKENIZER}')"
        )
        self._conn.execute("CREATE VIRTUAL TABLE temp.scoring_words USING fts5vocab(temp, scoring, 'instance')")
        # Or, when the scope is a large part of the file, the index's own positions of the query's stems.
        self._conn.execute("CREATE VIRTUAL TABLE temp.index_words USING fts5vocab(main, records_fts, 'instance')")
        # Per scope, document counts of query words with the scope's size when read: counting walks a word's
        # postings (~15 ms for a word in 30k rows), and pruning needs only their order of magnitude.
        self._doc_counts: dict[tuple[str, str, str], tuple[int, int]] = {}
        # Per scope, its full-text size at a generation (generations never repeat, see maintenance.erase).
        self._text_stats: dict[tuple[str, str], tuple[int, ScopeTextStats]] = {}

    def keyword_candidates(
        self, scope: Scope, terms: Sequence[str], filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        if not terms:
            return []
        key = (scope.tenant, scope.user or "")
        where, params = scope_sql(scope)
        fwhere, fparams = filter_sql(filter_, now)
        with self._lock:
            row = self._conn.execute(
                "SELECT n, gen, (SELECT MAX(rowid) FROM records) FROM scope_generations"
                " WHERE tenant = ? AND user_key = ?",
                key,
            ).fetchone()
            if row is None or not row[0]:
                return []
            size, gen, top = row
            # ANDing the scope token skips other scopes' postings (x10 faster for a small scope in a big
            # file) but costs a walk of the token's own postings: worth it only for a minor part of the file.
            use_token = size * 4 < (top or 0)
            if size >= PRUNE_FROM_RECORDS:
                terms = self._prune_common_terms(scope, terms, size)
            # Every matching row of the (tenant, user), also those the filter or the agent/session leave out: a
            # phrase's document frequency is the scope's, whatever this query keeps. The unary '+' keeps the
            # scope columns out of the planner's choice: probing the full-text index row by row is far slower.
            reread = size < (top or 0) * REREAD_BELOW_SHARE
            text = ", r.content, r.context" if reread else ""
            rows = self._conn.execute(
                f"SELECT r.rowid, r.id, d.sz, ({where} AND {fwhere}){text}"
                " FROM records_fts JOIN records r ON r.rowid = records_fts.rowid"
                " JOIN records_fts_docsize d ON d.id = r.rowid"
                " WHERE records_fts MATCH ? AND +r.tenant = ? AND +r.user_key = ?",
                [*params, *fparams, fts_query(scope, terms, with_scope_token=use_token), *key],
            ).fetchall()
            if not any(r[3] for r in rows):
                return []
            phrases = self._phrase_stems(terms)
            stems = sorted({stem for phrase in phrases for stem in phrase})
            positions = self._reread_positions(rows, stems) if reread else self._index_positions(rows, stems)
            stats = self._scope_text_stats(key, gen)
        frequencies = {doc: phrase_frequencies(columns, phrases, _WEIGHTS) for doc, columns in positions.items()}
        lengths = {r[0]: docsize_tokens(r[2]) for r in rows}
        scores = bm25_scores(frequencies, lengths, stats, len(phrases))
        # FTS5's order: best score first, then rowid.
        kept = sorted((-scores[r[0]], r[0], r[1]) for r in rows if r[3])[:limit]
        return [Candidate(rid, -negated) for negated, _, rid in kept]

    def _scope_text_stats(self, key: tuple[str, str], gen: int) -> ScopeTextStats:
        """The scope's document count and tokens (all columns), read once per scope generation."""
        cached = self._text_stats.get(key)
        if cached is not None and cached[0] == gen:
            return cached[1]
        sizes = self._conn.execute(
            "SELECT d.sz FROM records r JOIN records_fts_docsize d ON d.id = r.rowid"
            " WHERE r.tenant = ? AND r.user_key = ?",
            key,
        ).fetchall()
        stats = ScopeTextStats(len(sizes), docsize_total([sz for (sz,) in sizes]))
        # Inside a write transaction the generation may yet be rolled back and reused: not worth keeping.
        if not self._conn.in_transaction:
            if len(self._text_stats) > 10_000:
                self._text_stats.clear()
            self._text_stats[key] = (gen, stats)
        return stats

    def _phrase_stems(self, terms: Sequence[str]) -> list[list[str]]:
        """Each term's stems in order, as the index's tokenizer makes them (a term of two words is a phrase)."""
        self._conn.execute("DELETE FROM temp.query_words")
        self._conn.executemany(
            "INSERT INTO temp.query_words (rowid, word) VALUES (?, ?)", list(enumerate(terms, start=1))
        )
        stems: list[list[tuple[int, str]]] = [[] for _ in terms]
        for stem, doc, offset in self._conn.execute("SELECT term, doc, offset FROM temp.query_stems"):
            stems[doc - 1].append((offset, stem))
        return [[stem for _, stem in sorted(found)] for found in stems]

    def _reread_positions(self, rows: list[tuple[Any, ...]], stems: list[str]) -> _Positions:
        """Where the stems occur in each row, from its content and context tokenised again."""
        positions: _Positions = {r[0]: {} for r in rows}
        if not stems:
            return positions
        # One savepoint around the scratch writes: in autocommit mode FTS5 would flush a segment per row.
        self._conn.execute("SAVEPOINT scoring")
        try:
            self._conn.executemany(
                "INSERT INTO temp.scoring (rowid, content, context) VALUES (?, ?, ?)",
                [(r[0], r[4], r[5]) for r in rows],
            )
            found = self._conn.execute(
                f"SELECT doc, col, offset, term FROM temp.scoring_words WHERE term IN ({','.join('?' * len(stems))})",
                stems,
            )
            for doc, col, offset, term in found:
                positions[doc].setdefault(_COLUMN[col], []).append((offset, term))
        finally:
            self._conn.execute("ROLLBACK TO scoring")  # the scratch rows go; nothing else was written
            self._conn.execute("RELEASE scoring")
        return positions

    def _index_positions(self, rows: list[tuple[Any, ...]], stems: list[str]) -> _Positions:
        """Where the stems occur in each row, read from the index (which also lists other scopes' rows)."""
        positions: _Positions = {r[0]: {} for r in rows}
        if not stems:
            return positions
        found = self._conn.execute(
            f"SELECT doc, col, offset, term FROM temp.index_words WHERE term IN ({','.join('?' * len(stems))})", stems
        )
        for doc, col, offset, term in found:
            columns = positions.get(doc)
            column = _COLUMN.get(col)
            if columns is not None and column is not None:  # not the scope token's column
                columns.setdefault(column, []).append((offset, term))
        return positions

    def _document_counts(self, scope: Scope, words: list[str], size: int) -> dict[str, int]:
        """How many of the scope's rows hold each word; a count is reused until the scope changed by a tenth."""
        cache = self._doc_counts
        out: dict[str, int] = {}
        for word in words:
            known = cache.get((scope.tenant, scope.user or "", word))
            if known is not None and abs(size - known[1]) * 10 <= known[1]:
                out[word] = known[0]
                continue
            # The scope token names exactly the (tenant, user): counting needs no look-up of the records.
            match = fts_query(scope, [word], with_scope_token=True)
            (count,) = self._conn.execute(
                "SELECT count(*) FROM records_fts WHERE records_fts MATCH ?", [match]
            ).fetchone()
            if len(cache) > 100_000:  # bounded: a long-lived process sees many distinct words
                cache.clear()
            cache[(scope.tenant, scope.user or "", word)] = (int(count), size)
            out[word] = int(count)
        return out

    def _prune_common_terms(self, scope: Scope, terms: Sequence[str], size: int) -> list[str]:
        """The rarest query words whose postings fit ``POSTINGS_BUDGET`` (always at least the rarest one).

        Scoring costs per matching row, so one common word in a big scope costs tens of milliseconds. Rare
        words carry most of BM25's weight (IDF), so the common ones are dropped from the full-text query once
        the rarer ones already cover the budget; the vector signal still sees the whole query. Applies to
        scopes of ``PRUNE_FROM_RECORDS`` or more; the counts are the scope's own, so no other scope changes
        which words are kept.
        """
        words_of = {t: t.split() for t in terms}
        counts = self._document_counts(scope, sorted({w for words in words_of.values() for w in words}), size)
        # A phrase query walks the postings of each of its words.
        ranked = sorted((sum(counts.get(w, 0) for w in words_of[t]), t) for t in terms)
        kept: list[str] = []
        total = 0
        for postings, term in ranked:
            if kept and total + postings > POSTINGS_BUDGET:
                break
            kept.append(term)
            total += postings
        return kept
