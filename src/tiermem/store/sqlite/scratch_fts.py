"""(internal) Term frequencies of a few rows, read from a scratch FTS5 table that holds those rows alone.

The SQLite store reads each matching row's frequency of a query term back from FTS5's one-term ``bm25()``
(``phrase_frequencies.py``). But ``bm25()`` takes its IDF from the whole table: every call walks the term's
postings in every scope, and so did the count that undoes that IDF. For a small scope in a big file that walk is
most of a keyword query, and it grows with the file, not with the scope (docs/postgres.md, "Speed, side by side").
A row's frequency is its own: indexed again by the same tokenizer from the same text (the same columns, so the
same lengths), in a table that holds only the rows that matched, it reads back the same (frequencies are rounded
to 1/1024, which they are exactly), for the cost of tokenizing those rows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

import numpy as np

from tiermem.store.fulltext import TOKENIZE
from tiermem.store.sqlite.bm25 import FloatArray, frequency_from_bm25, table_averages, table_idf
from tiermem.text_index import INDEX_FUNCTION

__all__ = ["SCRATCH_ROWS_UP_TO", "scratch_frequencies"]

SCRATCH_ROWS_UP_TO = 500  # matching rows cheaper to tokenize again than walking the whole file (docs/postgres.md)
_NAME = "tiermem_scratch_fts"


def scratch_frequencies(
    conn: sqlite3.Connection, matches: Sequence[str], rowids: list[int], lengths: FloatArray, weights: str
) -> FloatArray:
    """Each row's weighted frequency (a row per rowid) of each one-term FTS5 query in ``matches`` (a column each).

    ``weights``: the bm25() column weights, as records_fts is ranked with them.
    """
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{_NAME} USING fts5"
        f"(content, context, scope_tok, content='', tokenize='{TOKENIZE}')"
    )
    frequencies = np.zeros((len(rowids), len(matches)), dtype=np.float64)
    try:
        conn.execute(
            f"INSERT INTO temp.{_NAME} (rowid, content, context, scope_tok)"
            f" SELECT rowid, {INDEX_FUNCTION}(content), {INDEX_FUNCTION}(context), scope_tok FROM records"
            " WHERE rowid IN (SELECT value FROM json_each(?))",
            [json.dumps(rowids)],
        )
        rows, tokens = table_averages(conn, f"temp.{_NAME}")
        if not rows:
            return frequencies
        average = float(tokens) / float(rows)
        at = {rowid: j for j, rowid in enumerate(rowids)}
        for i, match in enumerate(matches):
            found = conn.execute(
                f"SELECT rowid, -bm25({_NAME}, {weights}) FROM temp.{_NAME} WHERE {_NAME} MATCH ?", [match]
            ).fetchall()
            if not found:
                continue
            index = np.array([at[rowid] for rowid, _ in found], dtype=np.int64)
            score = np.array([s for _, s in found], dtype=np.float64)
            frequencies[index, i] = frequency_from_bm25(score, table_idf(rows, len(found)), lengths[index], average)
        return frequencies
    finally:
        # Nothing of the rows stays behind (an erased user's words must not outlive the erase in a temp table).
        conn.execute(f"INSERT INTO temp.{_NAME} ({_NAME}) VALUES ('delete-all')")
