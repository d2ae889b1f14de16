"""Red team of the lost turn lease: a turn that loses its session mid-turn writes nothing more and says so.

Every case runs real threads on separate connections (two clients of one database, as two processes are) on
SQLite and PostgreSQL; the REST cases run real ``tiermem serve`` processes against a local fake of the model.
A stalled process is imitated by a turn whose heartbeat does not renew (a frozen process renews nothing) while
its model call or tool waits; every lease is at least ``MIN_LEASE`` and every wait has seconds of margin.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

import fake_openai
from fake_openai import FakeOpenAI
from served_process import make_key, served
from tiermem.agent.loop import Agent, AgentTurn, FunctionTool
from tiermem.context.budget import ContextBudget
from tiermem.context.lease import MIN_LEASE, TurnLease
from tiermem.context.messages import message_from_record
from tiermem.embed import HashingEmbedder
from tiermem.errors import BusyError, LLMError, MemError, TurnLostError
from tiermem.llm import ChatMessage, ScriptedClient, ToolCall
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.tokens import TiktokenCounter
from tiermem.types import Filter, Scope, utcnow

fake = fake_openai.fixture("fake")

SCOPE = Scope("acme", "maya", "atlas", "s1")
BUDGET = ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250)
COUNTER = TiktokenCounter("o200k_base")
LEASE = MIN_LEASE  # the shortest a turn may take: a stall past it is a matter of seconds
WAIT = 60.0  # the longest any step of a case may take on a loaded machine before it counts as hung
LOOKUP = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {}}}}


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """Stores (by id) whose turns' heartbeats renew nothing: their turns stall as a frozen process's would."""
    stores: set[int] = set()
    beat = TurnLease._beat

    def stalled(self: TurnLease, stop: threading.Event) -> None:
        if id(self.store) in stores:
            stop.wait()
            return
        beat(self, stop)

    monkeypatch.setattr(TurnLease, "_beat", stalled)
    return stores


@pytest.fixture
def clients(url_on_both_stores: str) -> Iterator[Callable[[], Memory]]:
    """New clients of one database (each its own connection, as separate processes have)."""
    opened: list[Memory] = []

    def client() -> Memory:
        opened.append(Memory(open_store(url_on_both_stores), HashingEmbedder()))
        return opened[-1]

    yield client
    for memory in opened:
        memory.close()


def agent(memory: Memory, replies: Sequence[Any], tools: Sequence[FunctionTool] = ()) -> tuple[Agent, ScriptedClient]:
    llm = ScriptedClient(list(replies))
    return Agent(memory, SCOPE, llm, BUDGET, system_prompt="You help.", counter=COUNTER, lease=LEASE, tools=tools), llm


def gate(entered: threading.Event, release: threading.Event, reply: ChatMessage) -> Callable[[object], ChatMessage]:
    """A model reply that waits (the call in flight) until ``release``."""

    def answer(_: object) -> ChatMessage:
        entered.set()
        assert release.wait(WAIT), "the test never let the model answer"
        return reply

    return answer


def in_thread(fn: Callable[[], AgentTurn]) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["turn"] = fn()
        except BaseException as exc:  # the case inspects whatever the turn raised, assertions included
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def take_over(taker: Agent, text: str) -> AgentTurn:
    """``taker``'s turn once the stalled turn's lease has run out by the database's clock (Busy until then)."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            return taker.step(text)
        except BusyError:
            assert time.monotonic() < deadline, "the stalled turn's lease never ran out"
            time.sleep(0.3)


def window(memory: Memory) -> list[dict[str, Any]]:
    """The stored window of SCOPE as its records say: role, text, tool calls and the call a result answers."""
    state = memory.store.load_context_window(SCOPE)  # type: ignore[attr-defined]
    if state is None:
        return []
    found = memory.store.get_many(SCOPE, list(state.message_ids))
    messages = [message_from_record(found[i]) for i in state.message_ids if i in found]
    return [
        {
            "id": m.id,
            "role": m.role.value,
            "text": m.content,
            "calls": [c.id for c in m.tool_calls],
            "answers": m.tool_call_id,
        }
        for m in messages
    ]


def records(memory: Memory, scope: Scope = SCOPE) -> list[Any]:
    return list(memory.store.list_records(scope, Filter(), now=utcnow(), limit=1000, cursor=None).records)


def dangling(messages: Sequence[dict[str, Any]]) -> list[str]:
    """Tool calls of a prompt (API-shaped messages) with no result after them, and results with no call."""
    wrong: list[str] = []
    open_calls: set[str] = set()
    for message in messages:
        if message["role"] == "tool":
            if message.get("tool_call_id") not in open_calls:
                wrong.append(f"result without call {message.get('tool_call_id')}")
            open_calls.discard(message.get("tool_call_id"))
        else:
            wrong += [f"call without result {c}" for c in sorted(open_calls)]
            open_calls = {c["id"] for c in message.get("tool_calls") or []}
    return wrong + [f"call without result {c}" for c in sorted(open_calls)]


def lease_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "tiermem-turn-lease"]


def lost_in_call(clients: Callable[[], Memory], frozen: set[int]) -> tuple[Agent, ScriptedClient, Memory, Any]:
    """A turn ("first message") stalled in its model call past its lease while another client's turn ("second
    message") takes the session; the stalled agent (whose next reply is "A2"), the taker's model and client, and
    what the stalled turn gave."""
    a_mem, b_mem = clients(), clients()
    frozen.add(id(a_mem.store))
    entered, release = threading.Event(), threading.Event()
    a, a_llm = agent(a_mem, [gate(entered, release, ChatMessage.assistant("A's late")), ChatMessage.assistant("A2")])
    b, _ = agent(b_mem, [ChatMessage.assistant("B's reply")])
    thread, out = in_thread(lambda: a.step("first message", message_id="msg-first"))
    assert entered.wait(WAIT)
    assert take_over(b, "second message").reply == "B's reply"
    release.set()
    thread.join(WAIT)
    frozen.discard(id(a_mem.store))
    return a, a_llm, b_mem, out.get("error")


def test_a_turn_stalled_past_its_lease_in_the_model_call_is_lost_its_message_kept_once_and_shown_to_the_taker(
    clients: Callable[[], Memory], frozen: set[int]
) -> None:
    a, _, b_mem, error = lost_in_call(clients, frozen)
    assert isinstance(error, TurnLostError) and not isinstance(error, BusyError), error
    assert [(m["role"], m["text"]) for m in window(b_mem)] == [
        ("user", "first message"),
        ("user", "second message"),
        ("assistant", "B's reply"),
    ]
    texts = [r.content for r in records(b_mem)]
    assert texts.count("first message") == 1 and "A's late" not in texts
    assert not [e for e in b_mem.store.audit(SCOPE) if e.actor == "undo"], "the lost turn undid itself"
    # Its retry with the same message id (what an Idempotency-Key gives) stores the message no second time.
    assert a.step("first message", message_id="msg-first").reply == "A2"
    ids = [m["id"] for m in window(b_mem)]
    assert len(ids) == len(set(ids)) and [r.content for r in records(b_mem)].count("first message") == 1


@pytest.mark.xfail(
    strict=True,
    reason="not done (docs/service.md says the retry's reply answers the session as it stands): the keyed retry"
    " of a lost turn finds its message already in the window (the taker answered"
    " after it) and adds nothing, so its model is prompted with a window ending in the taker's reply"
    " (last role 'assistant', not the user's message) and its answer lands as a second consecutive assistant"
    " reply: window user, user, assistant 'B's reply', assistant 'A2'",
)
def test_the_keyed_retry_of_a_lost_turn_prompts_the_model_with_its_message_last(
    clients: Callable[[], Memory], frozen: set[int]
) -> None:
    a, a_llm, b_mem, _ = lost_in_call(clients, frozen)
    a.step("first message", message_id="msg-first")
    assert (a_llm.calls[-1][-1]["role"], a_llm.calls[-1][-1]["content"]) == ("user", "first message")
    roles = [m["role"] for m in window(b_mem)]
    assert "assistant,assistant" not in ",".join(roles), roles


def test_a_lost_turn_ends_its_heartbeat_thread_and_frees_the_session(clients: Callable[[], Memory]) -> None:
    a_mem, other = clients(), clients()
    entered, release = threading.Event(), threading.Event()
    before = len(lease_threads())
    a, _ = agent(a_mem, [gate(entered, release, ChatMessage.assistant("late"))])
    thread, out = in_thread(lambda: a.step("hello"))
    assert entered.wait(WAIT)
    other.erase("acme", "maya")  # removes the lease under the running turn
    release.set()
    thread.join(WAIT)
    assert isinstance(out.get("error"), TurnLostError), out
    assert len(lease_threads()) == before
    b, _ = agent(clients(), [ChatMessage.assistant("fresh")])
    assert b.step("again").reply == "fresh"  # nothing of the lost turn holds the session


def test_a_turn_whose_user_is_erased_during_the_model_call_leaves_nothing_of_the_user(
    clients: Callable[[], Memory],
) -> None:
    a_mem, other = clients(), clients()
    entered, release = threading.Event(), threading.Event()
    a, _ = agent(a_mem, [gate(entered, release, ChatMessage.assistant("Noted, Maya from Leeds."))])
    thread, out = in_thread(lambda: a.step("I am Maya from Leeds"))
    assert entered.wait(WAIT)
    other.erase("acme", "maya")
    release.set()
    thread.join(WAIT)
    assert isinstance(out.get("error"), TurnLostError), out
    user = Scope("acme", "maya")
    assert records(other, user) == [] and other.store.load_context_window(SCOPE) is None  # type: ignore[attr-defined]
    after = [e for e in other.store.audit(user) if e.op != "erase" and e.detail != "redacted by erase"]
    assert not after, [(e.actor, e.op, e.detail) for e in after]
    assert "Leeds" not in repr(other.store.audit(user))


def lost_in_tool(clients: Callable[[], Memory], lose: Callable[[], object]) -> tuple[Memory, dict[str, Any]]:
    """A turn whose lease is lost (by ``lose``) while its tool runs; its own client and what the turn gave."""
    a_mem = clients()
    entered, release = threading.Event(), threading.Event()

    def lookup(_: str) -> str:
        entered.set()
        assert release.wait(WAIT)
        return "Maya lives in Leeds"

    asks = ChatMessage.assistant(None, [ToolCall("c1", "lookup", "{}")])
    a, _ = agent(a_mem, [asks, ChatMessage.assistant("A's answer")], [FunctionTool(LOOKUP, lookup)])
    thread, out = in_thread(lambda: a.step("where do I live?"))
    assert entered.wait(WAIT)
    lose()
    release.set()
    thread.join(WAIT)
    return a_mem, out


def test_a_turn_whose_user_is_erased_during_a_tool_call_writes_nothing_after_the_erase(
    clients: Callable[[], Memory],
) -> None:
    other = clients()
    _, out = lost_in_tool(clients, lambda: other.erase("acme", "maya"))
    user = Scope("acme", "maya")
    assert records(other, user) == [] and other.store.load_context_window(SCOPE) is None  # type: ignore[attr-defined]
    after = [(e.actor, e.op, e.detail) for e in other.store.audit(user) if e.actor not in ("user", "agent", "system")]
    assert after == [], "written after the erase"
    assert isinstance(out.get("error"), TurnLostError), out


def test_a_turn_stalled_past_its_lease_in_a_tool_call_leaves_the_taker_no_half_turn(
    clients: Callable[[], Memory], frozen: set[int]
) -> None:
    b, b_llm = agent(clients(), [ChatMessage.assistant("B's reply")])
    stalled = clients()
    frozen.add(id(stalled.store))
    lost_in_tool(lambda: stalled, lambda: take_over(b, "hello?"))
    assert dangling(b_llm.calls[0]) == [], "the taker's model was sent half of the lost turn"


def test_a_turn_stalled_past_its_lease_in_a_tool_call_is_lost_keeping_its_message(
    clients: Callable[[], Memory], frozen: set[int]
) -> None:
    b_mem = clients()
    b, _ = agent(b_mem, [ChatMessage.assistant("B's reply")])
    stalled = clients()
    frozen.add(id(stalled.store))
    _, out = lost_in_tool(lambda: stalled, lambda: take_over(b, "hello?"))
    assert isinstance(out.get("error"), TurnLostError), out
    assert [r.content for r in records(b_mem)].count("where do I live?") == 1
    assert not [e for e in b_mem.store.audit(SCOPE) if e.actor == "undo"]


def test_many_turns_racing_with_stalls_past_the_lease_leave_one_reply_per_message_and_no_orphan(
    clients: Callable[[], Memory], frozen: set[int]
) -> None:
    rng = random.Random(7)
    before = len(lease_threads())
    outcomes: dict[str, list[str]] = {}
    lock = threading.Lock()

    def client(n: int, stalls: bool) -> None:
        memory = clients()
        if stalls:
            frozen.add(id(memory.store))

        def reply(_: object) -> ChatMessage:
            time.sleep(rng.uniform(0, 2.5) if stalls else rng.uniform(0, 0.3))
            return ChatMessage.assistant(f"reply of {n}")

        def calls(_: object) -> ChatMessage:
            return ChatMessage.assistant(None, [ToolCall(f"c{n}-{time.monotonic_ns()}", "lookup", "{}")])

        script: list[Any] = [reply] * 20 if stalls else [calls, reply] * 20
        a, _ = agent(memory, script, [FunctionTool(LOOKUP, lambda _: "ok")])
        for turn in range(3):
            text, deadline = f"message {turn} of {n}", time.monotonic() + WAIT
            while True:
                try:
                    a.step(text, message_id=f"m{n}-{turn}")
                    seen = "answered"
                except BusyError:
                    assert time.monotonic() < deadline
                    time.sleep(rng.uniform(0.1, 0.5))
                    continue
                except TurnLostError:
                    seen = "lost"
                except MemError as exc:  # any other outcome is the failure reported
                    seen = f"{type(exc).__name__}: {exc}"
                break
            with lock:
                outcomes.setdefault(seen, []).append(text)

    threads = [threading.Thread(target=client, args=(n, n < 2), daemon=True) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT * 3)
    assert set(outcomes) <= {"answered", "lost"}, outcomes
    assert sum(len(v) for v in outcomes.values()) == 12, "a client's thread failed"
    check = clients()
    texts = [r.content for r in records(check)]
    sent = [t for ts in outcomes.values() for t in ts]
    assert all(texts.count(t) == 1 for t in sent), "a message stored twice or an answered one missing"
    stored = window(check)
    shaped = [
        {"role": m["role"], "tool_calls": [{"id": c} for c in m["calls"]], "tool_call_id": m["answers"]} for m in stored
    ]
    assert dangling(shaped) == []
    finals = [
        m["role"] if m["role"] == "user" else "reply"
        for m in stored
        if m["role"] == "user" or (m["role"] == "assistant" and not m["calls"])
    ]
    assert "reply,reply" not in ",".join(finals), finals
    assert len(lease_threads()) == before


def posted_until_the_model_has_it(post: dict[str, Any], fake: FakeOpenAI) -> tuple[threading.Thread, dict[str, Any]]:
    """``post`` sent from a thread, returned once its turn's model call has reached ``fake``."""
    thread, out = in_thread(lambda: httpx.post(**post, timeout=WAIT))  # type: ignore[arg-type, return-value]
    deadline = time.monotonic() + WAIT
    while not fake.chat_requests:
        assert time.monotonic() < deadline and thread.is_alive(), out
        time.sleep(0.05)
    return thread, out


def test_rest_a_turn_whose_user_is_erased_mid_call_is_a_409_without_retry_after_and_its_keyed_retry_stores_once(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    db = tmp_path / "chat.db"
    key = make_key(db, "acme", "maya")
    fake.reply("late reply", delay=6.0)
    fake.reply("second reply")
    with served(db, ["--llm-url", fake.base_url, "--llm-model", "m"]) as url:
        headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": "k-1"}
        post = {"url": f"{url}/v1/sessions/s1/messages", "json": {"text": "I live in Leeds"}, "headers": headers}
        thread, out = posted_until_the_model_has_it(post, fake)
        with Memory.open(str(db), embedder="hash") as other:
            other.erase("acme", "maya")
        thread.join(WAIT)
        headers["Authorization"] = f"Bearer {make_key(db, 'acme', 'maya')}"  # the erase revoked the user's keys
        first: httpx.Response = out["turn"]
        assert first.status_code == 409 and "retry-after" not in first.headers, (first.status_code, first.text)
        assert "stays" in first.json()["detail"], first.json()
        again = httpx.post(**post, timeout=WAIT)  # type: ignore[arg-type]
        assert again.status_code == 200 and again.json()["reply"] == "second reply", again.text
        shown = httpx.get(f"{url}/v1/sessions/s1/messages", headers=headers, timeout=WAIT).json()["messages"]
    assert [json.dumps(m["content"]) for m in shown].count(json.dumps("I live in Leeds")) == 1, shown


def test_rest_a_turn_taken_over_by_another_server_is_a_409_lost_and_its_keyed_retry_stores_its_message_once(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    import sqlite3

    db = tmp_path / "chat.db"
    key = make_key(db, "acme", "maya")
    fake.reply("A's late reply", delay=8.0)
    fake.reply("B's reply")
    fake.reply("A's retried reply")
    args = ["--llm-url", fake.base_url, "--llm-model", "m"]
    with served(db, args) as a_url, served(db, args) as b_url:
        auth = {"Authorization": f"Bearer {key}"}
        keyed = {**auth, "Idempotency-Key": "k-lost"}
        post = {"url": f"{a_url}/v1/sessions/s1/messages", "json": {"text": "first"}, "headers": keyed}
        thread, out = posted_until_the_model_has_it(post, fake)
        # Server A's process stalls past its lease: by the database's clock its lease has run out.
        with sqlite3.connect(db) as conn:
            assert conn.execute("UPDATE turn_leases SET expires_at = renewed_at").rowcount == 1
        taken = httpx.post(f"{b_url}/v1/sessions/s1/messages", json={"text": "second"}, headers=auth, timeout=WAIT)
        assert taken.status_code == 200 and taken.json()["reply"] == "B's reply", taken.text
        shown_to_b = [m["content"] for m in fake.chat_requests[1].body["messages"] if m["role"] == "user"]
        thread.join(WAIT)
        lost: httpx.Response = out["turn"]
        assert lost.status_code == 409 and "retry-after" not in lost.headers, (lost.status_code, lost.text)
        assert "stays" in lost.json()["detail"], lost.json()
        retried = httpx.post(**{**post, "url": f"{b_url}/v1/sessions/s1/messages"}, timeout=WAIT)  # type: ignore[arg-type]
        assert retried.status_code == 200 and retried.json()["reply"] == "A's retried reply", retried.text
        shown = httpx.get(f"{a_url}/v1/sessions/s1/messages", headers=auth, timeout=WAIT).json()["messages"]
    assert shown_to_b == ["first", "second"]
    assert [m["content"] for m in shown].count("first") == 1, shown
    assert "A's late reply" not in [m["content"] for m in shown]


def test_a_turn_refused_while_another_runs_writes_nothing_and_a_failed_turn_is_still_undone(
    clients: Callable[[], Memory],
) -> None:
    a_mem, b_mem = clients(), clients()
    entered, release = threading.Event(), threading.Event()

    def broken(_: object) -> ChatMessage:
        entered.set()
        assert release.wait(WAIT)
        raise LLMError("the model is down", status=500)

    a, _ = agent(a_mem, [broken])
    b, b_llm = agent(b_mem, [ChatMessage.assistant("never")])
    thread, out = in_thread(lambda: a.step("doomed message"))
    assert entered.wait(WAIT)
    with pytest.raises(BusyError) as refused:
        b.step("refused message")
    assert refused.value.retry_after > 0 and not isinstance(refused.value, TurnLostError) and b_llm.calls == []
    release.set()
    thread.join(WAIT)
    assert isinstance(out.get("error"), LLMError), out
    texts = [r.content for r in records(b_mem)]
    assert "refused message" not in texts and "doomed message" not in texts and window(b_mem) == []
