"""(internal) The relevance floor measured both ways: questions that must come back empty, and evidence kept."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tiermem.recall.policy import DEFAULT_MIN_RELEVANCE
from tiermem.types import Hit

__all__ = ["CURVE_FLOORS", "FloorTally", "curve_rows", "relevance_by_id"]

CURVE_FLOORS = tuple(round(0.05 * i, 2) for i in range(20))
"""The floors of the curve in a report: 0 to 0.95 by 0.05."""


def relevance_by_id(hits: Sequence[Hit], ids_of: Iterable[Sequence[str]]) -> dict[str, float]:
    """The relevance of the hit each evaluation id came from (a merged record stands for several ids)."""
    out: dict[str, float] = {}
    for hit, ids in zip(hits, ids_of, strict=True):
        for item in ids:
            out.setdefault(item, hit.relevance if hit.relevance is not None else 0.0)
    return out


@dataclass(slots=True)
class FloorTally:
    """Per question: the relevance of each evidence item found in the top k, or the best hit's relevance of a
    question that should find nothing (off-topic or abstention). Every floor is scored from the same rankings:
    a floor only drops hits, so recall at a floor is recall without one, counting hits at or above it."""

    k: int
    answerable: list[tuple[tuple[float, ...], int]] = field(default_factory=list)
    unanswerable: list[float] = field(default_factory=list)

    def add_answerable(self, found: Sequence[float], evidence: int) -> None:
        """One answerable question: the relevance of each evidence item in its top k, and how many it has."""
        self.answerable.append((tuple(found), evidence))

    def add_unanswerable(self, hits: Sequence[Hit]) -> None:
        """One question memory holds nothing for, by its hits (empty above the floor when all fall below)."""
        self.unanswerable.append(max((h.relevance or 0.0 for h in hits[: self.k]), default=0.0))

    def recall(self, floor: float | None) -> float:
        """Mean evidence recall@k counting only hits at or above ``floor`` (None: all)."""
        if not self.answerable:
            return 0.0
        low = -1.0 if floor is None else floor
        return sum(sum(r >= low for r in found) / n for found, n in self.answerable) / len(self.answerable)

    def empty_rate(self, floor: float) -> float:
        """The share of questions that should find nothing whose every hit falls below ``floor``."""
        if not self.unanswerable:
            return 0.0
        return sum(best < floor for best in self.unanswerable) / len(self.unanswerable)

    def recall_kept(self, floor: float) -> float:
        """Evidence recall@k with ``floor`` over recall@k without one (1.0 when nothing was found anyway)."""
        base = self.recall(None)
        return self.recall(floor) / base if base > 0 else 1.0

    def to_json(self, floor: float = DEFAULT_MIN_RELEVANCE, label: str = "off_topic") -> dict[str, Any]:
        """The default floor's figures and the curve (floor → empty rate, recall kept)."""
        return {
            "floor": floor,
            f"{label}_n": len(self.unanswerable),
            f"{label}_empty_rate": self.empty_rate(floor),
            "answerable_n": len(self.answerable),
            f"recall@{self.k}": self.recall(None),
            f"recall@{self.k}_with_floor": self.recall(floor),
            f"recall@{self.k}_kept": self.recall_kept(floor),
            "curve": [
                {"floor": f, f"{label}_empty_rate": self.empty_rate(f), f"recall@{self.k}_kept": self.recall_kept(f)}
                for f in CURVE_FLOORS
            ],
        }


def curve_rows(block: Mapping[str, Any], label: str) -> list[tuple[float, float, float]]:
    """The curve of a ``to_json`` block as (floor, empty rate, recall kept) rows."""
    k_key = next(key for key in block["curve"][0] if key.endswith("_kept"))
    return [(row["floor"], row[f"{label}_empty_rate"], row[k_key]) for row in block["curve"]]
