"""Two Agents on one session (one process here; ``test_chat_across_servers`` runs two server processes): each
turn starts from the stored window, a turn whose window the other saved meanwhile is undone with a
ConflictError, and an erase reaches an Agent that still holds the erased user's messages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tiermem.agent.loop import Agent
from tiermem.context.budget import ContextBudget
from tiermem.errors import ConflictError
from tiermem.llm import ChatMessage, ScriptedClient
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


def _agent(mem: Memory, llm: Any) -> Agent:
    return Agent(mem, SCOPE, llm, BUDGET, system_prompt="You are Atlas.", counter=COUNTER)


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


def test_a_turn_whose_window_another_agent_saved_meanwhile_is_undone_with_a_conflict(mem: Memory) -> None:
    other = _agent(mem, ScriptedClient([ChatMessage.assistant("Noted the hotel.")]))

    def while_thinking(prompt: list[dict[str, Any]]) -> ChatMessage:
        other.step("book the harbour hotel")  # the other Agent's turn lands while this one waits for its model
        return ChatMessage.assistant("Noted the train.")

    slow = _agent(mem, ScriptedClient([while_thinking, ChatMessage.assistant("Noted the train.")]))
    with pytest.raises(ConflictError, match="session 's1'"):
        slow.step("book the night train")
    # Undone: its message is forgotten, and the window is the other turn's as stored.
    assert [m.content for m in slow.context.messages] == ["book the harbour hotel", "Noted the hotel."]
    assert not [h for h in mem.recall(SCOPE, "night train", k=5) if "night train" in h.record.content]
    slow.step("book the night train")
    assert _window(mem) == ["book the harbour hotel", "Noted the hotel.", "book the night train", "Noted the train."]


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
