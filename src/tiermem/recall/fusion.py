"""Reciprocal-rank fusion of named candidate lists, with imputed ranks for records a list did not return."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tiermem.store.base import Candidate
from tiermem.types import ScorePart

__all__ = ["FusedList", "Fusion", "Lists", "fuse"]

Lists = Mapping[str, tuple[Sequence[Candidate], float]]
"""Named candidate lists, best first, each with its weight: ``{"keyword": (candidates, 1.0), ...}``."""


@dataclass(slots=True)
class FusedList:
    """Each record's fused score and where each list placed it (mutable: recall hands closed facts' ranks on)."""

    rrf_k: int
    weights: dict[str, float]  # each list's weight, in the lists' order
    unlisted: dict[str, float]  # what a list adds for a record it did not return (0 for an empty list)
    best_possible: float  # the score of a record first in every list
    scores: dict[str, float]
    placed: dict[str, dict[str, tuple[int, float]]]  # list name -> record id -> (rank, the list's raw score)
    absent: dict[str, ScorePart] = field(default_factory=dict)  # each list's part for a record it did not return

    def best(self, n: int) -> list[str]:
        """The ids of the ``n`` best fused records, best first (ties keep the order the lists gave)."""
        return sorted(self.scores, key=self.scores.__getitem__, reverse=True)[:n]

    def raw(self, record_id: str, name: str) -> float | None:
        """The raw score list ``name`` gave the record, None if it did not return it."""
        listed = self.placed.get(name)
        place = None if listed is None else listed.get(record_id)
        return None if place is None else place[1]

    def parts(self, record_id: str) -> list[ScorePart]:
        """One part per list: its rank (None: not returned), raw score and share of the best possible score."""
        out: list[ScorePart] = []
        for name, weight in self.weights.items():
            place = self.placed[name].get(record_id)
            if place is not None:
                rank, raw = place
                out.append(ScorePart(name, rank, raw, (weight / (self.rrf_k + rank)) / self.best_possible))
            else:
                out.append(self._absent(name))
        return out

    def _absent(self, name: str) -> ScorePart:
        """List ``name``'s part for a record it did not return: one value for every such record."""
        part = self.absent.get(name)
        if part is None:
            part = self.absent[name] = ScorePart(name, None, None, self.unlisted[name] / self.best_possible)
        return part

    def hand_over(self, old: str, new: str) -> bool:
        """Give ``new`` the score and places of ``old`` if they are better than its own; whether it gained."""
        if self.scores[old] > self.scores.get(new, 0.0):
            self.scores[new] = self.scores[old]
            for listed in self.placed.values():
                place = listed.get(old)
                if place is None:
                    listed.pop(new, None)
                else:
                    listed[new] = place
            return True
        return False


def fuse(lists: Lists, *, depth: int, rrf_k: int) -> FusedList:
    """Reciprocal-rank fusion of ``lists``, each asked for its top ``depth`` (see ``RecallPolicy``)."""
    # A record a list did not return ranks below that list's top ``depth``, not nowhere, so it counts at rank
    # depth + 1 (imputed ranks). A list that returned nothing (no embedder) tells nothing and adds nothing.
    unlisted = {name: weight / (rrf_k + depth + 1) if cands else 0.0 for name, (cands, weight) in lists.items()}
    nowhere = sum(unlisted.values())  # a record's score before any list has placed it
    placed: dict[str, dict[str, tuple[int, float]]] = {}
    scores: dict[str, float] = {}
    for name, (cands, weight) in lists.items():
        absent = unlisted[name]
        listed = placed[name] = {}
        for rank, cand in enumerate(cands[:depth], start=1):
            rid = cand.id
            listed[rid] = (rank, cand.score)
            scores[rid] = scores.get(rid, nowhere) + weight / (rrf_k + rank) - absent
    best_possible = sum(w for _, w in lists.values()) / (rrf_k + 1)
    weights = {name: weight for name, (_, weight) in lists.items()}
    return FusedList(rrf_k, weights, unlisted, best_possible, scores, placed)


@dataclass(frozen=True, slots=True)
class Fusion:
    """Reciprocal-rank fusion's constant and each candidate list's weight (see ``RecallPolicy``)."""

    rrf_k: int = 60
    keyword: float = 1.0
    vector: float = 1.0
    phrase: float = 0.10 / 0.85
    perspective: float = 0.0

    def lists(
        self,
        *,
        keyword: Sequence[Candidate],
        vector: Sequence[Candidate],
        phrase: Sequence[Candidate] = (),
        perspective: Sequence[Candidate] = (),
    ) -> dict[str, tuple[Sequence[Candidate], float]]:
        """The candidate lists with their weights, as ``fuse`` takes them."""
        lists = {"keyword": (keyword, self.keyword), "vector": (vector, self.vector), "phrase": (phrase, self.phrase)}
        if perspective:  # a list only a question naming a speaker has
            lists["perspective"] = (perspective, self.perspective)
        return lists

    def fuse(self, lists: Lists, *, depth: int) -> FusedList:
        """``fuse`` with this fusion's constant."""
        return fuse(lists, depth=depth, rrf_k=self.rrf_k)
