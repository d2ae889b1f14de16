"""(internal) Cosine scans of a scope's vectors: exact, or over a SimHash shortlist, with passages counted.

Scopes below ``SHORTLIST_FROM`` live records are scanned exactly. Above it, each vector also carries a
SimHash code (the signs of its projections on 2 x dim fixed random directions; two codes differ in a share of
bits that estimates the angle between the vectors, for any embedder's vectors, dense or sparse), the codes
nearest by Hamming distance form a shortlist, and only the shortlist is scored with exact cosine: the float32
scan is memory-bound (150 MB at 100k x 384), the codes are 9.6 MB. ``benchmarks/shortlist_recall.py`` measures
how much of the exact top 10 it keeps.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tiermem.embed import Vectors
from tiermem.store.base import Candidate

__all__ = [
    "NEIGHBOUR_SHORTLIST",
    "SHORTLIST_FROM",
    "SHORTLIST_MIN",
    "Passages",
    "best",
    "code_words",
    "nearest",
    "nearest_to",
    "sign_codes",
    "similarities",
    "top_k",
]

SHORTLIST_FROM = 20_000  # live records in a scope from which the sign-bit shortlist is used
SHORTLIST_MIN = 2_048  # rows re-scored exactly, at least
SHORTLIST_PER_RESULT = 32  # ... and at least this many per result asked for
# The write path's duplicate and supersession checks look up each new record's 5 nearest stored ones: near
# neighbours, which Hamming distance ranks first, so a shorter list keeps them (measured by
# benchmarks/shortlist_recall.py --queries-from turns --k 5; docs/benchmarks.md).
NEIGHBOUR_SHORTLIST = 1_024

CodeArray = npt.NDArray[np.uint64]
ObjArray = npt.NDArray[np.object_]


@dataclass(frozen=True, slots=True)
class Passages:
    """Passage vectors of a scope (views): row i belongs to the record in slot ``owner[i]`` (-1: replaced)."""

    matrix: Vectors
    owner: npt.NDArray[np.int64]

    def raise_scores(self, scores: npt.NDArray[np.float32], query: Vectors, rows: npt.NDArray[np.intp] | None) -> None:
        """Lift each record's score to its best passage's; ``scores[j]`` belongs to slot ``rows[j]`` (None: j)."""
        if rows is None:
            # One scan of every passage row (replaced ones are few): gathering the live rows first copies them.
            live = self.owner >= 0
            np.maximum.at(scores, self.owner[live], similarities(self.matrix, query)[live])
            return
        if not rows.size:
            return
        where = np.full(int(rows.max()) + 1, -1, dtype=np.int64)  # slot -> its index in ``scores``
        where[rows] = np.arange(rows.size)
        known = np.flatnonzero((self.owner >= 0) & (self.owner < where.size))
        target = where[self.owner[known]]
        picked, target = known[target >= 0], target[target >= 0]
        if picked.size:  # the shortlist's passages only: a small gather
            np.maximum.at(scores, target, similarities(self.matrix[picked], query))


@functools.cache
def _hyperplanes(dim: int) -> Vectors:
    """2 x dim random directions (a multiple of 64), fixed per dimension; codes are never stored on disk."""
    bits = -(-2 * dim // 64) * 64
    planes: Vectors = np.random.default_rng(dim).standard_normal((dim, bits)).astype(np.float32)
    return planes


def code_words(dim: int) -> int:
    """How many 64-bit words a SimHash code of a ``dim``-dimensional vector takes."""
    return int(_hyperplanes(dim).shape[1] // 64)


def sign_codes(vectors: Vectors) -> CodeArray:
    """SimHash codes: one bit per random direction (is the projection positive?), packed into 64-bit words.

    Shape (words, rows), column-major for the scan.
    """
    matrix = np.asarray(vectors, dtype=np.float32)
    bits = np.packbits(matrix @ _hyperplanes(matrix.shape[1]) > 0, axis=1)
    words: CodeArray = np.ascontiguousarray(bits).view(np.uint64)
    return np.ascontiguousarray(words.T)


# One dot product per row on the calling thread: a scan is short and bound by memory, and a BLAS matrix-vector
# product wakes a thread pool whose threads, on a busy machine, first wait for a core (numpy 2 has ``vecdot``).
_ROW_DOT = getattr(np, "vecdot", None)


def similarities(matrix: Vectors, query: Vectors) -> npt.NDArray[np.float32]:
    """Each row of ``matrix`` dotted with ``query``, on the calling thread."""
    if _ROW_DOT is None:
        return np.asarray(matrix @ query, dtype=np.float32)
    return np.asarray(_ROW_DOT(matrix, query), dtype=np.float32)


def nearest(
    matrix: Vectors,
    codes: CodeArray | None,
    query: Vectors,
    mask: npt.NDArray[np.bool_],
    ids: ObjArray,
    k: int,
    *,
    shortlist: int = SHORTLIST_MIN,
    passages: Passages | None = None,
) -> list[Candidate]:
    """The k rows most similar to ``query`` where ``mask`` holds (with ``passages``, a row's best passage counts)."""
    # With ``codes`` a Hamming shortlist is drawn by the records' own vectors, then scored with their passages.
    if codes is None:
        scores = similarities(matrix, query)
        if passages is not None:
            passages.raise_scores(scores, query, None)
        return top_k(scores, mask, ids, k)
    allowed = np.flatnonzero(mask)
    size = max(shortlist, SHORTLIST_PER_RESULT * k)
    if allowed.size <= size:  # a narrow filter: scoring the allowed rows exactly is already cheap
        return _scored(matrix, allowed, query, ids, k, passages)
    qcode = sign_codes(query.reshape(1, -1))[:, 0]
    distance = np.bitwise_count(codes[0] ^ qcode[0]).astype(np.uint16)
    for word in range(1, codes.shape[0]):
        distance += np.bitwise_count(codes[word] ^ qcode[word])
    # Distances are small integers: the shortlist is every row within the distance that first reaches
    # ``size`` rows (a histogram: 3x cheaper than argpartition here; ties at that distance all come along).
    beyond = codes.shape[0] * 64 + 1
    distance[~mask] = beyond
    within = int(np.searchsorted(np.cumsum(np.bincount(distance, minlength=beyond + 1)), size))
    rows = np.flatnonzero(distance <= within)
    return _scored(matrix, rows, query, ids, k, passages)


def nearest_to(
    matrix: Vectors,
    codes: CodeArray | None,
    mask: npt.NDArray[np.bool_],
    ids: ObjArray,
    k: int,
    *,
    shortlist: int = SHORTLIST_MIN,
    passages: Passages | None = None,
) -> Callable[[Vectors], list[Candidate]]:
    """``nearest`` of a query given later: what does not depend on the query is worked out now (while a model
    embeds it), so the returned scan only scores."""
    if codes is not None:
        return lambda query: nearest(matrix, codes, query, mask, ids, k, shortlist=shortlist, passages=passages)
    allowed = np.flatnonzero(mask)
    every = allowed.size == mask.size
    live = None if passages is None else passages.owner >= 0
    owner = None if passages is None or live is None else passages.owner[live]  # a copy: later writes leave it
    whole = live is None or bool(live.all())

    def scan(query: Vectors) -> list[Candidate]:
        scores = similarities(matrix, query)
        if passages is not None and owner is not None:  # as ``Passages.raise_scores`` does, with its rows known
            found = similarities(passages.matrix, query)
            np.maximum.at(scores, owner, found if whole else found[live])
        return best(scores if every else scores[allowed], allowed, ids, k)

    return scan


def _scored(
    matrix: Vectors, rows: npt.NDArray[np.intp], query: Vectors, ids: ObjArray, k: int, passages: Passages | None
) -> list[Candidate]:
    scores = similarities(matrix[rows], query)
    if passages is not None:
        passages.raise_scores(scores, query, rows)
    return best(scores, rows, ids, k)


def best(scores: npt.NDArray[np.float32], rows: npt.NDArray[np.intp], ids: ObjArray, k: int) -> list[Candidate]:
    """The k best of ``scores`` (scores[i] belongs to row ``rows[i]``), best first."""
    if scores.size == 0 or k <= 0:
        return []
    part = np.argpartition(-scores, k - 1)[:k] if scores.size > k else np.arange(scores.size)
    order = part[np.argsort(-scores[part], kind="stable")]
    # Converted as whole arrays: indexing numpy one element at a time costs more than the ranking.
    return list(map(Candidate, map(str, ids[rows[order]].tolist()), scores[order].tolist()))


def top_k(scores: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], ids: ObjArray, k: int) -> list[Candidate]:
    """The k best-scoring ids where ``mask`` holds, best first."""
    allowed = np.flatnonzero(mask)
    return best(scores[allowed], allowed, ids, k)
