"""(internal) A scope's rows holding a query term, with the term's weighted frequency in each, read from FTS5.

The SQLite store keeps each term's rows per scope generation (``phrase_frequencies.py``); a keyword query
whose terms are all kept needs no match against the index. ``learn_terms`` reads the terms not kept yet, so
that a query with a few new words asks the index for those words alone, instead of matching every term again
and then reading the new ones' frequencies.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from tiermem.store.fulltext import COUNT_CAP
from tiermem.store.sqlite.bm25 import frequency_from_bm25, table_averages, table_idf
from tiermem.store.sqlite.scope_text import ScopeText
from tiermem.store.sqlite.scratch_fts import SCRATCH_ROWS_UP_TO, scratch_frequencies

__all__ = [
    "KNOWN_TERMS",
    "NO_ROWS",
    "SCRATCH_FROM_FILE_SHARE",
    "SCRATCH_FROM_SHARE",
    "TermRows",
    "in_no_row",
    "keep_counts",
    "learn_terms",
    "one_term_bm25",
    "union",
]

TermRows = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]
"""A term's rows in a scope (rowids, ascending) and its weighted frequency in each."""

NO_ROWS: TermRows = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))
KNOWN_TERMS = 10_000  # terms kept per scope generation: a long-lived process sees many words
# A scope whose rows span more than this many times their number of rowids learns its words in a scratch table
# of its own rows: read from the index, bm25() reads every row between the scope's first and last.
SCRATCH_FROM_SHARE = 4
# Nor one that is less than this share of the file: each word's rows in the whole file are counted twice (the IDF
# its bm25() carries, and the count that undoes it), cheap a row but growing with the file, not with the scope.
SCRATCH_FROM_FILE_SHARE = 64


def union(rows: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int64]:
    """The ascending union of ascending rowid arrays."""
    if len(rows) == 1:
        return rows[0]
    joined = np.sort(np.concatenate(rows))
    return joined[np.concatenate(([True], joined[1:] != joined[:-1]))] if joined.size else joined


def keep_counts(
    kept: dict[tuple[str, str], tuple[int, dict[str, int]]], key: tuple[str, str], gen: int, counts: dict[str, int]
) -> None:
    """``counts`` (content counts of ``learn_terms``) into a store's per-generation counts, each at most
    ``COUNT_CAP`` as the index counts them."""
    if len(kept) > KNOWN_TERMS:  # bounded as the store bounds its own counts: many scopes
        kept.clear()
    cached = kept.get(key)
    known = cached[1] if cached is not None and cached[0] == gen else {}
    known.update((t, min(c, COUNT_CAP)) for t, c in counts.items())
    kept[key] = (gen, known)


def _learn_in_scratch(
    conn: sqlite3.Connection,
    held: ScopeText,
    terms: Sequence[str],
    match_of: Callable[[Sequence[str], bool], str],
    weights: str,
) -> dict[str, TermRows] | None:
    """``learn_terms`` of a scope spread among others' rows or a small part of the file: its rows holding any of
    ``terms`` (by the scope's token), each term's frequencies read from a scratch table of those rows alone."""
    found = conn.execute("SELECT rowid FROM records_fts WHERE records_fts MATCH ?", [match_of(terms, True)]).fetchall()
    rowids = np.fromiter((r for (r,) in found), dtype=np.int64, count=len(found))
    places, mine = held.places(rowids)
    rowids, at = rowids[mine], places[mine]
    if rowids.size > SCRATCH_ROWS_UP_TO:
        return None
    if not rowids.size:
        return dict.fromkeys(terms, NO_ROWS)
    order = np.argsort(rowids)
    rowids, at = rowids[order], at[order]
    matches = [match_of([t], False) for t in terms]
    frequencies = scratch_frequencies(conn, matches, rowids.tolist(), held.lengths[at], weights)
    out: dict[str, TermRows] = {}
    for i, term in enumerate(terms):
        keep = np.flatnonzero(frequencies[:, i])
        out[term] = (rowids[keep], frequencies[keep, i])
    return out


def in_no_row(terms: Sequence[str], known: dict[str, TermRows]) -> list[str]:
    """Those of ``terms`` that are phrases of two ``known`` words no row holds both of: a row holding the phrase
    holds each of its words (the tokenizer splits the phrase as it splits each word)."""
    out = []
    for term in terms:
        words = term.split(" ")
        # A word of letters and digits alone is at least one token; one of separators alone would be none.
        if len(words) == 2 and all(w.isalnum() and w in known for w in words):
            first, second = known[words[0]][0], known[words[1]][0]
            if not first.size or not second.size or not np.intersect1d(first, second, assume_unique=True).size:
                out.append(term)
    return out


def one_term_bm25(bm25: str) -> str:
    """The statement reading every row of the table that holds one term, with that term's bm25() (higher is
    better); ``bm25``: the bm25() call with the table's column weights."""
    return f"SELECT rowid, -{bm25} FROM records_fts WHERE records_fts MATCH ?"


def learn_terms(
    conn: sqlite3.Connection,
    key: tuple[str, str],
    gen: int,
    held: ScopeText,
    terms: Sequence[str],
    match_of: Callable[[Sequence[str], bool], str],
    weights: str,
    counts: dict[str, int] | None = None,
    known: dict[str, TermRows] | None = None,
) -> dict[str, TermRows] | None:
    """Each of ``terms``' rows in the (tenant, user) ``key`` at generation ``gen`` (whose rows ``held`` are);
    None when the file is at another generation (or a spread scope matches too many rows for a scratch table).

    ``match_of(terms, with_scope_token)``: the FTS5 query of any of the terms; ``weights``: the bm25() column
    weights. A scope whose rows lie together, not too small a part of the file, reads each term's rows between
    its first row and its last with their bm25(); one spread among others' rows or a small part of the file
    (``SCRATCH_FROM_SHARE``, ``SCRATCH_FROM_FILE_SHARE``) finds its rows holding any of the terms with its scope
    token, then their frequencies from a scratch table of those rows (``scratch_fts``); when they are too many for
    one, a scope lying together reads them between its first and last rows. The caller runs it inside one
    read transaction: the generation and the index are then of one state. ``counts``, when given, gets how
    many of the scope's rows hold each term in their content (what relevance weighs words by), where the index
    is read. ``known``: the scope's terms learned already at ``gen``; a phrase of two of them that no row
    holds both of is in no row, with no query.
    """
    out: dict[str, TermRows] = dict.fromkeys(in_no_row(terms, known), NO_ROWS) if known else {}
    if out:
        if counts is not None:
            counts.update(dict.fromkeys(out, 0))
        terms = [t for t in terms if t not in out]
        if not terms:
            return out
    row = conn.execute(
        "SELECT gen, n, (SELECT MAX(rowid) FROM records) FROM scope_generations WHERE tenant = ? AND user_key = ?",
        key,
    ).fetchone()
    if row is None or row[0] != gen or not held.rowids.size:
        return None
    first, last = int(held.rowids[0]), int(held.rowids[-1])
    spread = row[1] * SCRATCH_FROM_SHARE < last - first + 1
    if spread or row[1] * SCRATCH_FROM_FILE_SHARE < (row[2] or 0):
        scratch = _learn_in_scratch(conn, held, terms, match_of, weights)
        if scratch is not None:
            return {**out, **scratch}
        if spread:
            return None
        # Rows lying together whose words match more rows than a scratch table takes: reading them between the
        # first and the last here is cheaper than the caller's asking the index for every term again.
    table_rows, table_tokens = table_averages(conn)
    if not table_rows:
        return None
    average = float(table_tokens) / float(table_rows)
    # A second bm25() weighing the content alone is 0 exactly where the row's content lacks the term. Where most
    # of the file lies outside the scope's first and last rows (its rows are held: a row outside is another
    # scope's), only the rows between are read; the IDF their scores carry counts every row, and so does the count
    # that undoes it (counted only where a row is read, in the same state).
    read = f"rowid, -bm25(records_fts, {weights}), bm25(records_fts, 1.0, 0.0, 0.0) != 0"
    if (last - first + 1) * 2 < (row[2] or 0):
        statement = (
            f"SELECT {read}, (SELECT count(*) FROM records_fts WHERE records_fts MATCH ?1)"
            " FROM records_fts WHERE records_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3"
        )
        bounds = [first, last]
    else:
        statement, bounds = f"SELECT {read}, NULL FROM records_fts WHERE records_fts MATCH ?1", []
    for term in terms:
        found = conn.execute(statement, [match_of([term], False), *bounds]).fetchall()
        if not found:
            out[term] = NO_ROWS
            if counts is not None:
                counts[term] = 0
            continue
        rowids = np.fromiter((r[0] for r in found), dtype=np.int64, count=len(found))
        places, mine = held.places(rowids)  # every scope's rows hold it: this scope's are those held
        at = places[mine]
        scores = np.fromiter((r[1] for r in found), dtype=np.float64, count=len(found))[mine]
        if counts is not None:
            counts[term] = int(np.fromiter((r[2] for r in found), dtype=bool, count=len(found))[mine].sum())
        hits = len(found) if found[0][3] is None else found[0][3]  # every row of the table holding the term
        frequencies = frequency_from_bm25(scores, table_idf(table_rows, hits), held.lengths[at], average)
        keep = np.flatnonzero(frequencies)
        order = np.argsort(rowids[mine][keep])
        out[term] = (rowids[mine][keep][order], frequencies[keep][order])
    return out
