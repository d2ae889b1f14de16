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

from tiermem.store.sqlite.bm25 import frequency_from_bm25, table_averages, table_idf
from tiermem.store.sqlite.scope_text import ScopeText
from tiermem.store.sqlite.scratch_fts import SCRATCH_ROWS_UP_TO, scratch_frequencies

__all__ = ["KNOWN_TERMS", "NO_ROWS", "TermRows", "learn_terms", "one_term_bm25"]

TermRows = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]
"""A term's rows in a scope (rowids, ascending) and its weighted frequency in each."""

NO_ROWS: TermRows = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))
KNOWN_TERMS = 10_000  # terms kept per scope generation: a long-lived process sees many words


def _learn_in_scratch(
    conn: sqlite3.Connection,
    held: ScopeText,
    terms: Sequence[str],
    match_of: Callable[[Sequence[str], bool], str],
    weights: str,
) -> dict[str, TermRows] | None:
    """``learn_terms`` of a scope that is a minor part of the file: its rows holding any of ``terms`` (by the
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
) -> dict[str, TermRows] | None:
    """Each of ``terms``' rows in the (tenant, user) ``key`` at generation ``gen`` (whose rows ``held`` are);
    None when the file is at another generation (or a minor scope matches too many rows for a scratch table).

    ``match_of(terms, with_scope_token)``: the FTS5 query of any of the terms; ``weights``: the bm25() column
    weights. A scope that is most of the file reads each term's one-term query over the whole table; a minor
    part of the file (as ``fts._matches`` decides) finds its rows holding any of the terms with its scope token,
    then their frequencies from a scratch table of those rows (``scratch_fts``). The caller runs it inside one
    read transaction: the generation and the index are then of one state.
    """
    row = conn.execute(
        "SELECT gen, n, (SELECT MAX(rowid) FROM records) FROM scope_generations WHERE tenant = ? AND user_key = ?",
        key,
    ).fetchone()
    if row is None or row[0] != gen:
        return None
    if row[1] * 4 < (row[2] or 0):
        return _learn_in_scratch(conn, held, terms, match_of, weights)
    table_rows, table_tokens = table_averages(conn)
    if not table_rows:
        return None
    average = float(table_tokens) / float(table_rows)
    statement = one_term_bm25(f"bm25(records_fts, {weights})")
    out: dict[str, TermRows] = {}
    for term in terms:
        found = conn.execute(statement, [match_of([term], False)]).fetchall()
        if not found:
            out[term] = NO_ROWS
            continue
        rowids = np.fromiter((r for r, _ in found), dtype=np.int64, count=len(found))
        places, mine = held.places(rowids)  # every scope's rows hold it: this scope's are those held
        at = places[mine]
        scores = np.fromiter((s for _, s in found), dtype=np.float64, count=len(found))[mine]
        frequencies = frequency_from_bm25(scores, table_idf(table_rows, len(found)), held.lengths[at], average)
        keep = np.flatnonzero(frequencies)
        order = np.argsort(rowids[mine][keep])
        out[term] = (rowids[mine][keep][order], frequencies[keep][order])
    return out
