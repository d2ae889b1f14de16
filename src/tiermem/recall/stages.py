"""The re-scoring stages of recall: each a small object holding its own parameters, run in order on the hits.

A stage takes the hits best first and returns them best first (``Stage.rescore``), reading what it needs of the
search from a ``Ranking`` (the store, the scope, the parsed query, k). The default stages, in order
(``recall.pipeline.Pipeline.of``):

1. ``Factors``: the ranking factors (``recall.factors``: recency, trust, first hand, named speaker, named day,
   and any added to the policy), each multiplying a record's score by its part's contribution;
2. ``SessionEvidence``: a turn counts more in a conversation that holds the query's best matches
   (``recall.sessions``);
3. ``NeighbourEvidence``: a turn counts more beside a strong match of its own talk (``recall.neighbours``);
4. ``NewerFactsFirst``: of two facts that compete to answer, the newer ranks above (``recall.newer``).

``span`` bounds how far a stage can move one record against another for a query: recall re-scores a short list
of the best fused records when the stages' spans multiply to little, every candidate otherwise. The evidence
stages re-rank only within that short list, so their span is 1.

Within recall the default stages re-score rows in place (``rescore_rows``, ``recall.rows``), so hits are made
only of the rows returned; a stage of one's own, given its place in a pipeline, is handed hits as above.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from tiermem.recall.factors import ScoreFactor
from tiermem.recall.neighbours import neighbour_evidence
from tiermem.recall.newer import newer_rows_first
from tiermem.recall.query import Query
from tiermem.recall.rows import Explained, Row, hits_of, rows_of
from tiermem.recall.sessions import rerank_depth, session_evidence, stream_places
from tiermem.store.base import Store
from tiermem.types import Hit, Scope, ScorePart

__all__ = ["Factors", "NeighbourEvidence", "NewerFactsFirst", "Ranking", "SessionEvidence", "Stage"]


@dataclass(frozen=True, slots=True)
class Ranking:
    """What a stage may read besides the hits: where the search runs, its query, how many hits it returns."""

    store: Store
    scope: Scope
    query: Query
    k: int

    @property
    def depth(self) -> int:
        """How many of the best hits the evidence stages re-rank: the short list's size."""
        return rerank_depth(self.k)


def _score(row: Row) -> float:
    return row.score


class Stage(Protocol):
    """One re-scoring stage."""

    @property
    def name(self) -> str:
        """Names the stage (and the score part it gives, if any)."""
        ...

    def span(self, query: Query) -> float:
        """How far, at most, this stage moves one record's score against another's (≥ 1; ``math.inf``: unsure)."""
        ...

    def rescore(self, hits: list[Hit], ranking: Ranking) -> list[Hit]:
        """``hits`` (best first) re-scored, best first."""
        ...


class _RowStage:
    """A stage that re-scores rows in place: ``rescore`` of hits made once from its ``rescore_rows``."""

    __slots__ = ()

    def rescore(self, hits: list[Hit], ranking: Ranking) -> list[Hit]:
        return hits_of(self.rescore_rows(rows_of(hits), ranking))

    def rescore_rows(self, rows: list[Row], ranking: Ranking) -> list[Row]:
        """``rescore`` of rows, changed in place."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Factors(_RowStage):
    """The ranking factors, applied together: each hit's score times its parts' contributions, in the factors'
    order (which fixes the product to the last bit), then sorted (stable: equal scores keep their order)."""

    factors: tuple[ScoreFactor, ...]
    name = "factors"

    def span(self, query: Query) -> float:
        return math.prod(factor.span(query) for factor in self.factors)

    def rescore_rows(self, rows: list[Row], ranking: Ranking) -> list[Row]:
        query = ranking.query
        records = {row.record.id: row.record for row in rows}
        factored: list[tuple[str | None, Mapping[str, ScorePart] | Explained]] = []
        for factor in self.factors:
            explains_only = getattr(factor, "explains_only", None)
            if explains_only is not None and explains_only(query):
                # Every part multiplies by exactly 1: made only for the rows returned.
                factored.append((factor.flag, Explained(factor, query)))
                continue
            parts = factor.parts(query, records)
            if parts:  # a factor that does not apply: no part
                factored.append((factor.flag, parts))
        for row in rows:
            rid = row.record.id
            score, added, flags = row.score, row.added, row.flags
            for flag, by_id in factored:
                if isinstance(by_id, Explained):
                    added.append(by_id)
                else:
                    part = by_id.get(rid)
                    if part is None:
                        continue
                    added.append(part)
                    score *= part.contribution
                if flag is not None and flag not in flags:
                    flags = (*flags, flag)
            row.score, row.flags = score, flags
        rows.sort(key=_score, reverse=True)
        return rows


@dataclass(frozen=True, slots=True)
class SessionEvidence(_RowStage):
    """Each of the short list's hits times ``1 + weight * b / top``, ``b`` the best score of its session (or of
    the turns written within ``window`` of it, for a turn without one) among them (see ``recall.sessions``)."""

    weight: float = 0.5
    window: int = 15
    name = "session"

    def span(self, query: Query) -> float:
        return 1.0  # within the short list only

    def rescore_rows(self, rows: list[Row], ranking: Ranking) -> list[Row]:
        depth = ranking.depth
        window = self.window if self.weight > 0 else 0
        places = stream_places(ranking.store, ranking.scope, [row.record for row in rows[:depth]], window)
        return session_evidence(rows, self.weight, depth, places, window)


@dataclass(frozen=True, slots=True)
class NeighbourEvidence(_RowStage):
    """Each of the short list's hits times ``1 + weight * n / top``, ``n`` the best score of the turns it follows
    or is followed by among them (see ``recall.neighbours``)."""

    weight: float = 0.1
    name = "neighbour"

    def span(self, query: Query) -> float:
        return 1.0  # within the short list only

    def rescore_rows(self, rows: list[Row], ranking: Ranking) -> list[Row]:
        return neighbour_evidence(rows, self.weight, ranking.depth)


@dataclass(frozen=True, slots=True)
class NewerFactsFirst(_RowStage):
    """Of two retrieved facts competing to answer (one topic: cosine ≥ ``update_cosine`` or the same words of the
    question answered; one subject; scores within ``competing_ratio``), the newer just above (``recall.newer``)."""

    update_cosine: float = 0.5
    competing_ratio: float = 0.9
    name = "newer_fact"

    def span(self, query: Query) -> float:
        return 1.0  # moves a fact only above another of the hits it competes with

    def rescore_rows(self, rows: list[Row], ranking: Ranking) -> list[Row]:
        english = ranking.query.english
        return newer_rows_first(
            ranking.store,
            ranking.scope,
            rows,
            update_cosine=self.update_cosine,
            competing_ratio=self.competing_ratio,
            asked=english.asked if english is not None else frozenset,
        )
