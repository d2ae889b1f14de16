"""(internal) One scope's vectors and the columns filters need, in growable numpy arrays updated in place.

The scans over them (exact, or over a SimHash shortlist in large scopes) are ``store.vector_scan``'s.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tiermem.embed import Vectors
from tiermem.store.vector_scan import CodeArray, ObjArray, Passages, code_words, sign_codes

__all__ = [
    "IndexRow",
    "ScopeVectors",
    "VectorCache",
    "pack_vectors",
    "rows_from_sql",
    "unpack_vectors",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]
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
        # A filter names one or a few values: one comparison each is far cheaper than np.isin over the column.
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
            self.codes = np.zeros((code_words(self.dim), len(self.alive)), dtype=np.uint64)
            for start in range(0, self.n, 8192):  # in slices: the projection of 100k rows at once is 300 MB
                stop = min(self.n, start + 8192)
                self.codes[:, start:stop] = sign_codes(self.matrix[start:stop])
        return self.codes[:, : self.n]


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
