"""Named speaker: a question naming one person of a group chat ranks what that person said first."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.errors import ValidationError
from tiermem.recall.search import RecallPolicy, rank
from tiermem.store.base import Candidate
from tiermem.types import Hit, MemoryType, Source, SourceKind

ROOM = Scope("acme", "room-7")
NOW = datetime(2025, 1, 1, tzinfo=UTC)
EPISODIC = MemoryType.EPISODIC


def _chat(
    mem: Memory,
    bo_type: MemoryType = EPISODIC,
    bo_source: str = "user:Bo",
    bo_label: str = "Bo: ",
    ann_type: MemoryType = EPISODIC,
    ann_source: str = "user:Ann",
) -> tuple[str, str]:
    """Bo asks Ann about her trip, Ann answers; returns (Bo's id, Ann's id)."""
    bo, ann = mem.remember_many(
        ROOM,
        [
            NewMemory(f"{bo_label}Ann, how was the trip to Lisbon with the kids?", type=bo_type, source=bo_source),
            NewMemory("Ann: we loved the trams and the custard tarts", type=ann_type, source=ann_source),
        ],
    )
    return bo.record.id, ann.record.id


def _ranked(mem: Memory, query: str, bo: str, ann: str, policy: RecallPolicy | None = None) -> list[Hit]:
    # Bo's question shares the words of the question, so both lists put it first; Ann's answer comes second.
    cands = [Candidate(bo, 2.0), Candidate(ann, 1.0)]
    policy = policy or RecallPolicy()
    return rank(
        mem.store, ROOM, policy.fusion().lists(keyword=cands, vector=cands), k=2, now=NOW, policy=policy, query=query
    )


def _order(hits: list[Hit]) -> list[str]:
    return [h.record.id for h in hits]


@pytest.mark.parametrize("query", ["How was Ann's trip to Lisbon?", "What did Ann say about the trip?"])
def test_a_question_naming_one_speaker_ranks_what_they_said_first(mem: Memory, query: str) -> None:
    bo, ann = _chat(mem)
    hits = _ranked(mem, query, bo, ann)
    assert _order(hits) == [ann, bo]
    assert hits[1].part("speaker").contribution == pytest.approx(0.9)  # type: ignore[union-attr]
    assert hits[0].part("speaker").contribution == 1.0  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "query",
    [
        "How was the trip to Lisbon?",  # names nobody
        "What did Ann tell Bo about the trip?",  # names both
        "How was anne's trip?",  # a name is matched as a whole word, case kept
        "How was Annika's trip?",
    ],
)
def test_a_question_naming_no_single_speaker_changes_nothing(mem: Memory, query: str) -> None:
    bo, ann = _chat(mem)
    hits = _ranked(mem, query, bo, ann)
    assert _order(hits) == [bo, ann]
    assert all(h.part("speaker") is None for h in hits)


@pytest.mark.parametrize(
    ("bo_type", "bo_source", "bo_label"),
    [(MemoryType.SEMANTIC, "user:Bo", "Bo: "), (EPISODIC, "user", ""), (MemoryType.SEMANTIC, "user", "")],
)
def test_facts_and_unnamed_sources_keep_their_score(
    mem: Memory, bo_type: MemoryType, bo_source: str, bo_label: str
) -> None:
    bo, ann = _chat(mem, bo_type, bo_source, bo_label)
    assert _order(_ranked(mem, "How was Ann's trip to Lisbon?", bo, ann)) == [bo, ann]


@pytest.mark.parametrize("bo_type", [MemoryType.SEMANTIC, EPISODIC])
def test_a_users_transcript_line_is_said_by_the_speaker_its_label_names(mem: Memory, bo_type: MemoryType) -> None:
    # Written one remember() a turn, as plain user notes: the label, not the source, says who spoke.
    bo, ann = _chat(mem, bo_type, "user", "Bo: ", MemoryType.SEMANTIC, "user")
    hits = _ranked(mem, "How was Ann's trip to Lisbon?", bo, ann)
    assert _order(hits) == [ann, bo]
    assert hits[1].part("speaker").contribution == pytest.approx(0.9)  # type: ignore[union-attr]


def test_an_agents_label_names_no_speaker(mem: Memory) -> None:
    bo, ann = _chat(mem, EPISODIC, "agent", "Bo: ")
    part = {h.record.id: h.part("speaker") for h in _ranked(mem, "How was Ann's trip to Lisbon?", bo, ann)}[bo]
    assert part is not None and part.contribution == 1.0  # an unnamed agent's words keep their score


def test_speaker_weight_one_turns_the_prior_off(mem: Memory) -> None:
    bo, ann = _chat(mem)
    hits = _ranked(mem, "How was Ann's trip to Lisbon?", bo, ann, RecallPolicy(speaker_weight=1.0))
    assert _order(hits) == [bo, ann] and all(h.part("speaker") is None for h in hits)


def test_recall_ranks_the_named_speakers_words_first_end_to_end(mem: Memory) -> None:
    bo, ann = _chat(mem)
    query = "What did Ann say about the trip to Lisbon?"
    unweighted = Memory(mem.store, mem.embedder, policy=RecallPolicy(speaker_weight=1.0))
    assert unweighted.recall(ROOM, query, k=2, now=NOW)[0].record.id == bo  # Bo's words match the question best
    hits = mem.recall(ROOM, query, k=2, now=NOW)
    assert hits[0].record.id == ann and hits[0].record.source.speaker == "Ann"


def test_a_source_may_name_its_user_or_agent_and_round_trips() -> None:
    for text, speaker in [("user:Ann", "Ann"), ("agent:planner", "planner"), ("user", None), ("tool:calendar", None)]:
        source = Source.parse(text)
        assert str(source) == text and source.speaker == speaker
    assert (
        Source.parse("user:Ann").kind is SourceKind.USER
        and Source.parse("user:Ann").trust == Source.parse("user").trust
    )


@pytest.mark.parametrize(("text", "message"), [("user:", "empty"), ("user: ", "empty"), ("system:x", "takes no")])
def test_a_bad_name_in_a_source_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Source.parse(text)
