"""Recall's pipeline, part by part: the query parsed once, gathering, each stage alone, the language gate, the floor."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from context_window_helpers import manager
from tiermem import Memory, NewMemory
from tiermem.agent.tools import MemoryTools
from tiermem.embed import Vectors
from tiermem.errors import ValidationError
from tiermem.recall.factors import FirstHand, NamedDay, Recency, Trust
from tiermem.recall.floor import DEFAULT_MIN_RELEVANCE, RelevanceFloor
from tiermem.recall.gather import Ask, Gather, _with_vector, ask_store
from tiermem.recall.pipeline import Pipeline
from tiermem.recall.policy import RecallPolicy
from tiermem.recall.query import Query, parse_query
from tiermem.recall.search import _pipeline
from tiermem.recall.stages import Factors, NeighbourEvidence, NewerFactsFirst, Ranking, SessionEvidence
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, Scope, ScorePart, Source

SCOPE = Scope("acme", "ann")
NOW = datetime(2025, 6, 12, 9, tzinfo=UTC)


def _record(
    rid: str, content: str, *, source: str = "user", days_ago: float = 0.0, session: str | None = None
) -> MemoryRecord:
    when = NOW - timedelta(days=days_ago)
    parsed = Source.parse(source)
    scope = replace(SCOPE, session=session)
    return MemoryRecord(rid, scope, MemoryType.EPISODIC, content, parsed, parsed.trust, when, when, rid)


def _hits(*pairs: tuple[MemoryRecord, float]) -> list[Hit]:
    return [Hit(record, score, ()) for record, score in pairs]


def test_a_query_is_parsed_once_into_terms_phrase_pairs_and_its_english_reading() -> None:
    query = parse_query("What did I plant in the garden yesterday, Ann?", NOW)
    assert query.terms == ("plant", "garden", "yesterday", "ann")
    assert query.pairs == ["plant garden", "garden yesterday", "yesterday ann"]
    assert query.english is not None and query.english.about_the_user and query.english.may_name
    assert query.english.named_days is not None and query.english.named_days.spans[0][0].day == 11
    assert "ann" in query.english.names and query.vector is None


def test_a_question_not_in_english_has_no_english_reading_so_no_english_rule_applies() -> None:
    query = parse_query("Qu'est-ce que Marie m'a donné hier ?", NOW)
    assert query.english is None and query.terms  # full text still reads it
    records = {"a": _record("a", "Marie: hier, un vélo", source="user:Marie"), "b": _record("b", "ok", source="agent")}
    assert FirstHand().parts(query, records) == {} and NamedDay().parts(query, records) == {}
    assert FirstHand().span(query) == NamedDay().span(query) == 1.0


def test_a_naive_now_is_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError, match="now: must be timezone-aware"):
        parse_query("anything", datetime(2025, 1, 1))


def test_each_factor_holds_its_own_parameters() -> None:
    query = parse_query("the harbour", NOW)
    web = replace(_record("w", "the harbour at dawn"), trust=0.3)
    assert Trust(floor=0.5).parts(query, {"w": web})["w"].contribution == pytest.approx(0.65)
    assert Trust(floor=0.9).parts(query, {"w": web})["w"].contribution == pytest.approx(0.93)
    old = _record("o", "the harbour", days_ago=30)
    assert Recency().parts(query, {"o": old})["o"].contribution == 1.0  # off by default
    assert Recency(weight=1.0).parts(query, {"o": old})["o"].contribution == pytest.approx(1.5)


def test_a_policy_field_sets_that_parameter_of_its_factor_and_survives_replace() -> None:
    policy = RecallPolicy(trust_floor=0.8, recency_weight=0.2)
    assert Trust(floor=0.8) in policy.factors and Recency(weight=0.2) in policy.factors
    assert Trust(floor=0.3) in replace(policy, trust_floor=0.3).factors
    assert RecallPolicy().factors == RecallPolicy(trust_floor=None).factors  # None: the factor's own
    dropped = policy.without_factor("trust")
    assert "trust" not in {f.name for f in dropped.factors} and dropped.trust_floor is None


def test_a_policy_field_for_a_factor_it_does_not_hold_is_refused() -> None:
    with pytest.raises(ValidationError, match="trust_floor: sets the trust factor"):
        RecallPolicy(trust_floor=0.4, factors=(Recency(),))


def test_the_pipeline_of_a_policy_lists_its_stages_in_order_with_their_parameters() -> None:
    pipeline = Pipeline.of(RecallPolicy(session_weight=0.3, stream_window=4, neighbour_weight=0.2, min_relevance=0.4))
    assert [s.name for s in pipeline.stages] == ["factors", "session", "neighbour", "newer_fact"]
    assert pipeline.stages[1] == SessionEvidence(weight=0.3, window=4)
    assert pipeline.stages[2] == NeighbourEvidence(weight=0.2)
    assert pipeline.stages[3] == NewerFactsFirst(update_cosine=0.5, competing_ratio=0.9)
    assert pipeline.floor == RelevanceFloor(0.4) and pipeline.gather == Gather(50, True, False, True, 4)


def test_the_factors_stage_multiplies_each_part_in_order_and_ranks_again(mem: Memory) -> None:
    query = parse_query("harbour", NOW)
    strong, weak = _record("s", "harbour", source="web:https://x.example"), _record("w", "harbour")
    ranking = Ranking(mem.store, SCOPE, query, 2)
    hits = Factors((Trust(floor=0.5),)).rescore(_hits((strong, 1.0), (weak, 0.7)), ranking)
    assert [h.record.id for h in hits] == ["w", "s"]  # the web note keeps 65% of its score: 0.65 < 0.7
    assert hits[1].part("trust") is not None and hits[1].score == pytest.approx(0.65)


def test_the_session_stage_lifts_turns_of_the_session_holding_the_best_match(mem: Memory) -> None:
    query = parse_query("trip", NOW)
    turns = (("b", "the trip", "s1"), ("m", "yes!", "s1"), ("o", "x", "s2"))
    best, same, other = (_record(r, t, session=s) for r, t, s in turns)
    hits = _hits((best, 1.0), (other, 0.8), (same, 0.75))
    ranked = SessionEvidence(weight=0.5, window=0).rescore(hits, Ranking(mem.store, SCOPE, query, 1))
    assert [h.record.id for h in ranked] == ["b", "m", "o"] and ranked[1].part("session") is not None
    assert SessionEvidence(weight=0.0).rescore(hits, Ranking(mem.store, SCOPE, query, 1)) == hits


def test_the_neighbour_stage_at_weight_zero_changes_nothing(mem: Memory) -> None:
    hits = _hits((_record("a", "one"), 1.0), (_record("b", "two"), 0.5))
    assert NeighbourEvidence(weight=0.0).rescore(hits, Ranking(mem.store, SCOPE, parse_query("x", NOW), 2)) == hits


def test_the_floor_drops_hits_below_it_and_keeps_hits_never_judged() -> None:
    low, high, unjudged = (Hit(_record(r, r), 1.0, (), relevance=v) for r, v in (("l", 0.1), ("h", 0.5), ("u", None)))
    assert RelevanceFloor(0.15).apply([low, high, unjudged]) == [high, unjudged]
    assert RelevanceFloor(None).apply([low, high]) == [low, high]
    assert RelevanceFloor(0.5).passes(high)  # at the floor is above it


def test_recall_and_the_memory_tools_apply_the_same_floor(mem: Memory) -> None:
    mem.remember_many(SCOPE, [NewMemory("My sister teaches piano in Lisbon.", MemoryType.SEMANTIC, "user")])
    asked = "quantum chromodynamics lecture notes"
    unfloored = mem.recall(SCOPE, asked)
    floored = Memory(mem.store, mem.embedder, RecallPolicy(min_relevance=DEFAULT_MIN_RELEVANCE)).recall(SCOPE, asked)
    assert unfloored and floored == RelevanceFloor(DEFAULT_MIN_RELEVANCE).apply(unfloored) == []
    tools = MemoryTools(mem, SCOPE, manager(mem.store))
    assert tools._relevant(unfloored) == floored


def test_gather_returns_each_list_and_the_query_with_its_vector(mem: Memory) -> None:
    mem.remember(SCOPE, "The spare key is under the blue flowerpot.")
    query = parse_query("where is the spare key", NOW)
    found = Gather()(mem.store, mem.embedder, SCOPE, query, Filter(), k=5)
    assert found.keyword and found.vector and found.phrase  # "spare key" stands together
    assert found.query.vector is not None and found.fingerprint == mem.embedder.fingerprint
    assert found.wanted.with_closed  # closed facts are candidates, to credit their current version
    without_model = Gather(phrases=False)(mem.store, None, SCOPE, query, Filter(), k=5)
    assert without_model.vector == [] and without_model.phrase == [] and without_model.query.vector is None


def test_asking_the_store_reads_the_floors_word_counts_only_while_the_model_still_runs(mem: Memory) -> None:
    mem.remember(SCOPE, "The spare key is under the blue flowerpot.")
    query = parse_query("where is the spare key", NOW)
    assert mem.embedder is not None
    fingerprint = mem.embedder.fingerprint
    ask = Ask(SCOPE, Filter(), NOW, 50, query.terms, tuple(query.pairs), frozenset(), fingerprint)
    vector = mem.embedder.embed_batch([query.text])[0]
    pending: Future[list[Vectors]] = Future()
    threading.Timer(0.2, pending.set_result, [[vector]]).start()
    waited = ask_store(mem.store, ask, pending)
    assert waited.weights is not None and waited.keyword and waited.phrase and len(waited.vector) == 1
    done: Future[list[Vectors]] = Future()
    done.set_result([vector])
    ready = ask_store(mem.store, ask, done)
    assert ready.weights is None and [c.id for c in ready.vector[0]] == [c.id for c in waited.vector[0]]
    no_model = ask_store(mem.store, replace(ask, fingerprint=None, pairs=()), done)
    assert no_model.vector == [] and no_model.phrase == [] and no_model.keyword == ready.keyword


def test_a_pipeline_built_by_hand_runs_its_own_stages(mem: Memory) -> None:
    for text in ("The harbour at dawn.", "The harbour at night."):
        mem.remember(SCOPE, text)

    class Reverse:
        name = "reverse"

        def span(self, query: object) -> float:
            return float("inf")

        def rescore(self, hits: list[Hit], ranking: Ranking) -> list[Hit]:
            parts = (ScorePart(self.name, None, None, 1.0),)
            return [replace(h, parts=h.parts + parts) for h in reversed(hits)]

    default = Pipeline.of(RecallPolicy())
    reversed_ = replace(default, stages=(Reverse(),))
    kwargs = {"k": 2, "filter_": Filter(), "now": NOW}
    plain = default.recall(mem.store, mem.embedder, SCOPE, "harbour", **kwargs)
    mine = reversed_.recall(mem.store, mem.embedder, SCOPE, "harbour", **kwargs)
    assert [h.record.id for h in mine] == [h.record.id for h in reversed(plain)]
    assert all(h.part("reverse") is not None and h.part("trust") is None for h in mine)


@dataclass(frozen=True)
class _Mark:
    """A guard of the tests' own: gives every record a part of ``factor``, or only ``only``'s, flagged."""

    factor: float = 1.0
    only: str | None = None
    name = "mark"
    flag = "marked"

    def span(self, question: object) -> float:
        return 1.0

    def parts(self, question: object, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        return {r: ScorePart(self.name, None, None, self.factor) for r in records if self.only in (None, r)}


def _harbour_notes(mem: Memory) -> None:
    for text in ("The harbour at dawn.", "The harbour at night.", "A harbour crane.", "Harbour fees rose."):
        mem.remember(SCOPE, text)


def test_recency_at_weight_zero_shows_its_part_on_every_hit_and_moves_no_score(mem: Memory) -> None:
    _harbour_notes(mem)
    kwargs = {"k": 4, "filter_": Filter(), "now": NOW}
    with_recency = Pipeline.of(RecallPolicy()).recall(mem.store, mem.embedder, SCOPE, "harbour", **kwargs)
    without = Pipeline.of(RecallPolicy().without_factor("recency")).recall(
        mem.store, mem.embedder, SCOPE, "harbour", **kwargs
    )
    assert [(h.record.id, h.score) for h in with_recency] == [(h.record.id, h.score) for h in without]
    parts = [h.part("recency") for h in with_recency]
    assert all(p is not None and p.contribution == 1.0 and p.raw is not None and 0 < p.raw <= 1 for p in parts)


def test_a_guard_giving_every_hit_a_part_shows_it_and_one_demoting_a_hit_moves_that_hit_alone(mem: Memory) -> None:
    _harbour_notes(mem)
    kwargs = {"k": 4, "filter_": Filter(), "now": NOW}
    plain = Pipeline.of(RecallPolicy()).recall(mem.store, mem.embedder, SCOPE, "harbour", **kwargs)
    default = Pipeline.of(RecallPolicy())
    marked = replace(default, guards=(*default.guards, _Mark())).recall(
        mem.store, mem.embedder, SCOPE, "harbour", **kwargs
    )
    assert [h.record.id for h in marked] == [h.record.id for h in plain]
    assert all(h.part("mark") is not None and "marked" in h.flags for h in marked)
    first = plain[0].record.id
    demoting = replace(default, guards=(_Mark(0.1, first),))
    demoted = demoting.recall(mem.store, mem.embedder, SCOPE, "harbour", **kwargs)
    assert [h.record.id for h in demoted] == [h.record.id for h in plain[1:]] + [first]
    assert "marked" in demoted[-1].flags and all(h.part("mark") is None for h in demoted[:-1])


def test_a_stage_of_ones_own_between_the_built_in_ones_is_handed_hits_and_changes_nothing_else(mem: Memory) -> None:
    _harbour_notes(mem)
    given: list[list[Hit]] = []

    class Seen:
        name = "seen"

        def span(self, query: object) -> float:
            return 1.0

        def rescore(self, hits: list[Hit], ranking: Ranking) -> list[Hit]:
            given.append(hits)
            return hits

    default = Pipeline.of(RecallPolicy())
    mixed = replace(default, stages=(*default.stages[:2], Seen(), *default.stages[2:]))
    kwargs = {"k": 4, "filter_": Filter(), "now": NOW}
    assert mixed.recall(mem.store, mem.embedder, SCOPE, "harbour", **kwargs) == default.recall(
        mem.store, mem.embedder, SCOPE, "harbour", **kwargs
    )
    assert given and all(isinstance(h, Hit) and h.part("keyword") for h in given[0])


def test_a_memory_makes_its_policys_pipeline_once() -> None:
    policy = RecallPolicy(session_weight=0.3)
    assert _pipeline(policy) is _pipeline(policy) and _pipeline(policy) == Pipeline.of(policy)
    assert _pipeline(RecallPolicy(session_weight=0.3)).stages == _pipeline(policy).stages


def test_the_query_given_its_vector_keeps_every_other_field() -> None:
    query = parse_query("What did Ann plant in the garden yesterday?", NOW)
    vector = np.ones(4, dtype=np.float32)
    assert _with_vector(query, vector).vector is vector
    assert [getattr(_with_vector(query, None), f.name) for f in fields(Query)] == [
        getattr(replace(query, vector=None), f.name) for f in fields(Query)
    ]
