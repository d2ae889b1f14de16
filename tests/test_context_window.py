"""The context window: paging oldest first, recall of evicted messages, restarts, summaries."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from context_window_helpers import COUNTER, SCOPE, SMALL, T0, VOCAB, call_and_result, manager, text
from tiermem.context.messages import (
    Message,
    Role,
)
from tiermem.context.summary import ExtractiveSummariser
from tiermem.context.window import ContextManager
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConfigError, ValidationError
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import TokenCounter
from tiermem.types import MemoryType


@pytest.fixture
def store() -> Iterator[StoreWithContext]:
    store = open_store(":memory:")
    yield store
    store.close()


# -- eviction ---------------------------------------------------------------------------------------------


def test_eviction_never_drops_the_newest_message(store: StoreWithContext) -> None:
    ctx = manager(store)
    for i in range(30):
        message = Message.user(text(i, 40))
        ctx.append(message)
        assert ctx.messages[-1] == message
        assert ctx.message_tokens <= SMALL.message_budget


def test_eviction_takes_the_oldest_messages_first(store: StoreWithContext) -> None:
    ctx = manager(store)
    sent = [Message.user(text(i, 30)) for i in range(20)]
    evicted: list[Message] = []
    for message in sent:
        evicted += ctx.append(message)
    assert evicted and evicted + list(ctx.messages) == sent


def test_a_message_alone_over_the_message_budget_is_refused_and_not_stored(store: StoreWithContext) -> None:
    ctx = manager(store)
    ctx.append(Message.user("hello there"))
    huge = Message.user(text(1, 500))
    with pytest.raises(ValidationError, match=r"costs \d+ tokens, more than the message budget 400") as caught:
        ctx.append(huge)
    assert caught.value.limit == 400
    assert [m.content for m in ctx.messages] == ["hello there"]
    assert store.count(SCOPE) == 1


def test_every_appended_message_is_an_episodic_recall_record(store: StoreWithContext) -> None:
    ctx = manager(store)
    ctx.append(Message.user("I live in Lisbon", created_at=T0))
    ctx.append(Message.assistant("Noted.", created_at=T0 + timedelta(seconds=1)))
    (user_id, assistant_id) = ctx.record_ids
    user = store.get(SCOPE, user_id)
    assistant = store.get(SCOPE, assistant_id)
    assert user is not None and assistant is not None
    assert (user.type, str(user.source), user.valid_from) == (MemoryType.EPISODIC, "user", T0)
    assert set(user.tags) == {"recall", "role:user"}
    assert user.metadata["message_id"] == ctx.messages[0].id
    assert (str(assistant.source), assistant.metadata["role"]) == ("agent", "assistant")


def test_a_named_speakers_message_is_recalled_with_their_name_as_its_source(store: StoreWithContext) -> None:
    ctx = manager(store)
    ctx.append(Message.user("I'll bring the tent", name="Ann", created_at=T0))
    ctx.append(Message.user("I'll bring the stove", created_at=T0))
    named, unnamed = (store.get(SCOPE, rid) for rid in ctx.record_ids)
    assert named is not None and unnamed is not None
    assert (str(named.source), named.source.speaker, str(unnamed.source)) == ("user:Ann", "Ann", "user")


def test_repeated_messages_are_separate_records(store: StoreWithContext) -> None:
    ctx = manager(store)
    ctx.append(Message.user("ok"))
    ctx.append(Message.user("ok"))
    assert len(set(ctx.record_ids)) == 2


# -- tool calls -------------------------------------------------------------------------------------------


def test_a_tool_result_is_evicted_together_with_its_call(store: StoreWithContext) -> None:
    ctx = manager(store)
    call, result = call_and_result(0, 60)
    ctx.append(call)
    ctx.append(result)
    evicted: list[Message] = []
    for i in range(1, 20):
        evicted += ctx.append(Message.user(text(i, 30)))
        assert not ctx.messages or ctx.messages[0].role is not Role.TOOL
    assert evicted[:2] == [call, result]


def test_a_tool_result_whose_call_is_not_in_the_window_is_refused(store: StoreWithContext) -> None:
    ctx = manager(store)
    with pytest.raises(ValidationError, match="answers no tool call") as caught:
        ctx.append(Message.tool("42", tool_call_id="call_x", name="calc"))
    assert caught.value.given == "call_x"


def test_a_tool_result_that_cannot_fit_beside_its_call_is_refused(store: StoreWithContext) -> None:
    ctx = manager(store)
    call, result = call_and_result(0, 380)
    ctx.append(call)
    with pytest.raises(ValidationError, match="with the tool call it answers"):
        ctx.append(result)


def test_tool_messages_keep_their_provenance(store: StoreWithContext) -> None:
    ctx = manager(store)
    call, result = call_and_result(7, 5)
    ctx.append(call)
    ctx.append(result)
    record = store.get(SCOPE, ctx.record_ids[1])
    assert record is not None and str(record.source) == "tool:lookup" and record.source.untrusted


# -- recall -----------------------------------------------------------------------------------------------


def test_recall_finds_every_evicted_message_by_text_and_by_time(store: StoreWithContext) -> None:
    ctx = manager(store)
    evicted: list[Message] = []
    for i in range(40):
        evicted += ctx.append(Message.user(text(i, 25), created_at=T0 + timedelta(minutes=i)))
    assert len(evicted) > 20
    for message in evicted:
        by_text = ctx.conversation_search(message.content.split()[0], k=3)
        assert message.id in [h.record.metadata["message_id"] for h in by_text]
        by_time = ctx.conversation_search(start=message.created_at, end=message.created_at)
        assert [h.record.metadata["message_id"] for h in by_time] == [message.id]


def test_a_paged_out_reply_is_found_by_the_message_it_answers(store: StoreWithContext) -> None:
    ctx = manager(store)
    ctx.append(Message.assistant("Did you finish the glassblowing workshop?", created_at=T0))
    ctx.append(Message.user("Yes, last Sunday!", created_at=T0 + timedelta(minutes=1)))
    hits = ctx.conversation_search("glassblowing workshop", roles=["user"], k=1)
    assert [h.record.content for h in hits] == ["Yes, last Sunday!"]
    assert hits[0].record.context == "Did you finish the glassblowing workshop?"


def test_conversation_search_filters_by_role_and_time_range(store: StoreWithContext) -> None:
    ctx = manager(store)
    for i in range(6):
        at = T0 + timedelta(hours=i)
        ctx.append(Message.user(f"user says kiwi {i}", created_at=at))
        ctx.append(Message.assistant(f"assistant says kiwi {i}", created_at=at + timedelta(minutes=1)))
    users = ctx.conversation_search("kiwi", roles=["user"], k=20)
    assert len(users) == 6 and {h.record.metadata["role"] for h in users} == {"user"}
    window = ctx.conversation_search("kiwi", start=T0 + timedelta(hours=2), end=T0 + timedelta(hours=3), k=20)
    assert sorted(h.record.content for h in window) == [
        "assistant says kiwi 2",
        "user says kiwi 2",
        "user says kiwi 3",
    ]
    latest = ctx.conversation_search(k=2)
    assert [h.record.content for h in latest] == ["user says kiwi 5", "assistant says kiwi 5"]


def test_conversation_search_rejects_unknown_roles(store: StoreWithContext) -> None:
    with pytest.raises(ValidationError, match="roles"):
        manager(store).conversation_search("x", roles=["boss"])


def test_conversation_search_ignores_other_records(store: StoreWithContext) -> None:
    ctx = manager(store)
    Memory(store, None).remember(SCOPE, "kiwi is a fruit", tags=["role:user"])
    ctx.append(Message.user("I like kiwi"))
    assert [h.record.content for h in ctx.conversation_search("kiwi")] == ["I like kiwi"]


def test_memory_facade_serves_as_the_recall_writer(store: StoreWithContext) -> None:
    mem = Memory(store, HashingEmbedder(dim=64))
    ctx = ContextManager(store, mem, SCOPE, budget=SMALL, counter=COUNTER)
    ctx.append(Message.user("my cat is called Miso"))
    assert mem.recall(SCOPE, "cat Miso")[0].record.metadata["role"] == "user"
    assert ctx.conversation_search("Miso")[0].record.content == "my cat is called Miso"


# -- restart ----------------------------------------------------------------------------------------------


def test_the_window_survives_a_process_restart(tmp_path: Path) -> None:
    path = tmp_path / "ctx.db"
    store = open_store(path)
    ctx = manager(store)
    ctx.core.define("human", limit=50)
    ctx.core.append("human", "Name: Alice")
    for i in range(15):
        ctx.append(Message.user(text(i, 30)))
    call, result = call_and_result(99, 5)
    ctx.append(call)
    ctx.append(result)
    code = Message.assistant("Use:\n\n```python\nprint('hi')\n```\n  indented")
    ctx.append(code)
    before, prompt = ctx.messages, ctx.compile()
    store.close()

    reopened = open_store(path)
    again = manager(reopened)
    assert again.messages == before
    assert again.messages[-1].content == code.content
    assert again.compile() == prompt
    reopened.close()


def test_a_forgotten_message_leaves_the_restored_window(tmp_path: Path) -> None:
    path = tmp_path / "ctx.db"
    store = open_store(path)
    ctx = manager(store)
    for i in range(3):
        ctx.append(Message.user(text(i, 5)))
    store.delete(SCOPE, [ctx.record_ids[1]])
    store.close()
    reopened = open_store(path)
    assert [m.content for m in manager(reopened).messages] == [text(0, 5), text(2, 5)]
    reopened.close()


# -- summary ----------------------------------------------------------------------------------------------


def test_evicted_facts_are_summarised_into_the_capped_summary_block(store: StoreWithContext) -> None:
    ctx = manager(store, summariser=ExtractiveSummariser())
    ctx.core.define("summary", limit=120)
    said = [
        "I moved to Lisbon in 2021 with my partner Ana.",
        "ok",
        "What time is it in Tokyo right now?",
        "My daughter Mia turns 7 in March.",
        "I work as a nurse at Santa Maria hospital.",
    ]
    evicted: list[Message] = []
    for line in said:
        evicted += ctx.append(Message.user(line))
    for i in range(12):  # long replies push everything the user said out of the window
        evicted += ctx.append(Message.assistant(text(i, 60)))
    assert [m.content for m in evicted[:5]] == said
    summary = ctx.core.get("summary").value
    assert COUNTER.count(summary) <= 120
    for fact in ("user: I moved to Lisbon in 2021", "user: My daughter Mia turns 7", "user: I work as a nurse"):
        assert fact in summary
    assert "Tokyo" not in summary and "user: ok" not in summary
    assert ctx.core.history("summary")[0].actor == "summariser"
    through = store.get(SCOPE, ctx.summary_through or "")
    assert through is not None and through.metadata["message_id"] == evicted[-1].id


def test_a_summariser_needs_a_summary_block(store: StoreWithContext) -> None:
    ctx = manager(store, summariser=ExtractiveSummariser())
    with pytest.raises(ConfigError, match="no core block 'summary'"):
        ctx.append(Message.user("hi"))
    assert store.count(SCOPE) == 0


class _Verbose:
    """A summariser that ignores its limit, as an LLM may."""

    def summarise(self, previous: str, evicted: Sequence[Message], *, limit: int, counter: TokenCounter) -> str:
        return "\n".join(f"- fact {i}: " + " ".join(VOCAB) for i in range(50))


class _Failing:
    """Fails on its first call, then reports which messages it was given."""

    def __init__(self) -> None:
        self.given: list[list[str]] = []

    def summarise(self, previous: str, evicted: Sequence[Message], *, limit: int, counter: TokenCounter) -> str:
        self.given.append([m.id for m in evicted])
        if len(self.given) == 1:
            raise RuntimeError("model timed out")
        return f"{len(evicted)} messages"


def test_an_overlong_summary_is_cut_to_the_block_cap(store: StoreWithContext) -> None:
    ctx = manager(store, summariser=_Verbose())
    ctx.core.define("summary", limit=80)
    for i in range(15):
        ctx.append(Message.user(text(i, 40)))
    value = ctx.core.get("summary").value
    assert value.endswith("fact 49: " + " ".join(VOCAB)) and COUNTER.count(value) <= 80


def test_a_failing_summariser_keeps_the_window_and_retries_later(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.db")
    failing = _Failing()
    ctx = manager(store, summariser=failing)
    ctx.core.define("summary", limit=50)
    with pytest.raises(RuntimeError):
        for i in range(30):
            ctx.append(Message.user(text(i, 40)))
    assert manager(store).record_ids == ctx.record_ids  # the evictions were saved despite the failure
    ctx.append(Message.user(text(100, 40)))
    missed, retried = failing.given
    assert retried[: len(missed)] == missed and len(retried) > len(missed)
    assert ctx.core.get("summary").value == f"{len(retried)} messages"
    store.close()
