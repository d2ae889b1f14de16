"""Two Agents on one session (one process here; ``test_chat_across_servers`` runs two server processes): each
turn starts from the stored window, a turn of the session while another runs is refused before it writes
anything (the session's turn lease), a lease its process never released is taken over once it expired, and an
erase reaches an Agent that still holds the erased user's messages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tiermem.agent.loop import Agent
from tiermem.context.budget import ContextBudget
from tiermem.context.lease import TURN_LEASE
from tiermem.errors import ConflictError, LLMError, StoreError, TurnLostError, ValidationError
from tiermem.llm import ChatMessage, ScriptedClient, ToolCall
from tiermem.memory import Memory
from tiermem.tokens import TiktokenCounter
from tiermem.types import Scope

SCOPE = Scope("acme", "maya", "atlas", "s1")
BUDGET = ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250)
COUNTER = TiktokenCounter("o200k_base")


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    memory = Memory.open(tmp_path / "shared.db", embedder="hash")
    yield memory
    memory.close()


def _agent(mem: Memory, llm: Any, lease: timedelta = TURN_LEASE) -> Agent:
    return Agent(mem, SCOPE, llm, BUDGET, system_prompt="You are Atlas.", counter=COUNTER, lease=lease)


def _said(prompt: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in prompt if m["role"] == "user"]


def _window(mem: Memory) -> list[str]:
    state = mem.store.load_context_window(SCOPE)  # type: ignore[attr-defined]
    found = mem.store.get_many(SCOPE, list(state.message_ids))
    return [found[i].content for i in state.message_ids if i in found]


def test_two_agents_on_one_session_see_each_others_turns(mem: Memory) -> None:
    one = ScriptedClient([ChatMessage.assistant("Noted Lisbon."), ChatMessage.assistant("Noted May.")])
    two = ScriptedClient([ChatMessage.assistant("Noted the aisle seat.")])
    first, second = _agent(mem, one), _agent(mem, two)
    first.step("I fly to Lisbon")
    second.step("I want an aisle seat")
    first.step("in May")
    assert _said(one.calls[-1]) == ["I fly to Lisbon", "I want an aisle seat", "in May"]
    assert _window(mem) == [
        "I fly to Lisbon",
        "Noted Lisbon.",
        "I want an aisle seat",
        "Noted the aisle seat.",
        "in May",
        "Noted May.",
    ]


def test_a_turn_of_another_agent_while_one_runs_is_refused_having_written_nothing(mem: Memory) -> None:
    other = _agent(mem, ScriptedClient([ChatMessage.assistant("Noted the hotel.")]))
    refused: list[ConflictError] = []

    def while_thinking(prompt: list[dict[str, Any]]) -> ChatMessage:
        try:
            other.step("book the harbour hotel")  # the other Agent's turn arrives while this one waits for its model
        except ConflictError as exc:
            refused.append(exc)
        return ChatMessage.assistant("Noted the train.")

    slow = _agent(mem, ScriptedClient([while_thinking]))
    slow.step("book the night train")
    assert len(refused) == 1 and "session 's1'" in str(refused[0])
    assert _window(mem) == ["book the night train", "Noted the train."]
    assert not [h for h in mem.recall(SCOPE, "harbour hotel", k=5) if "harbour" in h.record.content]
    assert not [e for e in mem.store.audit(SCOPE) if e.op == "forget"]  # nothing was written to be undone
    other.step("book the harbour hotel")  # once the running turn ended
    assert _said(other.llm.calls[-1]) == ["book the night train", "book the harbour hotel"]  # type: ignore[attr-defined]


def test_a_lease_left_by_a_process_that_died_refuses_turns_until_it_expires(mem: Memory) -> None:
    store = mem.store
    assert store.acquire_turn_lease(SCOPE, "died", duration=timedelta(seconds=1))  # type: ignore[attr-defined]
    llm = ScriptedClient([ChatMessage.assistant("Noted.")])
    agent = _agent(mem, llm)
    with pytest.raises(ConflictError, match="session 's1'"):
        agent.step("hello")
    assert llm.calls == [] and mem.store.count(SCOPE) == 0
    time.sleep(1.1)
    assert agent.step("hello").reply == "Noted."
    assert _window(mem) == ["hello", "Noted."]


def test_a_turn_ends_its_lease_when_it_fails(mem: Memory) -> None:
    def broken(prompt: list[dict[str, Any]]) -> ChatMessage:
        raise LLMError("the model is down")

    with pytest.raises(LLMError):
        _agent(mem, ScriptedClient([broken])).step("hello")
    assert _agent(mem, ScriptedClient([ChatMessage.assistant("Hi.")])).step("hello again").reply == "Hi."


def test_a_turn_whose_lease_another_took_over_writes_no_more(mem: Memory) -> None:
    def calls_a_tool(prompt: list[dict[str, Any]]) -> ChatMessage:
        store: Any = mem.store  # another turn takes the session, as one would from a process that lost its lease
        with store.keys_transaction("acme") as conn:
            assert conn.execute(f"UPDATE turn_leases SET holder = {store.MARK}", ["next"]).rowcount == 1
        return ChatMessage.assistant("", (ToolCall("c1", "conversation_search", '{"query": "train"}'),))

    slow = _agent(mem, ScriptedClient([calls_a_tool, ChatMessage.assistant("Noted.")]))
    with pytest.raises(TurnLostError, match="stalled past its lease"):
        slow.step("book the night train")
    # Its message stays (the taker may have shown it), as a dead process's would; nothing after it is written.
    assert _window(mem) == ["book the night train"] and mem.store.count(SCOPE) == 1


def test_an_agent_holding_an_erased_users_messages_sends_none_of_them(mem: Memory) -> None:
    llm = ScriptedClient([ChatMessage.assistant("Noted."), ChatMessage.assistant("Hello.")])
    agent = _agent(mem, llm)
    agent.step("my passport number is X1234567")
    mem.erase("acme", "maya")
    agent.step("hello")
    assert "X1234567" not in str(llm.calls[-1])
    assert _window(mem) == ["hello", "Hello."]


def test_an_agent_holding_a_forgotten_message_sends_it_no_more(mem: Memory) -> None:
    llm = ScriptedClient([ChatMessage.assistant("Noted."), ChatMessage.assistant("Hello.")])
    agent = _agent(mem, llm)
    agent.step("my passport number is X1234567")
    (said,) = [r for r in agent.context.record_ids if "X1234567" in mem.get(SCOPE, r).content]
    mem.forget(SCOPE, said)
    agent.step("hello")
    assert "X1234567" not in str(llm.calls[-1])
    assert _window(mem) == ["Noted.", "hello", "Hello."]


def test_a_message_forgotten_while_a_turn_runs_leaves_the_window_and_the_turn_stands(mem: Memory) -> None:
    def while_thinking(prompt: list[dict[str, Any]]) -> ChatMessage:
        (said,) = [r for r in agent.context.record_ids if "X1234567" in mem.get(SCOPE, r).content]
        mem.forget(SCOPE, said)  # renews the window's revision: not another turn, so this one is not refused
        return ChatMessage.assistant("Hello.")

    agent = _agent(mem, ScriptedClient([ChatMessage.assistant("Noted."), while_thinking]))
    agent.step("my passport number is X1234567")
    agent.step("hello")
    assert _window(mem) == ["Noted.", "hello", "Hello."]
    assert [m.content for m in agent.context.messages] == ["Noted.", "hello", "Hello."]


@pytest.mark.parametrize("steps", [1, 2])
def test_a_turn_running_when_its_user_is_erased_is_undone_and_writes_nothing_back(mem: Memory, steps: int) -> None:
    def erased_meanwhile(prompt: list[dict[str, Any]]) -> ChatMessage:
        mem.erase("acme", "maya")  # the turn's lease and window go with the user
        if steps == 1:
            return ChatMessage.assistant("Noted the train.")
        return ChatMessage.assistant("", (ToolCall("c1", "conversation_search", '{"query": "train"}'),))

    agent = _agent(mem, ScriptedClient([erased_meanwhile, ChatMessage.assistant("Noted.")]))
    with pytest.raises(ConflictError, match="session 's1'"):
        agent.step("book the night train")
    assert mem.store.count(SCOPE) == 0
    assert agent.step("hello").reply == "Noted."
    assert _window(mem) == ["hello", "Noted."]


def test_a_lease_the_store_failed_to_release_keeps_the_answer_and_ends_at_its_expiry(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(scope: Scope, holder: str) -> None:
        raise StoreError("the database went away")

    monkeypatch.setattr(mem.store, "release_turn_lease", unreachable)
    short = timedelta(seconds=1)
    first = Agent(mem, SCOPE, ScriptedClient([ChatMessage.assistant("Noted.")]), BUDGET, system_prompt="", lease=short)
    assert first.step("hello").reply == "Noted."
    monkeypatch.undo()
    second = _agent(mem, ScriptedClient([ChatMessage.assistant("Hi again.")]))
    with pytest.raises(ConflictError):
        second.step("hello again")
    time.sleep(1.1)
    assert second.step("hello again").reply == "Hi again."


def test_a_lease_must_be_a_timedelta_of_at_least_a_second(mem: Memory) -> None:
    for lease in (timedelta(0), timedelta(milliseconds=3), timedelta(seconds=0.9), 30):
        with pytest.raises(ValidationError, match="lease"):
            Agent(mem, SCOPE, ScriptedClient([]), BUDGET, system_prompt="", lease=lease)  # type: ignore[arg-type]
    Agent(mem, SCOPE, ScriptedClient([]), BUDGET, system_prompt="", lease=timedelta(seconds=1))
