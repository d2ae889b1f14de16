"""(internal) BM25 with one scope's statistics: FTS5's own formula, fed with counts that no other scope changes.

FTS5's ``bm25()`` takes its document count, average length and per-term document frequencies from the whole
table, so another tenant's words would move this tenant's keyword ranking (a small channel between tenants).
This module computes the same score, term for term and operation for operation (``fts5Bm25Function`` in
SQLite's fts5_aux.c: k1 = 1.2, b = 0.75, IDF floored at 1e-6, one weight per column), from the scope's own
statistics. On a file that holds one scope it equals ``bm25()`` bit for bit.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "K1",
    "B",
    "FloatArray",
    "ScopeTextStats",
    "bm25_scores",
    "docsize_lengths",
    "docsize_tokens",
    "docsize_total",
    "frequency_from_bm25",
    "table_averages",
    "table_idf",
    "varints",
]

FloatArray = npt.NDArray[np.float64]
K1 = 1.2
B = 0.75
_MIN_IDF = 1e-6


@dataclass(frozen=True, slots=True)
class ScopeTextStats:
    """A scope's full-text size: its documents and their tokens over every column (FTS5's N and avgdl)."""

    rows: int
    tokens: int

    @property
    def average_length(self) -> float:
        """Tokens per document (every column counted, as FTS5 does)."""
        return float(self.tokens) / float(self.rows)


def docsize_tokens(blob: bytes) -> int:
    """Tokens in one row, all columns: the sum of the varints in FTS5's ``%_docsize.sz`` blob."""
    if max(blob, default=0) < 0x80:  # every column under 128 tokens: one byte each
        return sum(blob)
    return sum(varints(blob))


def docsize_total(blobs: Sequence[bytes]) -> int:
    """Tokens in many rows at once: every varint of the joined blobs summed (they are whole varints each)."""
    return int(_byte_values(np.frombuffer(b"".join(blobs), dtype=np.uint8)).sum())


def docsize_lengths(blobs: Sequence[bytes]) -> FloatArray:
    """Tokens in each of many rows (``docsize_tokens`` of each), decoded together rather than row by row."""
    values = _byte_values(np.frombuffer(b"".join(blobs), dtype=np.uint8))
    # Each row's sum is a difference of running sums at its blob's bounds (an empty blob sums to 0).
    running = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
    bounds = np.concatenate(([0], np.cumsum(np.fromiter(map(len, blobs), dtype=np.int64, count=len(blobs)))))
    return (running[bounds[1:]] - running[bounds[:-1]]).astype(np.float64)


def _byte_values(data: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """What each byte of whole varints adds to their sum."""
    if not data.size or int(data.max()) < 0x80:
        return data.astype(np.int64)
    # A byte is worth its low 7 bits times 128 to the power of how many bytes follow it in its varint
    # (a varint ends at the first byte under 0x80; token counts never need SQLite's 9-byte form).
    ends = np.flatnonzero(data < 0x80)
    following = ends[np.searchsorted(ends, np.arange(data.size))] - np.arange(data.size)
    values: npt.NDArray[np.int64] = (data & 0x7F).astype(np.int64) << (7 * following)
    return values


def varints(blob: bytes) -> list[int]:
    """The SQLite varints a blob holds, in order (7 bits a byte, high bit = more; a ninth byte keeps all 8)."""
    out = []
    i = 0
    while i < len(blob):
        value = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        out.append(value)
    return out


def table_averages(conn: sqlite3.Connection, table: str = "records_fts") -> tuple[int, int]:
    """The whole FTS5 table's row count and token total (its "averages" record), as FTS5's bm25() reads them."""
    row = conn.execute(f"SELECT block FROM {table}_data WHERE id = 1").fetchone()
    if row is None or not row[0]:
        return 0, 0
    rows, *columns = varints(row[0])
    return rows, sum(columns)


def table_idf(rows: int, hits: int) -> float:
    """FTS5's IDF of a phrase in ``hits`` of ``rows`` documents (floored at 1e-6)."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return value if value > 0.0 else _MIN_IDF


def frequency_from_bm25(score: FloatArray, idf: float, length: FloatArray, average: float) -> FloatArray:
    """The weighted frequencies one-phrase bm25() ``score``s (higher is better) imply, given IDF and lengths.

    Solves score = idf * f (k1 + 1) / (f + k1 (1 - b + b length / average)) for f, rounded to 1/1024: the
    column weights (1 and 0.5) make every true frequency a multiple of that, so the rounding is exact.
    """
    g = score / idf
    k = K1 * (1 - B + B * length / average)
    out: FloatArray = np.round(g * k / ((K1 + 1.0) - g) * 1024) / 1024
    return out


def bm25_scores(frequencies: FloatArray, lengths: FloatArray, stats: ScopeTextStats) -> FloatArray:
    """BM25 (higher is better) of every document that matched, from its phrase frequencies and its length.

    ``frequencies`` (a row per document, a column per phrase) must hold every document of the scope that
    matches any phrase: a phrase's document frequency is counted from them. The operations are FTS5's, in its
    order, so the results are the same doubles.
    """
    avgdl = stats.average_length
    hits = (frequencies > 0).sum(axis=0).tolist()
    idf = np.array([table_idf(stats.rows, n) for n in hits], dtype=np.float64)
    # Every phrase's term at once, each element the same operations as one phrase's; summed phrase by phrase.
    k = (K1 * (1 - B + B * lengths / avgdl))[:, None]
    terms = np.asfortranarray(idf * ((frequencies * (K1 + 1.0)) / (frequencies + k)))
    score = np.zeros(len(lengths), dtype=np.float64)
    for i in range(terms.shape[1]):
        score = score + terms[:, i]
    return score
