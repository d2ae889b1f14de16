"""Memory.remember_messages: a conversation written with its speakers, times, sessions and context, once."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tiermem import Memory, Message, Scope, ValidationError, WriteStatus
from tiermem.context.messages import message_from_record
from tiermem.embed import HashingEmbedder, Vectors
from tiermem.write.path import MAX_CONTENT_CHARS

MON = datetime(2024, 3, 4, 18, 0, tzinfo=UTC)
TUE = MON + timedelta(days=1)
WED = MON + timedelta(days=2, hours=-9)
SCOPE = Scope("acme", "garden")

MONDAY = [
    {"role": "user", "name": "Ann", "content": "I planted the tomatoes.", "created_at": MON},
    {"role": "user", "name": "Bob", "content": "Nice, the soil looks good.", "created_at": MON.isoformat()},
]
TUESDAY = [
    {"role": "user", "name": "Bob", "content": "Ann, I planted the peppers by the shed.", "created_at": TUE},
    {"role": "user", "name": "Ann", "content": "Great, and I planted the beans along the fence.", "created_at": TUE},
]
QUESTION = "What did Ann plant on March 5?"


class CountingEmbedder(HashingEmbedder):
    """Counts embedding batches."""

    def __init__(self) -> None:
        super().__init__()
        self.batches = 0

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.batches += 1
        return super().embed_batch(texts)


@pytest.fixture
def memory() -> Iterator[Memory]:
    with Memory.open(":memory:", embedder=CountingEmbedder()) as opened:
        yield opened


def stored(memory: Memory, scope: Scope = SCOPE) -> list[str]:
    """The contents of the scope's records, oldest first."""
    return [r.content for r in reversed(memory.list(scope, limit=1000).records)]


def turn(text: str, *, name: str = "Ann", at: datetime = TUE) -> dict[str, Any]:
    return {"role": "user", "name": name, "content": text, "created_at": at}


def test_a_named_speaker_on_a_named_day_is_answered_only_through_remember_messages(memory: Memory) -> None:
    plain = Scope("acme", "plain")
    for message in MONDAY + TUESDAY:  # what a caller without the messages API writes
        memory.remember(plain, f"{message['name']}: {message['content']}", type="episodic", source="user")
    memory.remember_messages(SCOPE, MONDAY, session="monday")
    memory.remember_messages(SCOPE, TUESDAY, session="tuesday")
    answer = "Ann: Great, and I planted the beans along the fence."
    top = memory.recall(SCOPE, QUESTION, k=3, now=WED)
    assert top[0].record.content == answer
    assert top[0].part("named_day") is not None and top[0].part("speaker") is not None
    # Plain records carry neither the speaker (source) nor the day said (valid_from is the write time).
    assert memory.recall(plain, QUESTION, k=3)[0].record.content != answer
    assert [h.record.content for h in memory.recall(plain, QUESTION, k=3, now=WED)][:1] != [answer]


def test_each_message_is_an_episodic_record_with_speaker_time_session_and_context(memory: Memory) -> None:
    memory.remember_messages(SCOPE, TUESDAY, session="tuesday")
    first, second = (memory.recall(SCOPE, text, k=1, now=WED)[0].record for text in ("peppers shed", "beans fence"))
    assert (str(second.source), second.type.value, second.valid_from) == ("user:Ann", "episodic", TUE)
    assert second.scope == Scope("acme", "garden", session="tuesday")
    assert second.context == "Bob: Ann, I planted the peppers by the shed."  # the turn before it
    assert first.context is None  # a session's first turn
    assert set(second.tags) == {"recall", "role:user"}
    assert message_from_record(second).content == TUESDAY[1]["content"]  # the name prefix is for search only


def test_a_batch_is_embedded_once(memory: Memory) -> None:
    embedder = memory.embedder
    assert isinstance(embedder, CountingEmbedder)
    memory.remember_messages(SCOPE, MONDAY + TUESDAY)
    assert embedder.batches == 1


def test_reingesting_a_transcript_adds_nothing(memory: Memory) -> None:
    first = memory.remember_messages(SCOPE, MONDAY, session="monday")
    again = memory.remember_messages(SCOPE, MONDAY, session="monday")
    assert [r.status for r in first] == [WriteStatus.ADDED] * 2
    assert [r.status for r in again] == [WriteStatus.UNCHANGED] * 2
    assert [r.record.id for r in again] == [r.record.id for r in first]
    assert len(stored(memory)) == 2
    assert len(memory.audit(SCOPE)) == 2  # the second pass wrote nothing at all


def test_appending_turns_adds_exactly_the_new_turns_with_the_turn_before_as_context(memory: Memory) -> None:
    transcript = [turn("ok"), turn("The beans need water.", name="Bob")]
    memory.remember_messages(SCOPE, transcript, session="s1")
    longer = [*transcript, turn("ok"), turn("I will water them tonight.")]  # "ok" again is a new turn
    results = memory.remember_messages(SCOPE, longer, session="s1")
    assert [r.status for r in results] == [WriteStatus.UNCHANGED] * 2 + [WriteStatus.ADDED] * 2
    assert stored(memory) == ["Ann: ok", "Bob: The beans need water.", "Ann: ok", "Ann: I will water them tonight."]
    assert results[2].record.context == "Bob: The beans need water."


def test_sending_only_the_new_turns_takes_the_first_ones_context_from_the_stored_session(memory: Memory) -> None:
    memory.remember_messages(SCOPE, [turn("Where is the hose?"), turn("Behind the shed.", name="Bob")], session="s1")
    (added,) = memory.remember_messages(SCOPE, [turn("Found it, thanks.")], session="s1")
    assert added.status is WriteStatus.ADDED
    assert added.record.context == "Bob: Behind the shed."
    (other,) = memory.remember_messages(SCOPE, [turn("A new day.")], session="s2")
    assert other.record.context is None  # another session's turns are not its context


@pytest.mark.parametrize(
    ("bad", "field", "problem"),
    [
        ({"content": "no role"}, "messages[1].role", "is missing"),
        ({"role": "robot", "content": "beep"}, "messages[1].role", "must be one of user, assistant, tool, system"),
        ({"role": "user", "content": "   "}, "messages[1].content", "must not be empty"),
        ({"role": "user", "content": "hi", "created_at": "last Tuesday"}, "messages[1].created_at", "ISO 8601"),
        ({"role": "user", "content": "hi", "created_at": "2024-03-05T10:00:00"}, "messages[1].created_at", "offset"),
        ({"role": "user", "content": 42}, "messages[1].content", "must be a string"),
        ({"role": "user", "content": "hi", "metadata": {"role": "x"}}, "messages[1].metadata", "'role' is set"),
        ("just text", "messages[1]", "must be a mapping"),
    ],
)
def test_a_bad_message_is_rejected_naming_its_index_and_field_and_nothing_is_stored(
    memory: Memory, bad: object, field: str, problem: str
) -> None:
    memory.remember_messages(SCOPE, [turn("Already here.")])
    with pytest.raises(ValidationError) as caught:
        memory.remember_messages(SCOPE, [turn("Fine."), bad, turn("Also fine.")])
    assert caught.value.field == field
    assert problem in str(caught.value)
    assert stored(memory) == ["Ann: Already here."]


def test_messages_must_be_a_list(memory: Memory) -> None:
    with pytest.raises(ValidationError, match="messages: must be a list"):
        memory.remember_messages(SCOPE, turn("one message, not a list"))  # type: ignore[arg-type]


def test_a_tool_result_carries_tool_trust(memory: Memory) -> None:
    results = memory.remember_messages(
        SCOPE,
        [
            {"role": "user", "content": "What is the frost date?"},
            {"role": "tool", "name": "almanac", "tool_call_id": "c1", "content": "Last frost: 20 April."},
            {"role": "assistant", "content": "The last frost is around 20 April."},
        ],
    )
    sources = [(str(r.record.source), r.record.trust) for r in results]
    assert sources == [("user", 0.9), ("tool:almanac", 0.4), ("agent", 0.7)]


def test_message_values_are_written_like_dicts_and_keyed_by_their_id(memory: Memory) -> None:
    said = Message.user("The compost is ready.", name="Bob", created_at=MON)
    (first,) = memory.remember_messages(SCOPE, [said])
    (again,) = memory.remember_messages(SCOPE, [said])
    assert (first.status, again.status, again.record.id) == (WriteStatus.ADDED, WriteStatus.UNCHANGED, first.record.id)
    assert (first.record.content, str(first.record.source)) == ("Bob: The compost is ready.", "user:Bob")
    assert message_from_record(first.record) == said


def test_an_over_long_message_is_stored_in_parts(memory: Memory) -> None:
    words = "soil " * (MAX_CONTENT_CHARS // 5 + 100)
    results = memory.remember_messages(SCOPE, [{"role": "user", "content": words}])
    assert len(results) == 2
    assert [r.record.metadata["part"] for r in results] == [0, 1]
    assert memory.remember_messages(SCOPE, [{"role": "user", "content": words}])[1].status is WriteStatus.UNCHANGED


def test_a_session_other_than_the_scopes_is_rejected(memory: Memory) -> None:
    with pytest.raises(ValidationError, match="session: differs from the scope's session 'a'"):
        memory.remember_messages(Scope("acme", "garden", session="a"), [turn("hi")], session="b")


def test_the_same_transcript_in_two_scopes_is_two_sets_of_records(memory: Memory) -> None:
    mine = memory.remember_messages(SCOPE, MONDAY)
    theirs = memory.remember_messages(Scope("acme", "orchard"), MONDAY)
    assert {r.record.id for r in mine}.isdisjoint(r.record.id for r in theirs)
    assert len(stored(memory)) == 2


def test_a_continuation_takes_as_many_stored_turns_as_the_context_window(memory: Memory) -> None:
    memory.remember_messages(SCOPE, [turn("One."), turn("Two."), turn("Three.")], session="s1", context_turns=2)
    (added,) = memory.remember_messages(SCOPE, [turn("Four.")], session="s1", context_turns=2)
    assert added.record.context == "Ann: Two. Ann: Three."  # newlines normalised
    resent = memory.remember_messages(SCOPE, [turn("Three."), turn("Five.")], session="s1", context_turns=2)
    assert resent[1].record.context == "Ann: Three."  # what the batch holds; never a stored turn twice


def test_the_context_window_writes_through_the_same_path() -> None:
    from tiermem.context.budget import ContextBudget
    from tiermem.context.window import ContextManager
    from tiermem.store import open_store
    from tiermem.tokens import TiktokenCounter

    store = open_store(":memory:")
    memory = Memory(store, HashingEmbedder())
    scope = Scope("acme", "garden", "helper", "s1")
    budget = ContextBudget(window=1200, system=100, core=300, output_reserve=200, retrieval_reserve=200)
    ctx = ContextManager(store, memory, scope, budget=budget, counter=TiktokenCounter("o200k_base"))
    said = [Message.user("Where is the hose?", name="Ann", created_at=MON), Message.assistant("Behind the shed.")]
    for message in said:
        ctx.append(message)
    # Importing the same messages (say, from a log of the session) finds them already stored.
    again = memory.remember_messages(scope, said)
    assert [r.status for r in again] == [WriteStatus.UNCHANGED] * 2
    assert [r.record.id for r in again] == list(ctx.record_ids)
    assert (again[1].record.context, again[0].record.content) == ("Ann: Where is the hose?", "Ann: Where is the hose?")
    store.close()


def test_the_write_paths_own_limits_name_the_message_too(memory: Memory) -> None:
    too_much = {f"key{i}": "x" * 100 for i in range(100)}  # over the 8 KiB of metadata a record may carry
    with pytest.raises(ValidationError) as caught:
        memory.remember_messages(SCOPE, [turn("Fine."), {"role": "user", "content": "hi", "metadata": too_much}])
    assert caught.value.field == "messages[1].metadata"
    assert stored(memory) == []


def test_the_same_instant_in_another_offset_is_the_same_message(memory: Memory) -> None:
    memory.remember_messages(SCOPE, [{"role": "user", "content": "hi", "created_at": "2024-03-05T10:00:00+00:00"}])
    (again,) = memory.remember_messages(
        SCOPE, [{"role": "user", "content": "hi", "created_at": "2024-03-05T11:00:00+01:00"}]
    )
    assert again.status is WriteStatus.UNCHANGED
