"""(internal) The relevance floor: the one rule that drops hits too weak to show, in recall and in the memory tools."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tiermem.types import Hit

__all__ = ["DEFAULT_MIN_RELEVANCE", "RelevanceFloor"]

DEFAULT_MIN_RELEVANCE = 0.15
"""The floor the agent's memory tools use (chosen on the LoCoMo dev conversations; see docs/recall.md)."""


@dataclass(frozen=True, slots=True)
class RelevanceFloor:
    """Keeps the hits whose ``relevance`` reaches ``minimum`` (None: every hit).

    Recall judges every hit it returns; a hit nothing has judged (``relevance`` None: a listing by time, not a
    search) is kept, since nothing says it is off the question.
    """

    minimum: float | None = None

    def passes(self, hit: Hit) -> bool:
        """Whether ``hit`` stays above the floor."""
        return self.minimum is None or hit.relevance is None or hit.relevance >= self.minimum

    def apply(self, hits: Iterable[Hit]) -> list[Hit]:
        """The hits that stay, in their order."""
        if self.minimum is None:
            return list(hits)
        return [h for h in hits if self.passes(h)]
