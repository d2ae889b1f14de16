"""(internal) A hit's score parts as the inspector draws them: the running score after each part, on one scale.

Recall's score is a sum, then a product: each candidate list (keyword, vector, phrase, perspective) adds its
share of the best rank score possible (1 = first in every list), and each factor (recency, trust, session,
neighbours, quarantine...) then multiplies that sum. So a bar of 0.03 and a factor of 1.5 are not of one kind;
drawn here, each row shows the score as it stands after that part, and every bar of every hit on the page uses
one axis from 0 to the page's largest running score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tiermem.recall.relevance import EVIDENCE_PREFIX
from tiermem.types import Hit

__all__ = ["LISTS", "Step", "Steps", "steps"]

LISTS = frozenset({"keyword", "vector", "phrase", "perspective"})
"""The parts that add (the lists of ``RecallPolicy.fusion()``); every other part multiplies, but relevance's evidence
(``EVIDENCE_PREFIX``), which explains the relevance, not the score."""


@dataclass(frozen=True, slots=True)
class Step:
    """One part: whether it adds or multiplies, its value, the score before and after it, and where its bar's
    coloured piece begins and ends (``start``, ``end``) in percent of the page's axis."""

    name: str
    op: str
    rank: int | None
    raw: float | None
    value: float
    before: float
    after: float
    start: float
    end: float


@dataclass(frozen=True, slots=True)
class Steps:
    """Every hit's steps, and the axis they share."""

    rows: tuple[tuple[Step, ...], ...]
    top: float  # the axis runs from 0 to this score


def _running(hit: Hit) -> list[tuple[str, str, int | None, float | None, float, float, float]]:
    out = []
    total = 0.0
    for p in hit.parts:  # the lists first, in their order: the sum they make is what the factors multiply
        if p.name in LISTS:
            out.append((p.name, "add", p.rank, p.raw, p.contribution, total, total + p.contribution))
            total += p.contribution
    for p in hit.parts:
        if p.name not in LISTS and not p.name.startswith(EVIDENCE_PREFIX):  # relevance's evidence: not a step
            out.append((p.name, "multiply", p.rank, p.raw, p.contribution, total, total * p.contribution))
            total *= p.contribution
    return out


def steps(hits: Sequence[Hit]) -> Steps:
    """The steps of each hit, on an axis from 0 to the largest score any of them reaches."""
    running = [_running(hit) for hit in hits]
    top = max([1e-12, *(max(b, a) for rows in running for *_, b, a in rows), *(h.score for h in hits)])

    def pct(x: float) -> float:
        return round(100 * max(x, 0.0) / top, 2)

    rows = []
    for hit_rows in running:
        out = []
        for name, op, rank, raw, value, before, after in hit_rows:
            low, high = (before, after) if op == "add" else (0.0, after)
            out.append(Step(name, op, rank, raw, value, before, after, pct(low), pct(high)))
        rows.append(tuple(out))
    return Steps(tuple(rows), top)
