"""(internal) A scope's rows holding a query term, with the term's weighted frequency in each, read from FTS5.

The SQLite store keeps each term's rows per scope generation (``fts._phrase_frequencies``); a keyword query
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
    "SCRATCH_FROM_SHARE",
    "TermRows",
    "keep_counts",
    "learn_terms",
    "one_term_bm25",
    "union",
]

TermRows = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]
"""A term's rows in a scope (rowids, ascending) and its weighted frequency in each."""

NO_ROWS: TermRows = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))
KNOWN_TERMS = 10_000  # terms kept per scope generation: a long-lived process sees many words
# A scope whose file holds more than this many times its rows learns its words in a scratch table of its own rows
# (as ``fts._matches`` decides a minor scope), instead of walking each word's postings in every scope.
SCRATCH_FROM_SHARE = 4


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
    """``learn_terms`` of a scope that is a small part of the file: its rows holding any of ``terms`` (by the
    scope's token), each term's frequencies read from a scratch table of those rows alone."""
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
) -> dict[str, TermRows] | None:
    """Each of ``terms``' rows in the (tenant, user) ``key`` at generation ``gen`` (whose rows ``held`` are);
    None when the file is at another generation (or a minor scope matches too many rows for a scratch table).

    ``match_of(terms, with_scope_token)``: the FTS5 query of any of the terms; ``weights``: the bm25() column
    weights. A scope that is not a small part of the file reads each term's one-term query over the whole
    table; a small part (``SCRATCH_FROM_SHARE``) finds its rows holding any of the terms with its scope token,
    then their frequencies from a scratch table of those rows (``scratch_fts``). The caller runs it inside one
    read transaction: the generation and the index are then of one state. ``counts``, when given, gets how
    many of the scope's rows hold each term in their content (what relevance weighs words by), where the whole
    table is read.
    """
    row = conn.execute(
        "SELECT gen, n, (SELECT MAX(rowid) FROM records) FROM scope_generations WHERE tenant = ? AND user_key = ?",
        key,
    ).fetchone()
    if row is None or row[0] != gen:
        return None
    if row[1] * SCRATCH_FROM_SHARE < (row[2] or 0):
        return _learn_in_scratch(conn, held, terms, match_of, weights)
    table_rows, table_tokens = table_averages(conn)
    if not table_rows:
        return None
    average = float(table_tokens) / float(table_rows)
    # A second bm25() weighing the content alone is 0 exactly where the row's content lacks the term.
    statement = one_term_bm25(f"bm25(records_fts, {weights}), bm25(records_fts, 1.0, 0.0, 0.0) != 0")
    out: dict[str, TermRows] = {}
    for term in terms:
        found = conn.execute(statement, [match_of([term], False)]).fetchall()
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
        frequencies = frequency_from_bm25(scores, table_idf(table_rows, len(found)), held.lengths[at], average)
        keep = np.flatnonzero(frequencies)
        order = np.argsort(rowids[mine][keep])
        out[term] = (rowids[mine][keep][order], frequencies[keep][order])
    return out
