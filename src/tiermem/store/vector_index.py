"""Exact cosine search over one scope's vectors, held in numpy and rebuilt when the scope changes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tiermem.embed import Vectors
from tiermem.store.base import Candidate

__all__ = ["ScopeVectors", "top_k"]

FloatArray = npt.NDArray[np.float64]
ObjArray = npt.NDArray[np.object_]


@dataclass(frozen=True, slots=True)
class ScopeVectors:
    """A snapshot of one (tenant, user)'s vectors and the columns filters need, at generation ``gen``."""

    gen: int
    fingerprint: str | None
    ids: ObjArray
    rowids: npt.NDArray[np.int64]
    matrix: Vectors
    types: ObjArray
    source_kinds: ObjArray
    agents: ObjArray
    sessions: ObjArray
    valid_from: FloatArray
    valid_to: FloatArray  # NaN = open
    expires_at: FloatArray  # NaN = never

    @classmethod
    def build(cls, gen: int, rows: Sequence[tuple[object, ...]]) -> ScopeVectors:
        """From rows of (id, rowid, type, source_kind, agent, session, valid_from, valid_to, expires_at, model, vec)."""
        n = len(rows)
        dim = len(rows[0][10]) // 4 if n else 0  # type: ignore[arg-type]
        matrix = np.empty((n, dim), dtype=np.float32)
        for i, row in enumerate(rows):
            matrix[i] = np.frombuffer(row[10], dtype=np.float32)  # type: ignore[call-overload]

        def col(j: int) -> ObjArray:
            return np.array([r[j] for r in rows], dtype=object)

        def times(j: int) -> FloatArray:
            return np.array([np.nan if r[j] is None else r[j] for r in rows], dtype=np.float64)

        return cls(
            gen=gen,
            fingerprint=str(rows[0][9]) if n else None,
            ids=col(0),
            rowids=np.array([r[1] for r in rows], dtype=np.int64),
            matrix=matrix,
            types=col(2),
            source_kinds=col(3),
            agents=col(4),
            sessions=col(5),
            valid_from=times(6),
            valid_to=times(7),
            expires_at=times(8),
        )

    def __len__(self) -> int:
        return len(self.ids)


def top_k(scores: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], ids: ObjArray, k: int) -> list[Candidate]:
    """The k best-scoring ids where ``mask`` holds, best first."""
    allowed = np.flatnonzero(mask)
    if allowed.size == 0 or k <= 0:
        return []
    sub = scores[allowed]
    part = np.argpartition(-sub, k - 1)[:k] if sub.size > k else np.arange(sub.size)
    order = part[np.argsort(-sub[part], kind="stable")]
    return [Candidate(str(ids[allowed[i]]), float(sub[i])) for i in order]
