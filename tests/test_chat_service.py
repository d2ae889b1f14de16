"""The chat engine in-process: turns of one session take turns, other sessions run alongside, and every prompt
passes the model client's outbound gate before it leaves."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import fake_openai
from fake_openai import FakeOpenAI
from tiermem.errors import ConfigError
from tiermem.llm import ChatMessage, ChatResponse
from tiermem.memory import Memory
from tiermem.server.chat import ChatService
from tiermem.server.settings import ServerSettings
from tiermem.tokens import counter_for_model
from tiermem.types import Scope

fake = fake_openai.fixture("fake")


class SlowModel:
    """Answers every prompt after ``delay`` seconds and records how many prompts were in flight at once."""

    model = "gpt-4o"

    def __init__(self, delay: float, *, meet: int = 0) -> None:
        self.delay = delay
        self.meet = meet  # wait (up to 10 s) until this many calls are in flight: overlap without timing luck
        self._met = threading.Condition()
        self.prompts: list[list[dict[str, Any]]] = []
        self.inflight = 0
        self.most = 0
        self._lock = threading.Lock()

    def complete(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None
    ) -> ChatResponse:
        with self._lock:
            self.inflight += 1
            self.most = max(self.most, self.inflight)
            self.prompts.append(list(messages))
        if self.meet:
            with self._met:
                self._met.notify_all()
                self._met.wait_for(lambda: self.inflight >= self.meet, timeout=10)
        time.sleep(self.delay)
        with self._lock:
            self.inflight -= 1
        return ChatResponse(ChatMessage.assistant("Understood."), "stop", None, None)


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return Memory.open(tmp_path / "chat.db", embedder="hash")


def _run_together(service: ChatService, scopes: list[Scope]) -> None:
    threads = [
        threading.Thread(target=service.turn, args=(scope, f"message {i} about the garden fence"))
        for i, scope in enumerate(scopes)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_turns_of_one_session_never_overlap(memory: Memory) -> None:
    model = SlowModel(0.2)
    service = ChatService(memory, model, counter_for_model("gpt-4o"))
    _run_together(service, [Scope("acme", "alice", None, "s1")] * 3)
    assert model.most == 1
    assert len(model.prompts) == 3


def test_turns_of_different_sessions_run_alongside(memory: Memory) -> None:
    model = SlowModel(0.0, meet=2)  # serialised turns would never meet: each waits 10 s alone
    service = ChatService(memory, model, counter_for_model("gpt-4o"))
    _run_together(service, [Scope("acme", "alice", None, f"s{i}") for i in range(2)])
    assert model.most >= 2


def test_every_prompt_passes_the_model_clients_outbound_gate(memory: Memory, fake: FakeOpenAI) -> None:
    settings = ServerSettings(
        db_url="unused.db", embedder="hash", llm_url=fake.base_url, llm_model="m", llm_api_key="k", pii_mask="always"
    )
    service = ChatService(memory, settings.chat_client(), counter_for_model("gpt-4o"))
    fake.reply("I will write to [EMAIL_1].")
    turn = service.turn(Scope("acme", "alice", None, "s1"), "write to ann@example.com tomorrow")
    assert "ann@example.com" not in fake.chat_requests[-1].raw.decode()
    assert turn.reply == "I will write to ann@example.com."


def test_a_turn_without_a_model_names_the_options(memory: Memory) -> None:
    service = ChatService(memory, None, counter_for_model("gpt-4o"))
    with pytest.raises(ConfigError, match="--llm-url"):
        service.turn(Scope("acme", "alice", None, "s1"), "hello")


def test_a_turn_of_a_cached_session_reads_the_stored_window_once(memory: Memory, monkeypatch: Any) -> None:
    service = ChatService(memory, SlowModel(0.0), counter_for_model("gpt-4o"))
    scope = Scope("acme", "alice", None, "s1")
    service.turn(scope, "the gate squeaks")
    store = memory.store
    reads: list[Scope] = []
    load = store.load_context_window  # type: ignore[attr-defined]

    def counted(at: Scope) -> Any:
        reads.append(at)
        return load(at)

    monkeypatch.setattr(store, "load_context_window", counted)
    service.turn(scope, "and the hinge is rusty")
    assert reads == [scope]


def test_a_cached_session_whose_user_was_erased_gets_its_core_block_again(memory: Memory) -> None:
    model = SlowModel(0.0)
    service = ChatService(memory, model, counter_for_model("gpt-4o"))
    scope = Scope("acme", "alice", None, "s1")
    service.turn(scope, "the gate squeaks")
    memory.erase("acme", "alice")  # by another process, say: this one's Agent stays cached
    service.turn(scope, "hello")
    assert "<human" in str(model.prompts[-1])
    assert "the gate squeaks" not in str(model.prompts[-1])
