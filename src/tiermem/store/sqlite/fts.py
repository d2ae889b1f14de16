"""(internal) Full-text candidates for the SQLite store: FTS5 matching, BM25 with the scope's own statistics.

FTS5 finds the scope's matching rows; their score is BM25 computed from the scope's document count, average
length and document frequencies (``bm25.py``), never from the whole table's: another tenant's records must not
change this one's ranking. The scope's size is cached per scope generation; each term's frequency in a row is
read back from FTS5's own one-term bm25() (``phrase_frequencies.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tiermem.store.base import Candidate
from tiermem.store.fulltext import POSTINGS_BUDGET, rarest_within_budget
from tiermem.store.sqlite.bm25 import (
    FloatArray,
    ScopeTextStats,
    bm25_scores,
    docsize_lengths,
    docsize_total,
)
from tiermem.store.sqlite.fts_syntax import fts_query
from tiermem.store.sqlite.phrase_frequencies import BM25_WEIGHTS, SQLitePhraseFrequenciesMixin
from tiermem.store.sqlite.scope_text import ScopeText, admits, held_filter, read_scope_text
from tiermem.store.sqlite.sql import TAG_SETS_KEPT, filter_sql, scope_sql, tagged_rowids
from tiermem.store.sqlite.term_counts import SQLiteTermCountsMixin
from tiermem.store.sqlite.term_rows import (
    KNOWN_TERMS,
    NO_ROWS,
    TermRows,
    keep_counts,
    learn_terms,
    union,
)
from tiermem.types import Filter, Scope

Matches = tuple[list[int], list[str], npt.NDArray[np.bool_], FloatArray, FloatArray, ScopeTextStats]
"""The scope's rows matching a keyword query (rowids ascending, record ids, whether the filter admits each,
their lengths), each row's frequency of each term, and the scope's size: what BM25 scores."""

__all__ = ["PRUNE_FROM_RECORDS", "SQLiteFullTextMixin"]

PRUNE_FROM_RECORDS = 20_000  # scopes this large get their most common query words pruned from full text
HOLD_ROWS_FROM = 3  # the keyword query of a scope generation from which it holds the scope's rows (scope_text)
_HELD_ROWS = 1_000_000  # rows held for all scopes together (~100 bytes each); past it the cache starts again


class SQLiteFullTextMixin(SQLitePhraseFrequenciesMixin, SQLiteTermCountsMixin):
    """Keyword candidates on the store's connection (the FTS5 table itself comes with the migrations)."""

    _depth: int  # write transactions open (``SQLiteStore.transaction``): their generation may yet be rolled back

    if TYPE_CHECKING:

        def _snapshot(self) -> AbstractContextManager[None]: ...

    def _init_full_text(self) -> None:
        """Per-connection caches for scoring (see ``keyword_candidates`` and ``_prune_common_terms``)."""
        # Per scope, document counts of query words with the scope's size when read: counting walks a word's
        # postings, which is slow for a common word, and pruning needs only their order of magnitude.
        self._doc_counts: dict[tuple[str, str, str], tuple[int, int]] = {}
        # Per scope, its full-text size at a generation (generations never repeat, see maintenance.erase).
        self._text_stats: dict[tuple[str, str], tuple[int, ScopeTextStats]] = {}
        # Per scope, at a generation, how many keyword queries it has had, then its rows (``scope_text``) once that
        # reaches HOLD_ROWS_FROM: reading them costs a few keyword queries, and a scope that is asked again and
        # again without a write in between then reads only the matching rowids from the index.
        self._held_rows: dict[tuple[str, str], tuple[int, int | ScopeText]] = {}
        self._held_size = 0
        # Per scope, the relevance counts of words at a generation: recall asks for them on every query, and a
        # scope's common words come back query after query.
        self._term_counts: dict[tuple[str, str], tuple[int, dict[str, int]]] = {}
        # Per scope, each term's rows and weighted frequencies at a generation (see ``_phrase_frequencies``).
        self._frequencies: dict[tuple[str, str], tuple[int, dict[str, TermRows]]] = {}

    def keyword_candidates(
        self, scope: Scope, terms: Sequence[str], filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        if not terms:
            return []
        key = (scope.tenant, scope.user or "")
        found = self._known_matches(key, scope, terms, filter_, now)
        if found is None:
            found = self._matches(key, scope, terms, filter_, now)
        if found is None or not found[2].any():
            return []
        matched, names, kept_rows, lengths, frequencies, stats = found
        scores = bm25_scores(frequencies, lengths, stats)
        # FTS5's order: best score first, then rowid (unique, so the order is total).
        kept = np.flatnonzero(kept_rows)
        best = kept[np.lexsort((np.array(matched, dtype=np.int64)[kept], -scores[kept]))][:limit]
        return list(map(Candidate, map(names.__getitem__, best.tolist()), scores[best].tolist()))

    def _known_matches(
        self, key: tuple[str, str], scope: Scope, terms: Sequence[str], filter_: Filter, now: datetime
    ) -> Matches | None:
        """The matches of ``terms`` from what is held of the generation this thread pinned (``pin.py``): the
        scope's rows and each term's rows, which are every row of the scope a match of the terms finds; None when
        something is not held (then the index is asked)."""
        pin = self._pin(key)
        if pin is None or self._depth > 0 or not 0 < pin.size < PRUNE_FROM_RECORDS or not held_filter(scope, filter_):
            return None
        text = self._held_rows.get(key)
        known = self._frequencies.get(key)
        if text is None or known is None or text[0] != pin.gen or known[0] != pin.gen:
            return None
        held, by_term = text[1], known[1]
        if not isinstance(held, ScopeText):
            return None
        # A tag set's rows as ``_held_matches`` kept them, read with this generation's rows (None: not read yet).
        tagged = held.tagged.get(tuple(sorted(filter_.tags))) if filter_.tags else None
        if filter_.tags and tagged is None:
            return None
        missing = [t for t in dict.fromkeys(terms) if t not in by_term]
        if missing:
            # Only the new words are asked of the index, each once: matching every term would walk the kept too.
            if len(by_term) + len(missing) > KNOWN_TERMS:
                return None
            counts: dict[str, int] = {}
            with self._snapshot():
                learned = learn_terms(
                    self._conn,
                    key,
                    pin.gen,
                    held,
                    missing,
                    lambda ts, token: fts_query(scope, ts, with_scope_token=token),
                    BM25_WEIGHTS,
                    counts,
                    by_term,
                )
                if learned is None:
                    return None
                by_term.update(learned)
            keep_counts(self._term_counts, key, pin.gen, counts)
        rowids = union([by_term[t][0] for t in terms])
        at, inside = held.places(rowids)
        if not inside.all():  # held rows are the scope's own: a row of another generation, ask the index
            return None
        kept_rows, lengths = admits(held, at, filter_, now, tagged), held.lengths[at]
        if not kept_rows.any():
            return [], [], kept_rows, lengths, lengths, held.stats
        matched = rowids.tolist()
        frequencies = self._phrase_frequencies(scope, terms, matched, lengths, False, by_term)
        return matched, held.ids[at].tolist(), kept_rows, lengths, frequencies, held.stats

    def _matches(
        self, key: tuple[str, str], scope: Scope, terms: Sequence[str], filter_: Filter, now: datetime
    ) -> Matches | None:
        """The scope's rows matching any of ``terms`` as the index finds them, with what BM25 needs of them."""
        where, params = scope_sql(scope)
        fwhere, fparams = filter_sql(filter_, now)
        with self._snapshot():  # the counts, the matches and the sizes of one state: BM25 needs all three
            row = self._conn.execute(
                "SELECT n, gen, (SELECT MAX(rowid) FROM records) FROM scope_generations"
                " WHERE tenant = ? AND user_key = ?",
                key,
            ).fetchone()
            if row is None or not row[0]:
                return None
            size, gen, top = row
            # ANDing the scope token skips other scopes' postings (x10 faster for a small scope in a big
            # file) but costs a walk of the token's own postings: worth it only for a minor part of the file.
            use_token = size * 4 < (top or 0)
            if size >= PRUNE_FROM_RECORDS:
                terms = self._prune_common_terms(scope, terms, size)
            match = fts_query(scope, terms, with_scope_token=use_token)
            held = self._held_text(key, gen) if held_filter(scope, filter_) else None
            found = self._held_matches(key, gen, held, match, filter_, now) if held is not None else None
            if found is None:
                # Every matching row of the (tenant, user), also those the filter or the agent/session leave out:
                # a phrase's document frequency is the scope's, whatever this query keeps. The unary '+' keeps
                # the scope columns out of the planner's choice: probing the full-text index row by row is far
                # slower.
                rows = self._conn.execute(
                    f"SELECT r.rowid, r.id, d.sz, ({where} AND {fwhere})"
                    " FROM records_fts JOIN records r ON r.rowid = records_fts.rowid"
                    " JOIN records_fts_docsize d ON d.id = r.rowid"
                    " WHERE records_fts MATCH ? AND +r.tenant = ? AND +r.user_key = ?",
                    [*params, *fparams, match, *key],
                ).fetchall()
                if not rows:
                    return None
                rowids, ids, sizes, admitted = zip(*rows, strict=True)
                found = (list(rowids), list(ids), np.array(admitted, dtype=bool), docsize_lengths(sizes))
            matched, names, kept_rows, lengths = found
            known = self._known_frequencies(key, gen)
            if not matched and known is not None and held is not None and len(known) < KNOWN_TERMS:
                # No row of the scope holds any of the terms: each term's rows are known, none.
                known.update((t, NO_ROWS) for t in terms)
            if not kept_rows.any():
                return None
            frequencies = self._phrase_frequencies(scope, terms, matched, lengths, use_token, known)
            stats = held.stats if held is not None else self._scope_text_stats(key, gen)
        return matched, names, kept_rows, lengths, frequencies, stats

    def _held_text(self, key: tuple[str, str], gen: int) -> ScopeText | None:
        """The scope's rows at ``gen`` once it has had ``HOLD_ROWS_FROM`` keyword queries at it, else None."""
        if self._depth > 0:  # the generation may yet be rolled back and reused
            return None
        cached = self._held_rows.get(key)
        seen = cached[1] if cached is not None and cached[0] == gen else 0
        if isinstance(seen, ScopeText):
            return seen
        if cached is not None and isinstance(cached[1], ScopeText):  # an earlier generation's rows: let go
            self._held_size -= cached[1].rowids.size
        text = read_scope_text(self._conn, key) if seen + 1 >= HOLD_ROWS_FROM else None
        rows = 0 if text is None else text.rowids.size
        if len(self._held_rows) > 10_000 or self._held_size + rows > _HELD_ROWS:  # bounded: many scopes, big ones
            self._held_rows.clear()
            self._held_size = 0
        self._held_rows[key] = (gen, seen + 1 if text is None else text)
        self._held_size += rows
        return text

    def _held_matches(
        self, key: tuple[str, str], gen: int, text: ScopeText, match: str, filter_: Filter, now: datetime
    ) -> tuple[list[int], list[str], npt.NDArray[np.bool_], FloatArray] | None:
        """The scope's rows matching ``match`` (rowids, ids, admitted by ``filter_``, lengths) from ``text``, or
        None when the scope moved past ``gen`` meanwhile (another process wrote)."""
        matched = self._conn.execute("SELECT rowid FROM records_fts WHERE records_fts MATCH ?", [match]).fetchall()
        # Read before the generation is checked, so a tag set read now is this generation's too.
        tags = tuple(sorted(filter_.tags))
        tagged = text.tagged.get(tags) if tags else None
        if tags and tagged is None:
            tagged = self._tagged_rows(key, text, tags)
        # A row missing from ``text`` is another scope's (the query may walk every scope's postings), unless the
        # scope changed after ``text`` was read: its generation, read after the match, says which.
        now_gen = self._conn.execute(
            "SELECT gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key
        ).fetchone()
        if now_gen is None or now_gen[0] != gen:
            return None
        if tagged is not None and tags not in text.tagged:  # kept only once known to be this generation's
            if len(text.tagged) >= TAG_SETS_KEPT:
                text.tagged.clear()
            text.tagged[tags] = tagged
        rowids = np.fromiter((rowid for (rowid,) in matched), dtype=np.int64, count=len(matched))
        places, held = text.places(rowids)
        at = places[held]
        return rowids[held].tolist(), text.ids[at].tolist(), admits(text, at, filter_, now, tagged), text.lengths[at]

    def _tagged_rows(self, key: tuple[str, str], text: ScopeText, tags: tuple[str, ...]) -> npt.NDArray[np.bool_]:
        """Which of ``text``'s rows hold one of ``tags``, as the file holds them now."""
        places, held = text.places(np.array(tagged_rowids(self._conn, key, tags), dtype=np.int64))
        rows = np.zeros(text.rowids.size, dtype=bool)
        rows[places[held]] = True
        return rows

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
        if self._depth == 0:
            if len(self._text_stats) > 10_000:
                self._text_stats.clear()
            self._text_stats[key] = (gen, stats)
        return stats

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
        return rarest_within_budget(ranked, POSTINGS_BUDGET)
