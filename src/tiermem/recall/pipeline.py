"""Recall as one pipeline: parse → gather → fuse → short list → re-scoring stages → guards → relevance → floor.

```text
parse_query        the question read once: terms, phrase pairs, English reading (or None), later its vector
   │
Gather             keyword, phrase and vector candidates (the model embeds beside the keyword queries)
   │
Fusion             reciprocal-rank fusion of the lists, imputed ranks for what a list did not return
   │
short list         the best fused records (all of them when the stages' spans multiply past SHORTLIST_SPAN);
   │               a closed fact's rank handed to its current version; notes quarantined at write time left
   │               out unless asked for (the prompt gate's rule)
stages             Factors → SessionEvidence → NeighbourEvidence → NewerFactsFirst (``recall.stages``)
   │
guards             demote only, judged from the top down as far as the k best need (quarantine, suspicious)
   │
relevance          each of the k hits judged on an absolute scale (``recall.relevance``)
   │
RelevanceFloor     hits below the floor dropped (``recall.floor``)
```

``Pipeline.of(policy)`` builds the stages from a ``RecallPolicy``; each stage holds its own parameters.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime

from tiermem.embed import Embedder, Vectors
from tiermem.errors import ValidationError
from tiermem.recall.current import current_versions
from tiermem.recall.factors import ScoreFactor
from tiermem.recall.floor import RelevanceFloor
from tiermem.recall.fusion import FusedList, Fusion, Lists
from tiermem.recall.gather import Gather
from tiermem.recall.policy import RecallPolicy
from tiermem.recall.query import Query, check_query, parse_query
from tiermem.recall.relevance import calibration_for, few_found, judged
from tiermem.recall.rows import Row, hits_of, rows_of
from tiermem.recall.stages import Factors, NeighbourEvidence, NewerFactsFirst, Ranking, SessionEvidence, Stage
from tiermem.recall.traits import verdict
from tiermem.store.base import Store
from tiermem.trust.injection import ScanLevel
from tiermem.types import Filter, Hit, MemoryRecord, Scope

__all__ = ["SHORTLIST_SPAN", "Pipeline"]

SHORTLIST_SPAN = 2.5
"""Re-scoring that moves a record at most this many times against another needs only a short list of the best
fused records (``max(3k, k + 20)``): trust (floor 0.5) and a named speaker (0.9) move it 2.2 times. When the
stages' spans multiply to more (a question about the user, or naming a day, or a factor that cannot bound its
reach), every candidate is re-scored. 2.5 draws that line where the default factors always drew it."""

_TIE_BREAK = 1e-4  # far below the gap between two adjacent reciprocal ranks (about 1/3700 at rank 60)


@dataclass(frozen=True, slots=True)
class Pipeline:
    """The steps of one recall, each holding its own parameters (see the module docstring)."""

    gather: Gather
    fusion: Fusion
    stages: tuple[Stage, ...]
    guards: tuple[ScoreFactor, ...]
    floor: RelevanceFloor

    @classmethod
    def of(cls, policy: RecallPolicy) -> Pipeline:
        """The pipeline a ``RecallPolicy`` describes."""
        return cls(
            Gather(
                policy.candidates,
                policy.phrase_weight > 0,
                policy.perspective_weight > 0,
                policy.credit_current,
                policy.stream_window,
            ),
            policy.fusion(),
            (
                Factors(policy.factors),
                SessionEvidence(policy.session_weight, policy.stream_window),
                NeighbourEvidence(policy.neighbour_weight),
                NewerFactsFirst(policy.update_cosine, policy.competing_ratio),
            ),
            policy.guards,
            RelevanceFloor(policy.min_relevance),
        )

    def recall(
        self,
        store: Store,
        embedder: Embedder | None,
        scope: Scope,
        text: str,
        *,
        k: int,
        filter_: Filter,
        now: datetime,
        query_vector: Vectors | None = None,
        include_quarantined: bool = False,
    ) -> list[Hit]:
        """The k best records for ``text`` in ``scope`` at or above the floor, each with its score parts."""
        check_query(text, k)
        embedding = self.gather.embed_early(embedder, text, query_vector) if text.strip() else None
        query = parse_query(text, now)
        if not text.strip():
            return []
        with store.pinned(scope):
            return self._recall(store, embedder, scope, query, k, filter_, query_vector, embedding, include_quarantined)

    def _recall(
        self,
        store: Store,
        embedder: Embedder | None,
        scope: Scope,
        query: Query,
        k: int,
        filter_: Filter,
        query_vector: Vectors | None,
        embedding: Future[list[Vectors]] | None,
        include_quarantined: bool,
    ) -> list[Hit]:
        """``recall`` of a parsed, non-empty question."""
        found = self.gather(store, embedder, scope, query, filter_, k=k, query_vector=query_vector, embedding=embedding)
        store = found.reads or store
        lists = self.fusion.lists(
            keyword=found.keyword, vector=found.vector, phrase=found.phrase, perspective=found.perspective
        )
        query = found.query
        rows = self._ranked(store, scope, query, lists, k, found.wanted, include_quarantined)
        english = query.english
        hits = judged(
            store,
            scope,
            query.terms,
            rows,
            query_vector=query.vector,
            calibration=calibration_for(found.fingerprint),
            names=english.names if english is not None else frozenset(),
            weights=found.weights,
            embedder=embedder if found.fingerprint is not None else None,
            few=few_found(len(found.vector), max(self.gather.candidates, k)) if found.fingerprint else 0.0,
        )
        return self.floor.apply(hits)

    def rank(
        self,
        store: Store,
        scope: Scope,
        query: Query,
        lists: Lists,
        *,
        k: int,
        filter_: Filter | None = None,
        include_quarantined: bool = False,
    ) -> list[Hit]:
        """The k best of ``lists`` fused, re-scored by the stages and judged by the guards, with their parts."""
        return hits_of(self._ranked(store, scope, query, lists, k, filter_, include_quarantined))

    def _ranked(
        self,
        store: Store,
        scope: Scope,
        query: Query,
        lists: Lists,
        k: int,
        filter_: Filter | None,
        include_quarantined: bool,
    ) -> list[Row]:
        """``rank`` as rows."""
        fused = self.fusion.fuse(lists, depth=max(self.gather.candidates, k))
        if not fused.scores:
            return []
        reach = math.prod(s.span(query) for s in self.stages) * math.prod(g.span(query) for g in self.guards)
        size = len(fused.scores) if reach > SHORTLIST_SPAN else max(3 * k, k + 20)
        shortlist = fused.best(size)
        records = store.get_many(scope, shortlist)
        credited: set[str] = set()
        if filter_ is not None and filter_.with_closed:
            shortlist, credited = _credit_current(store, scope, shortlist, records, fused, filter_, query.now)
        rows = _fused_rows(shortlist, records, fused, credited, include_quarantined)
        ranking = Ranking(store, scope, query, k)
        for stage in self.stages:
            if type(stage) in _ROW_STAGES:
                rows = stage.rescore_rows(rows, ranking)  # type: ignore[attr-defined]
            else:
                rows = rows_of(stage.rescore(hits_of(rows), ranking))
        return _guarded(rows, self.guards, query, k)


# The stages that re-score rows in place (``recall.rows``); any other stage is handed hits.
_ROW_STAGES = frozenset({Factors, SessionEvidence, NeighbourEvidence, NewerFactsFirst})


def _fused_rows(
    shortlist: Sequence[str],
    records: dict[str, MemoryRecord],
    fused: FusedList,
    credited: set[str],
    include_quarantined: bool,
) -> list[Row]:
    """The short list's records as rows scored by fusion, in its order; quarantined notes out unless asked for."""
    rows: list[Row] = []
    scores, best_possible = fused.scores, fused.best_possible
    vector = fused.placed.get("vector", {})
    for rid in shortlist:
        record = records.get(rid)
        if record is None:  # deleted between candidate and fetch
            continue
        if not include_quarantined and verdict(record) is ScanLevel.QUARANTINE:
            continue
        # Reciprocal ranks tie often (1st + 2nd = 2nd + 1st); the vector's cosine breaks such ties.
        place = vector.get(rid)
        cosine = (place[1] if place is not None else None) or 0.0
        score = scores[rid] / best_possible + _TIE_BREAK * cosine
        flags = ("untrusted",) if record.source.untrusted else ()
        rows.append(Row(record, score, (), flags, None, fused, rid in credited))
    return rows


def _guarded(ranked: list[Row], guards: tuple[ScoreFactor, ...], query: Query, k: int) -> list[Row]:
    """The k best of ``ranked`` (best first) once the guards have demoted what they judge.

    Exactly what applying the guards to every row and sorting again (stable) would give, but a row is judged
    only while it can still reach the k best: a guard never raises a score, so once a row's score is below the
    k-th best judged so far, no later row can get in.
    """
    if not guards:
        return ranked[:k]
    reachable = _within_reach(ranked, k)
    records = {row.record.id: row.record for row in reachable}
    if not any(guard.parts(query, records) for guard in guards):
        # The usual case: no guard gives a part to any row that can reach the k best, so the loop below would
        # keep them as they are. Asked once for all of them, not once a row.
        reachable.sort(key=_score, reverse=True)  # stable, as below
        return reachable[:k]
    kept: list[Row] = []
    best: list[float] = []  # a min-heap of the k best judged scores
    for row in ranked:
        if len(best) == k and row.score < best[0]:
            break
        alone = {row.record.id: row.record}
        for guard in guards:
            part = guard.parts(query, alone).get(row.record.id)
            if part is None:
                continue
            if not part.contribution <= 1.0:
                raise ValidationError("guards", f"{guard.name} may only demote", given=part.contribution, limit=1.0)
            row.added.append(part)
            row.score *= part.contribution
            if guard.flag is not None and guard.flag not in row.flags:
                row.flags = (*row.flags, guard.flag)
        kept.append(row)
        if len(best) < k:
            heapq.heappush(best, row.score)
        else:
            heapq.heappushpop(best, row.score)
    kept.sort(key=_score, reverse=True)  # stable: equal scores keep the ranking's order
    return kept[:k]


def _within_reach(ranked: list[Row], k: int) -> list[Row]:
    """The rows ``_guarded`` judges when no guard demotes any: each until one falls below the k-th best so far."""
    out: list[Row] = []
    best: list[float] = []
    for row in ranked:
        if len(best) == k and row.score < best[0]:
            break
        out.append(row)
        if len(best) < k:
            heapq.heappush(best, row.score)
        else:
            heapq.heappushpop(best, row.score)
    return out


def _score(row: Row) -> float:
    return row.score


def _credit_current(
    store: Store,
    scope: Scope,
    shortlist: list[str],
    records: dict[str, MemoryRecord],
    fused: FusedList,
    filter_: Filter,
    now: datetime,
) -> tuple[list[str], set[str]]:
    """Hand each closed fact's match to its current version, drop closed facts; the new shortlist, who gained."""
    if all(r.valid_to is None or r.valid_to > now for r in records.values()):
        # No closed fact (the usual case): the short list stands, in its order, as below.
        return [rid for rid in shortlist if rid in records], set()
    # A question worded like the old fact finds the fact that replaced it at the old fact's rank.
    credited: set[str] = set()
    for old, new in current_versions(store, scope, records, filter_, now).items():
        if fused.hand_over(old, new.id):
            credited.add(new.id)
        records[new.id] = new
    # In the shortlist's order, then the versions that joined it: equal scores keep the lists' order, never the
    # order the store happened to return records in (which a read cache changes).
    ordered = [records[rid] for rid in dict.fromkeys([*shortlist, *records]) if rid in records]
    live = [r.id for r in ordered if r.valid_to is None or r.valid_to > now]
    return sorted(live, key=fused.scores.__getitem__, reverse=True), credited
