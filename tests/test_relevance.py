"""Relevance per hit and the min_relevance floor: a query about nothing memory holds comes back empty."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import cast

import pytest

from tiermem.agent.tools import MemoryTools, archival_scope
from tiermem.context.budget import ContextBudget
from tiermem.context.window import ContextManager
from tiermem.embed import HashingEmbedder, MiniLMEmbedder
from tiermem.english.names import names
from tiermem.errors import ValidationError
from tiermem.memory import Memory
from tiermem.recall.meaning import held_by_meaning
from tiermem.recall.policy import DEFAULT_MIN_RELEVANCE, RecallPolicy
from tiermem.recall.relevance import (
    CALIBRATIONS,
    EVIDENCE_PREFIX,
    Calibration,
    Evidence,
    few_found,
    matched_share,
    stem,
    term_weights,
)
from tiermem.store import open_store
from tiermem.store.base import TermStatistics
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import WordCounter
from tiermem.types import Scope

SCOPE = Scope("t", "u")
NOTES = ("I water the tomato plants every morning.", "My sister lives in Lisbon and teaches piano.")


def _memory(policy: RecallPolicy | None = None) -> Memory:
    memory = Memory.open(":memory:", embedder=HashingEmbedder(), policy=policy)
    for note in NOTES:
        memory.remember(SCOPE, note)
    return memory


def test_every_hit_has_a_relevance_between_0_and_1() -> None:
    with _memory() as memory:
        hits = memory.recall(SCOPE, "who teaches piano?")
    assert hits and all(h.relevance is not None and 0.0 < h.relevance < 1.0 for h in hits)
    assert hits[0].record.content == NOTES[1]
    assert hits[0].relevance is not None and hits[0].relevance >= DEFAULT_MIN_RELEVANCE


def test_without_a_floor_recall_returns_the_top_k_even_when_nothing_is_relevant() -> None:
    with _memory() as memory:
        hits = memory.recall(SCOPE, "quantum chromodynamics lecture notes")
    assert len(hits) == 2  # the library's default stays top k
    assert all(h.relevance is not None and h.relevance < DEFAULT_MIN_RELEVANCE for h in hits)


def test_min_relevance_drops_hits_below_the_floor() -> None:
    with _memory(RecallPolicy(min_relevance=DEFAULT_MIN_RELEVANCE)) as memory:
        assert memory.recall(SCOPE, "quantum chromodynamics lecture notes") == []
        assert [h.record.content for h in memory.recall(SCOPE, "who teaches piano?")] == [NOTES[1]]


@pytest.mark.parametrize("floor", [-0.1, 1.5])
def test_min_relevance_outside_0_1_is_a_validation_error(floor: float) -> None:
    with pytest.raises(ValidationError, match="min_relevance"):
        RecallPolicy(min_relevance=floor)


def test_rarer_words_weigh_more_and_match_across_inflections() -> None:
    weights = {"piano": 3.0, "lives": 1.0}
    assert matched_share(weights, "She played the pianos.") == pytest.approx(0.75)
    assert stem("teaching") == stem("teaches") == "teach"


def test_relevance_rises_with_each_piece_of_evidence() -> None:
    fit = Calibration(cosine=10.0, matched=5.0, unknown=-3.0, stranger=-2.0, bias=-10.0)
    weak = fit.relevance(Evidence(0.2, 0.0))
    assert weak < fit.relevance(Evidence(0.6, 0.0)) < fit.relevance(Evidence(0.6, 1.0))
    assert fit.relevance(Evidence(0.6, 1.0, stranger=1.0)) < fit.relevance(Evidence(0.6, 1.0))
    assert fit.relevance(Evidence(0.6, 0.0, unknown=1.0)) < fit.relevance(Evidence(0.6, 0.0))


def test_a_word_no_note_holds_counts_neither_way() -> None:
    with _memory() as memory:
        weights = term_weights(memory.store, SCOPE, ["piano", "sister", "cello"], frozenset())
    assert set(weights.weights) == {"piano", "sister"} and not weights.unknown and not weights.stranger
    assert matched_share(weights.weights, NOTES[1]) == pytest.approx(1.0)


def test_a_word_a_note_holds_only_by_its_stem_is_known_to_that_note() -> None:
    allergy = "I am allergic to peanuts."
    with _memory() as memory:
        memory.remember(SCOPE, allergy)
        weights = term_weights(memory.store, SCOPE, ["allergies"])
    assert weights.unknown  # the index holds "allergic", not "allergies"
    against, unknown = weights.for_text(allergy)
    assert set(against) == {"allergies"} and not unknown
    assert matched_share(against, allergy) == pytest.approx(1.0)
    assert weights.for_text(NOTES[0])[1]  # a note without it leaves the query unknown


def test_a_query_whose_words_no_note_holds_is_unknown() -> None:
    with _memory() as memory:
        weights = term_weights(memory.store, SCOPE, ["quantum", "lecture"])
    assert weights.weights == {} and weights.unknown


def test_a_name_the_scope_never_mentions_makes_the_query_a_stranger() -> None:
    with _memory() as memory:
        terms = ["piano", "lessons", "priya"]
        assert term_weights(memory.store, SCOPE, terms, names("Does Priya give piano lessons?")).stranger
        assert not term_weights(memory.store, SCOPE, terms, names("Does priya give piano lessons?")).stranger
        lisbon = term_weights(memory.store, SCOPE, ["lives", "lisbon"], names("Who lives in Lisbon?"))
        assert not lisbon.stranger  # a name the scope mentions


@pytest.fixture
def tools() -> Iterator[MemoryTools]:
    memory = Memory(open_store(":memory:"), HashingEmbedder())
    budget = ContextBudget(window=3000, system=100, core=300, output_reserve=200, retrieval_reserve=100)
    context = ContextManager(cast(StoreWithContext, memory.store), memory, SCOPE, budget=budget, counter=WordCounter())
    for note in NOTES:
        memory.remember(archival_scope(SCOPE), note, source="agent")
    yield MemoryTools(memory, SCOPE, context)
    memory.close()


def test_archival_search_says_no_relevant_memory_instead_of_noise(tools: MemoryTools) -> None:
    result = tools.dispatch("archival_memory_search", json.dumps({"query": "quantum chromodynamics lecture notes"}))
    assert result.startswith('no relevant memory for "quantum chromodynamics lecture notes": 2 archival memories')
    found = tools.dispatch("archival_memory_search", json.dumps({"query": "who teaches piano?"}))
    assert "Lisbon" in found and "tomato" not in found and "relevance=" in found


def test_tools_without_a_floor_show_the_best_notes_whatever_they_are(tools: MemoryTools) -> None:
    tools.min_relevance = None
    result = tools.dispatch("archival_memory_search", json.dumps({"query": "quantum chromodynamics lecture notes"}))
    assert result.startswith("2 archival memories")


def test_the_real_model_finds_nothing_relevant_for_an_unrelated_subject(real: Memory) -> None:
    for note in NOTES:
        real.remember(SCOPE, note)
    unrelated = real.recall(SCOPE, "quantum chromodynamics lecture notes")
    assert len(unrelated) == 2 and all((h.relevance or 0.0) < DEFAULT_MIN_RELEVANCE for h in unrelated)
    best = real.recall(SCOPE, "Which city does my sister live in?")[0]
    assert best.record.content == NOTES[1] and (best.relevance or 0.0) >= DEFAULT_MIN_RELEVANCE


def test_the_real_model_keeps_a_synonym_query_the_notes_never_word(real: Memory) -> None:
    # No note holds "kitten", "called" or "irrigate": words no record holds count neither way; the cosine and
    # the words the notes do hold carry the hit.
    cat = "My sister's cat is named Pickles."
    for note in (*NOTES, cat):
        real.remember(SCOPE, note)
    for query, note in (
        ("what is my sister's kitten called?", cat),
        ("how often do I irrigate the tomatoes?", NOTES[0]),
    ):
        best = real.recall(SCOPE, query)[0]
        assert best.record.content == note and (best.relevance or 0.0) >= DEFAULT_MIN_RELEVANCE, query


def test_the_real_model_leaves_off_topic_queries_empty_on_a_small_scope(real: Memory) -> None:
    for note in NOTES:
        real.remember(SCOPE, note)
    for query in (
        "what is my dentist's phone number?",
        "who won the football match yesterday?",
        "What did Priya say about the contract?",
        "favourite hiking trail in the mountains",
    ):
        assert all((h.relevance or 0.0) < DEFAULT_MIN_RELEVANCE for h in real.recall(SCOPE, query)), query


def test_the_sqlite_store_counts_a_words_records_in_its_own_scope_only() -> None:
    with _memory() as memory:
        memory.remember(Scope("t", "other"), "Piano lessons on Tuesday, piano tuning on Friday.")
        store = memory.store
        assert isinstance(store, TermStatistics)
        assert store.term_document_counts(SCOPE, ["piano", "tomato", "tuesday"]) == (
            2,
            {"piano": 1, "tomato": 1, "tuesday": 0},
        )


def test_each_hit_carries_its_relevance_evidence_in_its_parts() -> None:
    with _memory() as memory:
        hits = memory.recall(SCOPE, "who teaches piano?")
    names = {p.name for p in hits[0].parts if p.name.startswith(EVIDENCE_PREFIX)}
    assert names == {
        f"{EVIDENCE_PREFIX}{n}"
        for n in ("cosine", "matched", "unknown", "stranger", "few", "meaning", "best", "phrase")
    }
    evidence = {p.name: p for p in hits[0].parts if p.name in names}
    assert all(p.contribution == 1.0 for p in evidence.values())  # they explain the relevance, not the score
    assert evidence["relevance:matched"].raw == pytest.approx(1.0)
    # Two notes of a 50-candidate list: log(50 / 2).
    assert evidence["relevance:few"].raw == pytest.approx(few_found(2, 50)) and few_found(2, 50) > 3.0


def test_few_is_zero_once_the_vector_list_is_full() -> None:
    assert few_found(50, 50) == 0.0 and few_found(0, 50) == 0.0
    assert few_found(5, 50) > few_found(25, 50) > 0.0


def test_a_small_scope_needs_a_lower_cosine_than_a_large_one() -> None:
    minilm = CALIBRATIONS["all-MiniLM-L6-v2-onnx-int8-384"]
    large = Evidence(cosine=0.3, matched=1.0, best=0.3)
    small = Evidence(cosine=0.3, matched=1.0, best=0.3, few=few_found(5, 50))
    assert minilm.relevance(small) > DEFAULT_MIN_RELEVANCE > minilm.relevance(large)


def test_a_model_without_a_line_for_meaning_reads_no_word_by_meaning() -> None:
    assert held_by_meaning(HashingEmbedder(), {"kitten": 1.0}, ["My sister has a cat."]) == [frozenset()]


@pytest.mark.slow
def test_an_unknown_word_is_held_by_a_word_of_the_same_meaning_but_not_by_a_name_or_a_topic() -> None:
    notes = ["My sister has a cat called Miso.", "The car needs new tyres."]
    embedder = MiniLMEmbedder(threads=1)
    held = held_by_meaning(embedder, {"kitten": 1.0, "tyres": 0.0, "vehicle": 1.0}, notes)
    assert "kitten" in held[0] and "kitten" not in held[1]
    assert held_by_meaning(embedder, {"kitten": 1.0}, notes, names=frozenset({"kitten"})) == [frozenset()] * 2
    assert held_by_meaning(embedder, {"painting": 1.0}, ["We watched a film."]) == [frozenset()]


def test_a_hit_holding_two_query_words_side_by_side_carries_phrase_evidence() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        memory.remember(SCOPE, "The garden shed needs a new roof before winter.")
        memory.remember(SCOPE, "A new shed arrived; the garden gate is still broken.")
        hits = {h.record.content: h for h in memory.recall(SCOPE, "what does the garden shed need?")}

    def phrase(content: str) -> float | None:
        return next(p.raw for p in hits[content].parts if p.name == f"{EVIDENCE_PREFIX}phrase")

    assert phrase("The garden shed needs a new roof before winter.") == 1.0
    assert phrase("A new shed arrived; the garden gate is still broken.") == 0.0


def test_the_phrase_evidence_raises_relevance() -> None:
    minilm = CALIBRATIONS["all-MiniLM-L6-v2-onnx-int8-384"]
    apart = Evidence(cosine=0.35, matched=0.5, best=0.35)
    assert minilm.relevance(replace(apart, phrase=1.0)) > minilm.relevance(apart)
