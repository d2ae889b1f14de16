"""(internal) A scope's rows holding a query term, with the term's weighted frequency in each, read from FTS5.

The SQLite store keeps each term's rows per scope generation (``fts._phrase_frequencies``); a keyword query
whose terms are all kept needs no match against the index. ``learn_terms`` reads the terms not kept yet, one
one-term query each, so that a query with a few new words asks the index for those words alone, instead of
matching every term again and then reading the new ones' frequencies.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from tiermem.store.sqlite.bm25 import frequency_from_bm25, table_averages, table_idf
from tiermem.store.sqlite.scope_text import ScopeText

__all__ = ["KNOWN_TERMS", "NO_ROWS", "TermRows", "learn_terms", "one_term_bm25"]

TermRows = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]
"""A term's rows in a scope (rowids, ascending) and its weighted frequency in each."""

NO_ROWS: TermRows = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))
KNOWN_TERMS = 10_000  # terms kept per scope generation: a long-lived process sees many words


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
    match_of: Callable[[str], str],
    bm25: str,
) -> dict[str, TermRows] | None:
    """Each of ``terms``' rows in the (tenant, user) ``key`` at generation ``gen`` (whose rows ``held`` are), by
    its one-term query ``match_of(term)`` over the whole table; None when the file is at another generation, or
    the scope is a minor part of the file (the index is then asked with the scope's token, see ``fts._matches``).

    The caller runs it inside one read transaction: the generation and the index are then of one state.
    """
    row = conn.execute(
        "SELECT gen, n, (SELECT MAX(rowid) FROM records) FROM scope_generations WHERE tenant = ? AND user_key = ?",
        key,
    ).fetchone()
    if row is None or row[0] != gen or row[1] * 4 < (row[2] or 0):
        return None
    table_rows, table_tokens = table_averages(conn)
    if not table_rows:
        return None
    average = float(table_tokens) / float(table_rows)
    statement = one_term_bm25(bm25)
    out: dict[str, TermRows] = {}
    for term in terms:
        found = conn.execute(statement, [match_of(term)]).fetchall()
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
