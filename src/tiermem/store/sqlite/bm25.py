"""(internal) BM25 with one scope's statistics: FTS5's own formula, fed with counts that no other scope changes.

FTS5's ``bm25()`` takes its document count, average length and per-term document frequencies from the whole
table, so another tenant's words would move this tenant's keyword ranking (a small channel between tenants).
This module computes the same score, term for term and operation for operation (``fts5Bm25Function`` in
SQLite's fts5_aux.c: k1 = 1.2, b = 0.75, IDF floored at 1e-6, one weight per column), from the scope's own
statistics. On a file that holds one scope it equals ``bm25()`` bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["K1", "B", "ScopeTextStats", "bm25_scores", "docsize_tokens", "docsize_total", "phrase_frequencies"]

K1 = 1.2
B = 0.75
_MIN_IDF = 1e-6

Phrase = Sequence[str]  # the stems of one query phrase, in order
Position = tuple[int, str]  # (token offset, stem) of one token of a document column


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
    total = 0
    i = 0
    while i < len(blob):
        value = 0
        for n in range(9):  # SQLite's varint: 7 bits a byte, high bit = more; the ninth byte keeps all 8
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        total += value
    return total


def docsize_total(blobs: Sequence[bytes]) -> int:
    """Tokens in many rows at once: every varint of the joined blobs summed (they are whole varints each)."""
    data = np.frombuffer(b"".join(blobs), dtype=np.uint8)
    if not data.size or int(data.max()) < 0x80:
        return int(data.sum(dtype=np.int64))
    # A byte is worth its low 7 bits times 128 to the power of how many bytes follow it in its varint
    # (a varint ends at the first byte under 0x80; token counts never need SQLite's 9-byte form).
    ends = np.flatnonzero(data < 0x80)
    following = ends[np.searchsorted(ends, np.arange(data.size))] - np.arange(data.size)
    return int(((data & 0x7F).astype(np.int64) << (7 * following)).sum())


def phrase_frequencies(
    columns: Mapping[int, Iterable[Position]], phrases: Sequence[Phrase], weights: Sequence[float]
) -> list[float]:
    """Each phrase's weighted frequency in one document: instances per column times that column's weight."""
    out = [0.0] * len(phrases)
    for column, positions in columns.items():
        at = dict(positions)
        weight = weights[column]
        for i, phrase in enumerate(phrases):
            if not phrase:
                continue
            first, rest = phrase[0], phrase[1:]
            for offset, stem in at.items():
                if stem == first and all(at.get(offset + j) == s for j, s in enumerate(rest, start=1)):
                    out[i] += weight
    return out


def bm25_scores(
    frequencies: Mapping[int, Sequence[float]], lengths: Mapping[int, int], stats: ScopeTextStats, n_phrases: int
) -> dict[int, float]:
    """BM25 (higher is better) of every document that matched, from its phrase frequencies and length.

    ``frequencies`` must hold every document of the scope that matches any phrase: a phrase's document
    frequency is counted from them.
    """
    rows = stats.rows
    avgdl = stats.average_length
    idf: list[float] = []
    for i in range(n_phrases):
        hits = sum(1 for f in frequencies.values() if f[i] > 0)
        value = math.log((rows - hits + 0.5) / (hits + 0.5))
        idf.append(value if value > 0.0 else _MIN_IDF)
    scores: dict[int, float] = {}
    for doc, freq in frequencies.items():
        d = float(lengths[doc])
        score = 0.0
        for i in range(n_phrases):
            f = freq[i]
            score += idf[i] * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * d / avgdl)))
        scores[doc] = score
    return scores
