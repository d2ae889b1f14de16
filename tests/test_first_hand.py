"""First hand: a question about the user ranks the user's own words above the agent's echo of them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.english.statements import about_the_user
from tiermem.recall.search import RecallPolicy, rank
from tiermem.store.base import Candidate
from tiermem.types import Hit, MemoryType

ALICE = Scope("acme", "alice")
NOW = datetime(2025, 1, 1, tzinfo=UTC)
EPISODIC = MemoryType.EPISODIC


def _setup(mem: Memory, echo_type: MemoryType = EPISODIC, echo_source: str = "agent") -> tuple[str, str, list[str]]:
    """The user's turn and another's reply echoing it, among filler; returns (own id, echo id, filler ids)."""
    own, echo, *filler = mem.remember_many(
        ALICE,
        [
            NewMemory("My morning run is eight kilometres along the canal.", type=EPISODIC, source="user"),
            NewMemory("With an eight-kilometre canal run, breakfast fits later.", type=echo_type, source=echo_source),
            *(NewMemory(f"filler note number {i}", type=EPISODIC, source="agent", dedupe=False) for i in range(20)),
        ],
    )
    return own.record.id, echo.record.id, [r.record.id for r in filler]


def _ranked(mem: Memory, query: str, own: str, echo: str, filler: list[str], policy: RecallPolicy) -> list[Hit]:
    # The echo leads both lists and the user's own turn is 15th in each (below the agent's filler): far enough
    # apart that trust (user 0.9, agent 0.7) alone keeps the echo first.
    listed = [echo, *filler[:13], own, *filler[13:]]
    cands = [Candidate(rid, 1.0 / place) for place, rid in enumerate(listed, start=1)]
    lists = policy.fusion().lists(keyword=cands, vector=cands)
    return rank(mem.store, ALICE, lists, k=5, now=NOW, policy=policy, query=query)


def _order(hits: list[Hit]) -> list[str]:
    return [h.record.id for h in hits]


def test_question_about_the_user_ranks_their_own_turn_above_the_agents_echo(mem: Memory) -> None:
    own, echo, filler = _setup(mem)
    query = "How long is my morning run?"
    assert _order(_ranked(mem, query, own, echo, filler, RecallPolicy(first_hand_weight=1.0)))[0] == echo
    hits = _ranked(mem, query, own, echo, filler, RecallPolicy())
    assert _order(hits)[0] == own
    by_id = {h.record.id: h for h in hits}
    assert by_id[echo].part("first_hand").contribution == pytest.approx(0.8)  # type: ignore[union-attr]
    assert by_id[own].part("first_hand").contribution == 1.0  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "query",
    [
        "How long is Ana's morning run?",  # about someone else
        "What did you recommend for my morning run?",  # about what the agent said
        "In our previous chat, which breakfast fits after my morning run?",  # about the conversation, both sides
    ],
)
def test_question_not_about_the_user_alone_is_not_reordered(mem: Memory, query: str) -> None:
    own, echo, filler = _setup(mem)
    hits = _ranked(mem, query, own, echo, filler, RecallPolicy())
    assert _order(hits)[0] == echo
    assert all(h.part("first_hand") is None for h in hits)


@pytest.mark.parametrize(("echo_type", "echo_source"), [(MemoryType.SEMANTIC, "agent"), (EPISODIC, "user")])
def test_facts_and_the_users_own_records_keep_their_score(mem: Memory, echo_type: MemoryType, echo_source: str) -> None:
    own, echo, filler = _setup(mem, echo_type, echo_source)
    hits = _ranked(mem, "How long is my morning run?", own, echo, filler, RecallPolicy())
    assert _order(hits)[0] == echo
    assert hits[0].part("first_hand").contribution == 1.0  # type: ignore[union-attr]


def test_recall_explains_the_first_hand_part(mem: Memory) -> None:
    _setup(mem)
    hits = mem.recall(ALICE, "How long is my canal run?", k=2)
    assert {h.record.source.kind.value for h in hits} == {"user", "agent"}
    assert hits[0].record.source.kind.value == "user"
    assert all(h.part("first_hand") is not None for h in hits)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How many music albums have I purchased?", True),
        ("Could you suggest a few stretches I can do at my desk?", True),
        ("I'm a little nervous about my first sailing lesson. Any advice?", True),
        ("What is my dog's name?", True),
        ("What did Marta study?", False),
        ("Could you tell me again which bakery you suggested?", False),
        ("I remember you told me about a book, what was it?", False),
        ("Where did you say I should go?", False),
        ("I'm checking our previous chat about the shift rotation. Who works on Sunday?", False),
        ("What was your suggestion for my trip?", False),
        ("What was your earlier suggestion for my trip?", False),
        ("What did the assistant tell me about my trip?", False),
        ("Remind me what we discussed about my diet.", False),
        ("Which shoes had you'd recommended for my morning run?", False),
        ("You were telling me about a hotel for my trip, which one?", False),
        ("What did you advise me to do?", False),
    ],
)
def test_about_the_user_reads_first_person_questions(question: str, expected: bool) -> None:
    assert about_the_user(question) is expected


def test_a_tool_event_keeps_its_score(mem: Memory) -> None:
    _, echo, _ = _setup(mem, EPISODIC, "tool:booking")
    hit = next(h for h in mem.recall(ALICE, "How long is my canal run?", k=5) if h.record.id == echo)
    assert hit.part("first_hand").contribution == 1.0  # type: ignore[union-attr]


def test_a_first_hand_lift_reaches_past_the_short_list(mem: Memory) -> None:
    # The user's turn is 26th in both lists, below 25 of the agent's: first hand lifts it into the top 5, so the
    # re-scored list must reach that far whatever k is.
    own, *agents = mem.remember_many(
        ALICE,
        [
            NewMemory("My morning run is eight kilometres.", type=EPISODIC, source="user"),
            *(NewMemory(f"agent reply number {i}", type=EPISODIC, source="agent", dedupe=False) for i in range(25)),
        ],
    )
    listed = [r.record.id for r in agents] + [own.record.id]
    cands = [Candidate(rid, 1.0 / place) for place, rid in enumerate(listed, start=1)]
    for k in (5, 10):
        lists = RecallPolicy().fusion().lists(keyword=cands, vector=cands)
        hits = rank(mem.store, ALICE, lists, k=k, now=NOW, query="my morning run?")
        assert own.record.id in _order(hits)
