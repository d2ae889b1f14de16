"""(internal) Cosine search over one scope's vectors, held in growable numpy arrays and updated in place.

Scopes below ``SHORTLIST_FROM`` live records are scanned exactly. Above it, each vector also carries a
SimHash code (the signs of its projections on 2 x dim fixed random directions; two codes differ in a share of
bits that estimates the angle between the vectors, for any embedder's vectors, dense or sparse), the codes
nearest by Hamming distance form a shortlist, and only the shortlist is scored with exact cosine: the float32
scan is memory-bound (150 MB at 100k x 384), the codes are 9.6 MB. ``benchmarks/shortlist_recall.py`` measures
how much of the exact top 10 it keeps.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tiermem.embed import Vectors
from tiermem.store.base import Candidate

__all__ = [
    "NEIGHBOUR_SHORTLIST",
    "SHORTLIST_FROM",
    "IndexRow",
    "Passages",
    "ScopeVectors",
    "VectorCache",
    "best",
    "nearest",
    "nearest_to",
    "pack_vectors",
    "sign_codes",
    "top_k",
    "unpack_vectors",
]

SHORTLIST_FROM = 20_000  # live records in a scope from which the sign-bit shortlist is used
SHORTLIST_MIN = 2_048  # rows re-scored exactly, at least
SHORTLIST_PER_RESULT = 32  # ... and at least this many per result asked for
# The write path's duplicate and supersession checks look up each new record's 5 nearest stored ones: near
# neighbours, which Hamming distance ranks first, so a shorter list keeps them (benchmarks/shortlist_recall.py
# --queries-from turns --k 5: 1,024 rows keep 99.9% of the exact top 5 at 100k, 2,048 100%; p50 3.6 vs 4.4 ms idle).
NEIGHBOUR_SHORTLIST = 1_024

FloatArray = npt.NDArray[np.float64]
CodeArray = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int32]
ObjArray = npt.NDArray[np.object_]
_CATEGORIES = ("types", "source_kinds", "agents", "sessions")  # small vocabularies, held as int codes
_TIME_COLUMNS = ("valid_from", "valid_to", "expires_at")


@dataclass(frozen=True, slots=True)
class IndexRow:
    """What the index keeps of one record: its vector and the columns filters need."""

    rowid: int
    id: str
    type: str
    source_kind: str
    agent: str
    session: str
    valid_from: float
    valid_to: float | None
    expires_at: float | None
    vector: Vectors | None  # None: keep the vector already indexed (a metadata-only update)
    passages: Vectors | None = None  # the record's sentences' vectors, one per row (see passages.py)


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


class ScopeVectors:
    """One (tenant, user)'s vectors at generation ``gen``.

    Writes from this process update it in place (append into spare capacity, overwrite, or mark dead), so a
    write costs O(batch) instead of a reload of the whole scope; a write from another process (the stored
    generation moved past ours) makes the owner rebuild it.
    """

    def __init__(self, gen: int, fingerprint: str | None, dim: int, capacity: int = 64) -> None:
        self.gen = gen
        self.fingerprint = fingerprint
        self.dim = dim
        self.n = 0
        self.live = 0
        self._pos: dict[int, int] = {}
        self._parts: dict[int, tuple[int, int]] = {}  # slot -> (first passage row, count)
        self.pn = 0  # passage rows used (replaced ones included until the next rebuild)
        self.part_matrix: Vectors = np.zeros((0, dim), dtype=np.float32)
        self.part_owner: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        # Filters compare int codes: comparing 100k Python strings costs milliseconds per search.
        self._vocab: dict[str, dict[str, int]] = {name: {} for name in _CATEGORIES}
        # Rows holding a tag filter's tags, by (generation, tags): a namespace's searches ask the same tag.
        self.tagged: dict[tuple[int, tuple[str, ...]], npt.NDArray[np.bool_]] = {}
        self._slots: dict[str, int] | None = None  # each live record id's slot, made on first use until a write
        self._alloc(max(capacity, 16))

    def _alloc(self, capacity: int) -> None:
        old = {name: getattr(self, name, None) for name in ("ids", *_CATEGORIES, *_TIME_COLUMNS, "matrix", "alive")}
        old_codes: CodeArray | None = getattr(self, "codes", None)
        self.matrix: Vectors = np.zeros((capacity, self.dim), dtype=np.float32)
        # SimHash codes, made on the first shortlisted search: most scopes are small and never need them.
        self.codes: CodeArray | None = None
        if old_codes is not None:
            self.codes = np.zeros((old_codes.shape[0], capacity), dtype=np.uint64)
            self.codes[:, : self.n] = old_codes[:, : self.n]
        self.alive: npt.NDArray[np.bool_] = np.zeros(capacity, dtype=bool)
        self.ids: ObjArray = np.empty(capacity, dtype=object)
        self.types: IntArray = np.zeros(capacity, dtype=np.int32)
        self.source_kinds: IntArray = np.zeros(capacity, dtype=np.int32)
        self.agents: IntArray = np.zeros(capacity, dtype=np.int32)
        self.sessions: IntArray = np.zeros(capacity, dtype=np.int32)
        self.valid_from: FloatArray = np.full(capacity, np.nan)
        self.valid_to: FloatArray = np.full(capacity, np.nan)  # NaN = open
        self.expires_at: FloatArray = np.full(capacity, np.nan)  # NaN = never
        for name, array in old.items():
            if array is not None:
                getattr(self, name)[: self.n] = array[: self.n]

    def upsert(self, rows: Iterable[IndexRow]) -> None:
        """Add new rows or overwrite the ones already present (by rowid); a None vector keeps the old one."""
        written: list[int] = []
        self._slots = None
        for row in rows:
            i = self._pos.get(row.rowid)
            if i is None and row.vector is None:
                continue  # a metadata update of a record this index does not hold
            if i is None:
                if self.n == len(self.alive):
                    self._alloc(math.ceil(len(self.alive) * 1.5))
                i = self.n
                self.n += 1
                self._pos[row.rowid] = i
                self.live += 1
            if row.vector is not None:
                self.matrix[i] = row.vector
                written.append(i)
                self._set_passages(i, row.passages)
            self.alive[i] = True
            self.ids[i] = row.id
            self.types[i] = self._code("types", row.type)
            self.source_kinds[i] = self._code("source_kinds", row.source_kind)
            self.agents[i] = self._code("agents", row.agent)
            self.sessions[i] = self._code("sessions", row.session)
            self.valid_from[i] = row.valid_from
            self.valid_to[i] = np.nan if row.valid_to is None else row.valid_to
            self.expires_at[i] = np.nan if row.expires_at is None else row.expires_at
        if written and self.codes is not None:  # one pass: packing 100k rows one by one is slow
            self.codes[:, written] = sign_codes(self.matrix[written])

    def reserve_passages(self, capacity: int) -> None:
        """Room for ``capacity`` passage rows in all (a rebuild knows its total: one allocation, not many)."""
        if capacity > len(self.part_owner):
            matrix, owner = np.zeros((capacity, self.dim), dtype=np.float32), np.full(capacity, -1, dtype=np.int64)
            matrix[: self.pn], owner[: self.pn] = self.part_matrix[: self.pn], self.part_owner[: self.pn]
            self.part_matrix, self.part_owner = matrix, owner

    def _set_passages(self, slot: int, vectors: Vectors | None) -> None:
        old = self._parts.pop(slot, None)
        if old is not None:
            self.part_owner[old[0] : old[0] + old[1]] = -1
        if vectors is None or not len(vectors):
            return
        count = len(vectors)
        if self.pn + count > len(self.part_owner):
            self.reserve_passages(max(64, math.ceil((self.pn + count) * 1.5)))
        self.part_matrix[self.pn : self.pn + count] = vectors
        self.part_owner[self.pn : self.pn + count] = slot
        self._parts[slot] = (self.pn, count)
        self.pn += count

    def passages(self) -> Passages | None:
        """The scope's passage vectors (views), or None when no record has any."""
        if not self._parts:
            return None
        return Passages(self.part_matrix[: self.pn], self.part_owner[: self.pn])

    def _code(self, column: str, value: str) -> int:
        vocab = self._vocab[column]
        return vocab.setdefault(value, len(vocab))

    def matches(self, column: str, values: Iterable[str]) -> npt.NDArray[np.bool_]:
        """Which of the first ``n`` rows hold one of ``values`` in a categorical column."""
        vocab = self._vocab[column]
        codes = [vocab[v] for v in values if v in vocab]
        view = self.view(column)
        # A filter names one or a few values: one comparison each costs 21 us at 100k rows, np.isin 1.35 ms.
        found: npt.NDArray[np.bool_] = np.zeros(view.shape, dtype=bool)
        for code in codes:
            found |= view == code
        return found

    def remove(self, rowids: Iterable[int]) -> None:
        """Mark rows dead; their slots are dropped at the next rebuild."""
        self._slots = None
        for rowid in rowids:
            i = self._pos.pop(rowid, None)
            if i is not None and self.alive[i]:
                self.alive[i] = False
                self.live -= 1
                self._set_passages(i, None)

    @property
    def nbytes(self) -> int:
        """Memory held by the arrays (vectors dominate; object columns counted by their pointers)."""
        codes = 0 if self.codes is None else self.codes.nbytes
        parts = self.part_matrix.nbytes + self.part_owner.nbytes
        return int(self.matrix.nbytes + codes + parts + self.alive.nbytes + 8 * 8 * len(self.alive))

    def __len__(self) -> int:
        return self.live

    def own_vectors(self, record_ids: Iterable[str]) -> dict[str, Vectors]:
        """The vectors of those of ``record_ids`` held here (read-only copies, not their passages')."""
        if self._slots is None:
            alive = self.alive[: self.n].tolist()
            self._slots = {rid: i for i, rid in enumerate(self.ids[: self.n].tolist()) if alive[i]}
        out: dict[str, Vectors] = {}
        for rid in record_ids:
            slot = self._slots.get(rid)
            if slot is not None:
                vector = out[rid] = self.matrix[slot].copy()
                vector.flags.writeable = False
        return out

    def positions(self, rowids: Iterable[int]) -> npt.NDArray[np.int64]:
        """Slots of these rowids (unknown ones skipped)."""
        return np.array([self._pos[r] for r in rowids if r in self._pos], dtype=np.int64)

    # Typed views of the used part, for filtering and scanning.
    def view(self, name: str) -> Any:
        """The first ``n`` entries of a column."""
        return getattr(self, name)[: self.n]

    def code_view(self) -> CodeArray:
        """The SimHash codes of the first ``n`` rows, one row per 64 bits (column-major: contiguous passes)."""
        if self.codes is None:
            self.codes = np.zeros((_hyperplanes(self.dim).shape[1] // 64, len(self.alive)), dtype=np.uint64)
            for start in range(0, self.n, 8192):  # in slices: the projection of 100k rows at once is 300 MB
                stop = min(self.n, start + 8192)
                self.codes[:, start:stop] = sign_codes(self.matrix[start:stop])
        return self.codes[:, : self.n]


@functools.cache
def _hyperplanes(dim: int) -> Vectors:
    """2 x dim random directions (a multiple of 64), fixed per dimension; codes are never stored on disk."""
    bits = -(-2 * dim // 64) * 64
    planes: Vectors = np.random.default_rng(dim).standard_normal((dim, bits)).astype(np.float32)
    return planes


class VectorCache(OrderedDict[tuple[str, str], ScopeVectors]):
    """Scopes' indexes, least recently used first, with their bytes summed as entries come and go.

    Summing every entry's size on each insert cost O(cached scopes): ~1 ms per cold scope with 1,000 cached.
    """

    def __init__(self) -> None:
        super().__init__()
        self._sizes: dict[tuple[str, str], int] = {}
        self.total = 0

    def __setitem__(self, key: tuple[str, str], value: ScopeVectors) -> None:
        super().__setitem__(key, value)
        self.resized(key)

    def __delitem__(self, key: tuple[str, str]) -> None:
        super().__delitem__(key)
        self.total -= self._sizes.pop(key, 0)

    def clear(self) -> None:
        super().clear()
        self._sizes.clear()
        self.total = 0

    def resized(self, key: tuple[str, str]) -> None:
        """Account for an entry's size again (after it grew in place)."""
        size = self[key].nbytes
        self.total += size - self._sizes.get(key, 0)
        self._sizes[key] = size

    def evict(self, limit: int, keep: tuple[str, str]) -> None:
        """Drop least recently used entries until the total fits ``limit``; ``keep`` always stays."""
        while self.total > limit and len(self) > 1:
            key = next(iter(self))
            if key == keep:
                break
            del self[key]


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


# A record's stored vectors are one blob: its own vector, then its passages' (see passages.py), so erase, sweep
# and the orphan checks see one row per record.


def pack_vectors(vector: Vectors, passages: Vectors | None) -> tuple[int, bytes]:
    """The stored blob of a record's vector and its passages', with the dimension that splits it."""
    stacked = np.ascontiguousarray(vector, dtype=np.float32).reshape(1, -1)
    if passages is not None and len(passages):
        stacked = np.vstack([stacked, np.asarray(passages, dtype=np.float32).reshape(-1, stacked.shape[1])])
    return stacked.shape[1], stacked.tobytes()


def unpack_vectors(blob: bytes, dim: int) -> tuple[Vectors, Vectors | None]:
    """A stored blob's record vector and its passages' vectors (None: none), as views."""
    stacked = np.frombuffer(blob, dtype=np.float32).reshape(-1, dim)
    return stacked[0], stacked[1:] if len(stacked) > 1 else None


def rows_from_sql(rows: Sequence[tuple[Any, ...]]) -> list[IndexRow]:
    """IndexRows from (rowid, id, type, source_kind, agent, session, valid_from, valid_to, expires_at, vec, dim)."""
    return [
        IndexRow(rowid, rid, type_, kind, agent, session, valid_from, valid_to, expires_at, *unpack_vectors(vec, dim))
        for rowid, rid, type_, kind, agent, session, valid_from, valid_to, expires_at, vec, dim in rows
    ]
