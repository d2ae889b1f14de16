"""Fact extraction: the rule extractor, the LLM extractor over a real local HTTP fake, and the write path."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import fake_openai
from fake_openai import FakeOpenAI
from tiermem.embed import HashingEmbedder, MiniLMEmbedder
from tiermem.errors import ValidationError
from tiermem.llm import LLMError, OpenAIChatClient
from tiermem.memory import Memory
from tiermem.types import MemoryType, Scope
from tiermem.write.extract import (
    EXTRACTION_PROMPT,
    ExtractedFact,
    Extractor,
    FactKind,
    LLMExtractor,
    RuleExtractor,
    extract_and_remember,
)
from tiermem.write.path import NewMemory, WriteResult, WriteStatus

fake = fake_openai.fixture("fake")
DANA = Scope("acme", "dana")

TRIP_PLANNING = [
    ("user", "Hi! My name is Dana Whitfield and I need help planning some trips."),
    ("assistant", "Nice to meet you, Dana! I love planning trips. Where do you usually fly from?"),
    ("user", "I live in Austin, so my home airport is AUS. Oh, and I always prefer aisle seats."),
    ("assistant", "Got it. I'm a travel assistant and I will remember that."),
    (
        "user",
        "Great. By the way, my dog is called Pepper, and she stays with my sister in Round Rock when I travel. "
        "My sister says I should visit Portland.",
    ),
    ("assistant", "Pepper is a lovely name! Do you want me to look for pet-friendly hotels?"),
    (
        "user",
        "No thanks. Can you find me a flight to Denver? I'm going to Denver for a conference next month. "
        "What's the weather like there in March?",
    ),
    ("assistant", "Sure, here are three options. I'd pick the morning one."),
    (
        "user",
        "Well, I don't like red-eye flights. If I had more time I would take the train. I wish I lived closer "
        "to the coast. I'm a nurse, so my schedule is all over the place. I'm a bit tired today, lol.",
    ),
    ("user", "I love it! Thanks, that's all for now!"),
]
TRIP_FACTS = [
    ("My name is Dana Whitfield.", FactKind.IDENTITY, 0),
    ("I live in Austin.", FactKind.LOCATION, 2),
    ("My home airport is AUS.", FactKind.LOCATION, 2),
    ("I always prefer aisle seats.", FactKind.PREFERENCE, 2),
    ("My dog is called Pepper.", FactKind.RELATION, 4),
    ("My dog stays with my sister in Round Rock when I travel.", FactKind.RELATION, 4),
    ("I'm going to Denver for a conference next month.", FactKind.PLAN, 6),
    ("I don't like red-eye flights.", FactKind.PREFERENCE, 8),
    ("I'm a nurse.", FactKind.IDENTITY, 8),
]
MOVED = [
    ("user", "Quick update: I moved to Denver last month."),
    ("assistant", "Congratulations on the move!"),
    ("user", "Pepper loves the snow here."),
]


@pytest.fixture
def memory() -> Iterator[Memory]:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as opened:
        yield opened


def texts(messages: Sequence[tuple[str, str]]) -> list[str]:
    return [f.text for f in RuleExtractor().extract(messages)]


# -- the rule extractor --------------------------------------------------------------------------------------------


def test_rule_extractor_keeps_the_users_facts_of_a_conversation_and_nothing_else() -> None:
    facts = RuleExtractor().extract(TRIP_PLANNING)
    assert [(f.text, f.kind, f.source_message) for f in facts] == TRIP_FACTS
    assert {f.speaker for f in facts} == {"user"}
    assert all(0.5 <= f.confidence <= 1.0 for f in facts)


def test_assistant_turns_are_ignored_even_when_they_speak_in_the_first_person() -> None:
    assert texts([("assistant", "I live in Austin. My name is Ada. I love jazz.")]) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I don't like olives.", "I don't like olives."),
        ("I never eat pork.", "I never eat pork."),
        ("I'm not a fan of crowds.", "I'm not a fan of crowds."),
        ("If I lived in Denver I would ski every weekend.", None),
        ("I wish I had a cat.", None),
        ("Maybe I'll move to Lisbon.", None),
        ("I'd like a window seat for this flight.", None),
        ("My sister says she loves Paris.", None),
        ("My boss told me I'm going to Tokyo.", None),
        ("Do I like sushi?", None),
        ("I live in Austin?", None),
        ("I love it!", None),
        ("I'm going to need a rental car.", None),
        ("I'll let you know.", None),
        ("I'm a bit tired today.", None),
        ("It's raining here.", None),
    ],
)
def test_negations_are_kept_while_hypotheticals_questions_reports_and_reactions_are_skipped(
    said: str, kept: str | None
) -> None:
    assert texts([("user", said)]) == ([] if kept is None else [kept])


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Oh, well, by the way, I actually live in Austin, you know.", "I live in Austin."),
        ("Last month I moved to Denver.", "I moved to Denver last month."),
        ("Next week I'm flying to Boston to see my parents.", "I'm flying to Boston to see my parents next week."),
        ("When I travel, my dog stays with my parents.", "My dog stays with my parents when I travel."),
        ("i'm 34", "I'm 34 years old."),
        ("My name's Dana.", "My name is Dana."),
        ("I live in Austin, can you find flights from there?", "I live in Austin."),
        ("My favourite food is ramen :)", "My favourite food is ramen."),
    ],
)
def test_statements_are_rewritten_into_standalone_first_person_sentences(said: str, kept: str) -> None:
    assert texts([("user", said)]) == [kept]


def test_a_pronoun_after_a_relation_fact_stands_for_that_relation() -> None:
    said = "My sister Mia lives in Dallas. She's a dentist, and she loves climbing."
    assert texts([("user", said)]) == [
        "My sister Mia lives in Dallas.",
        "My sister is a dentist.",
        "My sister loves climbing.",
    ]


def test_one_sentence_may_hold_several_facts_of_different_kinds() -> None:
    said = "By the way I'm 29 years old and I live in Lisbon now, but I hate long layovers."
    facts = RuleExtractor().extract([("user", said)])
    assert [(f.text, f.kind) for f in facts] == [
        ("I'm 29 years old.", FactKind.IDENTITY),
        ("I live in Lisbon now.", FactKind.LOCATION),
        ("I hate long layovers.", FactKind.PREFERENCE),
    ]


def test_a_fact_repeated_later_in_the_conversation_is_extracted_once() -> None:
    facts = RuleExtractor().extract([("user", "I live in Austin."), ("user", "Oh, i live in austin.")])
    assert [(f.text, f.source_message) for f in facts] == [("I live in Austin.", 0)]


@pytest.mark.parametrize(
    "messages",
    [
        [("I live in Austin.", "user")],  # (text, role): the easy mistake
        [("system", "You are helpful.")],
        [("user",)],
        "I live in Austin.",
    ],
)
def test_messages_must_be_role_and_text_pairs(messages: Any) -> None:
    with pytest.raises(ValidationError, match="messages"):
        RuleExtractor().extract(messages)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"text": ""}, "text"),
        ({"text": "x" * 501}, "text"),
        ({"kind": "plan"}, "kind"),
        ({"source_message": -1}, "source_message"),
        ({"confidence": 1.5}, "confidence"),
    ],
)
def test_an_extracted_fact_validates_its_fields(kwargs: dict[str, Any], field: str) -> None:
    values: dict[str, Any] = {
        "text": "I live in Austin.",
        "kind": FactKind.LOCATION,
        "speaker": "user",
        "source_message": 0,
        "confidence": 0.9,
    }
    with pytest.raises(ValidationError) as info:
        ExtractedFact(**(values | kwargs))
    assert info.value.field == field


def test_both_extractors_satisfy_the_protocol() -> None:
    assert isinstance(RuleExtractor(), Extractor)
    assert isinstance(LLMExtractor(OpenAIChatClient("http://127.0.0.1:9/v1", "m")), Extractor)


# -- writing through the write path --------------------------------------------------------------------------------


class RecordingWriter:
    """Duck-types Memory.remember_keyed and keeps every batch."""

    def __init__(self) -> None:
        self.batches: list[tuple[Scope, list[NewMemory]]] = []

    def remember_keyed(self, scope: Scope, items: Sequence[NewMemory], keys: Sequence[str]) -> list[WriteResult]:
        self.batches.append((scope, list(items)))
        return []


def test_extract_and_remember_writes_every_candidate_in_one_batch_with_provenance() -> None:
    writer = RecordingWriter()
    extract_and_remember(writer, DANA, TRIP_PLANNING)
    [(scope, items)] = writer.batches
    assert scope == DANA
    assert [i.content for i in items] == [text for text, _, _ in TRIP_FACTS]
    assert {i.type for i in items} == {MemoryType.SEMANTIC}
    assert {i.source for i in items} == {"agent"}
    assert dict(items[1].metadata) == {
        "extracted_kind": "location",
        "source_message": 2,
        "confidence": 0.9,
        "extractor": "RuleExtractor",
    }


def test_a_conversation_without_facts_makes_no_write() -> None:
    writer = RecordingWriter()
    assert extract_and_remember(writer, DANA, [("user", "What time is it?")]) == []
    assert writer.batches == []


def test_reingesting_the_same_conversation_adds_zero_rows(memory: Memory) -> None:
    first = extract_and_remember(memory, DANA, TRIP_PLANNING)
    assert [r.status for r in first] == [WriteStatus.ADDED] * len(TRIP_FACTS)
    assert memory.store.count(DANA) == len(TRIP_FACTS)
    again = extract_and_remember(memory, DANA, TRIP_PLANNING)
    assert [r.status for r in again] == [WriteStatus.UNCHANGED] * len(TRIP_FACTS)
    assert [r.record.id for r in again] == [r.record.id for r in first]
    assert memory.store.count(DANA) == len(TRIP_FACTS)
    stored = memory.get(DANA, first[0].record.id)
    assert str(stored.source) == "agent"
    assert stored.metadata["extracted_kind"] == "identity"


def test_moving_supersedes_the_earlier_residence_through_the_real_write_path(minilm: MiniLMEmbedder) -> None:
    with Memory.open(":memory:", embedder=minilm) as memory:
        before = {r.record.content: r.record for r in extract_and_remember(memory, DANA, TRIP_PLANNING)}
        [moved] = extract_and_remember(memory, DANA, MOVED)
        austin = before["I live in Austin."]
        assert moved.status is WriteStatus.SUPERSEDED
        assert moved.record.content == "I moved to Denver last month."
        assert moved.superseded == (austin.id,)
        assert memory.get(DANA, austin.id).valid_to is not None  # closed, not deleted
        live = {r.content for r in memory.list(DANA).records}
        assert live == {text for text, _, _ in TRIP_FACTS} - {"I live in Austin."} | {moved.record.content}
        assert memory.recall(DANA, "where do I live?", k=1)[0].record.content == moved.record.content
        # The old conversation arriving again must not bring Austin back.
        again = extract_and_remember(memory, DANA, TRIP_PLANNING)
        assert {r.status for r in again} == {WriteStatus.UNCHANGED}
        assert memory.get(DANA, austin.id).valid_to is not None


def test_a_residence_said_again_in_a_new_conversation_is_current_again(minilm: MiniLMEmbedder) -> None:
    with Memory.open(":memory:", embedder=minilm) as memory:
        extract_and_remember(memory, DANA, [("user", "I live in Austin.")])
        [moved] = extract_and_remember(memory, DANA, MOVED)
        extract_and_remember(memory, DANA, [("user", "I live in Austin.")])  # the same conversation: a replay
        assert memory.recall(DANA, "where do I live?", k=1)[0].record.id == moved.record.id
        [back] = extract_and_remember(memory, DANA, [("user", "Hello again."), ("user", "I live in Austin.")])
        assert back.status is WriteStatus.SUPERSEDED and back.superseded == (moved.record.id,)
        assert memory.recall(DANA, "where do I live?", k=1)[0].record.content == "I live in Austin."


# -- the LLM extractor over loopback HTTP --------------------------------------------------------------------------

SHORT = [
    ("user", "I'm Dana, I live in Austin and my dog Pepper hates thunderstorms."),
    ("assistant", "Noted! I live in the cloud myself."),
    ("user", "Could you find me a vet near home?"),
]


def extractor(server: FakeOpenAI, **kwargs: Any) -> LLMExtractor:
    return LLMExtractor(OpenAIChatClient(server.base_url, "fake-model", api_key="sk-test"), **kwargs)


def reply_facts(server: FakeOpenAI, facts: list[Any]) -> None:
    server.reply(json.dumps({"facts": facts}))


def test_llm_extractor_sends_the_documented_prompt_and_returns_the_facts(fake: FakeOpenAI) -> None:
    reply_facts(
        fake,
        [
            {"text": "I live in Austin.", "kind": "location", "source_message": 0, "confidence": 0.95},
            {"text": "My dog Pepper hates thunderstorms.", "kind": "relation", "source_message": 0, "confidence": 0.8},
        ],
    )
    facts = extractor(fake).extract(SHORT)
    assert facts == [
        ExtractedFact("I live in Austin.", FactKind.LOCATION, "user", 0, 0.95),
        ExtractedFact("My dog Pepper hates thunderstorms.", FactKind.RELATION, "user", 0, 0.8),
    ]
    [request] = fake.chat_requests
    system, user = request.body["messages"]
    assert system["role"] == "system" and system["content"].startswith(EXTRACTION_PROMPT)
    assert "At most 30 facts." in user["content"]
    transcript = json.loads(user["content"].split("\n\n", 1)[1])
    assert transcript[1] == {"index": 1, "role": "assistant", "text": SHORT[1][1]}


def test_llm_extractor_drops_and_counts_malformed_items(fake: FakeOpenAI) -> None:
    good = {"text": "I live in Austin.", "kind": "location", "source_message": 0, "confidence": 0.9}
    reply_facts(
        fake,
        [
            good,
            "I live in Austin.",  # not an object
            {**good, "text": ""},
            {**good, "text": "x" * 501},
            {**good, "text": 42},
            {**good, "source_message": 3},  # out of range
            {**good, "source_message": True},
            {**good, "source_message": "0"},
            {**good, "text": "I live in the cloud.", "source_message": 1},  # the assistant's words
            {**good, "confidence": "high"},
            {**good, "confidence": None},
            {**good, "text": "I live in austin."},  # a repeat
            {"text": "I collect stamps.", "kind": "hobby", "source_message": 0, "confidence": 1.7},
            {"text": "My name is Dana.", "kind": ["identity"], "source_message": 0.0, "confidence": -0.2},
        ],
    )
    llm = extractor(fake)
    facts = llm.extract(SHORT)
    assert facts == [
        ExtractedFact("I live in Austin.", FactKind.LOCATION, "user", 0, 0.9),
        ExtractedFact("I collect stamps.", FactKind.OTHER, "user", 0, 1.0),
        ExtractedFact("My name is Dana.", FactKind.OTHER, "user", 0, 0.0),
    ]
    assert llm.last_dropped == 11


def test_llm_extractor_keeps_at_most_max_facts_and_counts_the_rest(fake: FakeOpenAI) -> None:
    reply_facts(
        fake, [{"text": f"I own {n} bikes.", "kind": "other", "source_message": 0, "confidence": 1} for n in range(5)]
    )
    llm = extractor(fake, max_facts=2)
    assert [f.text for f in llm.extract(SHORT)] == ["I own 0 bikes.", "I own 1 bikes."]
    assert llm.last_dropped == 3
    assert "At most 2 facts." in fake.chat_requests[0].body["messages"][1]["content"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Sure! Dana lives in Austin.", "not a JSON object"),
        ('{"fact": []}', "lacks the keys facts"),
        ('{"facts": "I live in Austin."}', "not a list"),
    ],
)
def test_llm_extractor_raises_llm_error_on_a_reply_that_is_not_the_asked_for_json(
    fake: FakeOpenAI, reply: str, expected: str
) -> None:
    fake.reply(reply)
    with pytest.raises(LLMError, match=expected):
        extractor(fake).extract(SHORT)


def test_llm_transport_errors_propagate_as_llm_error(fake: FakeOpenAI) -> None:
    fake.fail(400, "model not found")
    with pytest.raises(LLMError, match="HTTP 400"):
        extractor(fake).extract(SHORT)


def test_llm_extractor_makes_no_call_when_the_user_said_nothing(fake: FakeOpenAI) -> None:
    assert extractor(fake).extract([("assistant", "Hello! How can I help?")]) == []
    assert fake.requests == []


def test_llm_extractor_refuses_a_bad_max_facts() -> None:
    with pytest.raises(ValidationError, match="max_facts"):
        LLMExtractor(OpenAIChatClient("http://127.0.0.1:9/v1", "m"), max_facts=0)


def test_llm_facts_go_through_the_same_write_path(fake: FakeOpenAI, memory: Memory) -> None:
    facts = [{"text": "I live in Austin.", "kind": "location", "source_message": 0, "confidence": 0.9}]
    reply_facts(fake, facts)
    reply_facts(fake, facts)
    llm = extractor(fake)
    [first] = extract_and_remember(memory, DANA, SHORT, llm)
    assert first.status is WriteStatus.ADDED
    assert first.record.metadata["extractor"] == "LLMExtractor"
    [again] = extract_and_remember(memory, DANA, SHORT, llm)
    assert again.status is WriteStatus.UNCHANGED
    assert memory.store.count(DANA) == 1
