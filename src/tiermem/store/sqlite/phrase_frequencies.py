"""(internal) Each row's weighted frequency of each query term on SQLite, read back from FTS5's own bm25()."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tiermem.store.fulltext import CONTEXT_WEIGHT
from tiermem.store.sqlite.bm25 import FloatArray, frequency_from_bm25, table_averages, table_idf
from tiermem.store.sqlite.fts_syntax import fts_query
from tiermem.store.sqlite.pin import SQLiteGenerationPin
from tiermem.store.sqlite.scope_text import SortedIds, positions
from tiermem.store.sqlite.scratch_fts import SCRATCH_ROWS_UP_TO, scratch_frequencies
from tiermem.store.sqlite.term_rows import KNOWN_TERMS, TermRows, one_term_bm25
from tiermem.types import Scope

__all__ = ["BM25_WEIGHTS", "SQLitePhraseFrequenciesMixin"]

# Columns content, context, scope token: the token is in every document of its scope and says nothing.
BM25_WEIGHTS = f"1.0, {CONTEXT_WEIGHT}, 0.0"
_BM25 = f"bm25(records_fts, {BM25_WEIGHTS})"


class SQLitePhraseFrequenciesMixin(SQLiteGenerationPin):
    """Term frequencies per row for BM25, kept per scope generation (a SQLiteFullTextMixin part)."""

    _depth: int  # write transactions open: their generation may yet be rolled back
    _frequencies: dict[tuple[str, str], tuple[int, dict[str, TermRows]]]

    def _known_frequencies(self, key: tuple[str, str], gen: int) -> dict[str, TermRows] | None:
        """The scope's cached term frequencies at ``gen`` (None inside a write transaction: not kept there)."""
        if self._depth > 0:
            return None
        cached = self._frequencies.get(key)
        if cached is not None and cached[0] == gen:
            return cached[1]
        if len(self._frequencies) > 1_000:  # bounded: many scopes
            self._frequencies.clear()
        known: dict[str, TermRows] = {}
        self._frequencies[key] = (gen, known)
        return known

    def _phrase_frequencies(
        self,
        scope: Scope,
        terms: Sequence[str],
        rowids: list[int],
        lengths: FloatArray,
        with_scope_token: bool,
        known: dict[str, TermRows] | None = None,
    ) -> FloatArray:
        """Each row's weighted frequency of each term (phrase), read back from FTS5's own bm25() of that term.

        A one-phrase query's bm25() is the table-wide IDF times a function of the phrase's weighted frequency in
        the row, the row's length and the table's average length, all known here but the frequency: solving
        for it gives FTS5's own count (the index's tokenizer, phrases and column weights) without tokenising
        anything in Python. The table-wide figures are used only to undo FTS5's formula, never in the score.
        ``rowids`` must hold every row of the scope that holds any of the terms. A term's rows and frequencies
        are the scope's own (the rounding makes them exact whatever the table's figures), so ``known`` keeps
        them for the scope's generation: the words of one scope's questions come back query after query.
        For a scope that is a minor part of the file, its few matching rows are read from a table of their own
        (``scratch_fts``): the table-wide IDF walks the term's postings in every scope.
        """
        frequencies = np.zeros((len(rowids), len(terms)), dtype=np.float64)  # a row per document, a column per term
        rows = SortedIds.of(rowids)
        everyone, order, ordered = rows.ids, rows.order, rows.ordered
        missing: list[int] = []
        for i, term in enumerate(terms):
            if known is not None and term in known:
                held, counts = known[term]
                places = np.searchsorted(ordered, held)
                # Every row holding the term is among ``rowids`` when the caller kept its word; if not, ask again.
                if not held.size or (places[-1] < len(ordered) and np.array_equal(ordered[places], held)):
                    frequencies[order[places], i] = counts
                    continue
            missing.append(i)
        if not missing:
            return frequencies
        if with_scope_token and len(rowids) <= SCRATCH_ROWS_UP_TO:  # a small scope: never walk the whole file
            matches = [fts_query(scope, [terms[i]], with_scope_token=False) for i in missing]
            frequencies[:, missing] = scratch_frequencies(self._conn, matches, rowids, lengths, BM25_WEIGHTS)
        else:
            self._frequencies_from_table(
                scope, [terms[i] for i in missing], rows, lengths, with_scope_token, frequencies, missing
            )
        if known is not None:
            for i in missing:
                if len(known) >= KNOWN_TERMS:  # bounded: a long-lived process sees many words
                    break
                index = np.flatnonzero(frequencies[:, i])
                held_order = np.argsort(everyone[index])
                known[terms[i]] = (everyone[index][held_order], frequencies[index, i][held_order])
        return frequencies

    def _frequencies_from_table(
        self,
        scope: Scope,
        terms: Sequence[str],
        rows: SortedIds,
        lengths: FloatArray,
        with_scope_token: bool,
        out: FloatArray,
        columns: list[int],
    ) -> None:
        """Each term's frequencies (into ``out``'s ``columns``) solved from bm25() over the whole FTS5 table."""
        table_rows, table_tokens = table_averages(self._conn)
        average = float(table_tokens) / float(table_rows)
        order, ordered = rows.order, rows.ordered
        for term, column in zip(terms, columns, strict=True):
            found = self._conn.execute(
                one_term_bm25(_BM25), [fts_query(scope, [term], with_scope_token=with_scope_token)]
            ).fetchall()
            hits = len(found)  # without the scope token, every row of the table that holds the term
            if with_scope_token:
                (hits,) = self._conn.execute(
                    "SELECT count(*) FROM records_fts WHERE records_fts MATCH ?",
                    [fts_query(scope, [term], with_scope_token=False)],
                ).fetchone()
            idf = table_idf(table_rows, hits)
            if not found:
                continue
            found_rowids, found_scores = zip(*found, strict=True)
            # The index lists every scope: only the rows of ``rowids`` are kept.
            places, mine = positions(ordered, np.array(found_rowids, dtype=np.int64))
            if mine.any():
                index = order[places[mine]]
                score = np.array(found_scores, dtype=np.float64)[mine]
                out[index, column] = frequency_from_bm25(score, idf, lengths[index], average)
