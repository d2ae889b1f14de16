"""Hostile cases for the session turn lease: one turn of a session at a time, a refused turn writes nothing and
is never shown to a model, no session stays locked, and other users, tenants and sessions are never blocked."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from fake_openai import FakeOpenAI
from served_process import TIERMEM, env_for, make_key, served, wait_ready
from tiermem import Memory
from tiermem.agent.loop import Agent
from tiermem.context.budget import ContextBudget
from tiermem.context.lease import TurnLease
from tiermem.errors import BusyError, ConflictError, LLMError
from tiermem.llm import ChatMessage
from tiermem.llm.messages import ChatResponse
from tiermem.store import open_store
from tiermem.tokens import TiktokenCounter
from tiermem.types import Scope, utcnow

BUDGET = ContextBudget(window=3000, system=150, core=300, output_reserve=400, retrieval_reserve=600)
SCOPE = Scope("acme", "ann", "bot", "s1")
COUNTER = TiktokenCounter("o200k_base")

pytestmark = pytest.mark.usefixtures("compressed_time")  # leases of a fraction of a second (conftest)


class Model:
    """A thread-safe fake model: records every prompt; waits on ``gate`` (when set) before answering."""

    def __init__(self, gate: threading.Event | None = None, delay: float = 0.0, fail: bool = False) -> None:
        self.gate = gate
        self.delay = delay
        self.fail = fail
        self.entered = threading.Event()
        self.prompts: list[str] = []
        self._lock = threading.Lock()

    def complete(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None) -> Any:
        with self._lock:
            self.prompts.append(json.dumps(list(messages)))
        self.entered.set()
        if self.gate is not None:
            assert self.gate.wait(20)
        if self.delay:
            time.sleep(self.delay)
        if self.fail:
            raise LLMError("the model is down")
        return ChatResponse(ChatMessage("assistant", "ok"), "stop", None, None)


def _agent(memory: Memory, scope: Scope, model: Any, lease: timedelta = timedelta(minutes=3)) -> Agent:
    return Agent(memory, scope, model, BUDGET, system_prompt="You help.", counter=COUNTER, lease=lease)


@pytest.fixture
def url(url_on_both_stores: str) -> str:
    return url_on_both_stores


@pytest.fixture
def opened(url: str) -> Iterator[list[Memory]]:
    """Memories opened on ``url``, closed at the end (each is its own client of the database)."""
    memories: list[Memory] = []
    yield memories
    for memory in memories:
        memory.close()


def _open(url: str, opened: list[Memory]) -> Memory:
    memory = Memory.open(url, embedder="hash")
    opened.append(memory)
    return memory


def _stored(memory: Memory, scope: Scope) -> str:
    return json.dumps(memory.export(scope), default=str)


def _copies(memory: Memory, scope: Scope, text: str) -> int:
    """How many records hold ``text`` as their whole content."""
    return sum(1 for r in memory.export(scope)["records"] if r["content"] == text)


def _free(memory: Memory, scope: Scope) -> bool:
    """True when a new turn could take the session now (and leaves it free)."""
    lease = TurnLease(memory.store, scope)  # type: ignore[arg-type]
    try:
        with lease.held():
            return True
    except ConflictError:
        return False


def _run(agent: Agent, text: str, out: dict[str, Any], **kw: Any) -> threading.Thread:
    def go() -> None:
        try:
            out[text] = agent.step(text, **kw)
        except (ConflictError, LLMError) as exc:
            out[text] = exc

    thread = threading.Thread(target=go)
    thread.start()
    return thread


def test_many_threads_race_one_session(url: str, opened: list[Memory]) -> None:
    """Eight clients race one session: one runs, seven are refused having written nothing nor been shown."""
    gate = threading.Event()
    model = Model(gate)
    agents = [_agent(_open(url, opened), SCOPE, model) for _ in range(8)]
    start = threading.Barrier(8)
    out: dict[str, Any] = {}

    def go(i: int) -> None:
        start.wait()
        try:
            out[f"racer {i} says zebra{i}"] = agents[i].step(f"racer {i} says zebra{i}")
        except ConflictError as exc:
            out[f"racer {i} says zebra{i}"] = exc

    threads = [threading.Thread(target=go, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    assert model.entered.wait(10)
    deadline = time.monotonic() + 10
    while len(out) < 7 and time.monotonic() < deadline:  # the others meet the held lease meanwhile
        time.sleep(0.02)
    gate.set()
    for t in threads:
        t.join(20)
    won = [k for k, v in out.items() if not isinstance(v, ConflictError)]
    lost = [k for k, v in out.items() if isinstance(v, ConflictError)]
    assert len(won) == 1 and len(lost) == 7
    seen = "\n".join(model.prompts) + _stored(opened[0], SCOPE)
    for text in lost:
        assert text.split()[-1] not in seen
    assert _free(opened[0], SCOPE)


def test_two_sessions_of_one_user_run_in_parallel(url: str, opened: list[Memory]) -> None:
    gate = threading.Event()
    slow, fast = Model(gate), Model()
    memory = _open(url, opened)
    out: dict[str, Any] = {}
    t = _run(_agent(memory, SCOPE, slow), "first session", out)
    assert slow.entered.wait(10)
    other = Scope("acme", "ann", "bot", "s2")
    assert _agent(_open(url, opened), other, fast).step("second session").reply == "ok"
    gate.set()
    t.join(10)
    assert out["first session"].reply == "ok"


@pytest.mark.parametrize(
    "other",
    [Scope("acme", "bob", "bot", "s1"), Scope("globex", "ann", "bot", "s1"), Scope("acme", None, "bot", "s1")],
    ids=["other-user", "other-tenant", "shared-memory"],
)
def test_same_session_id_elsewhere_is_not_blocked(url: str, opened: list[Memory], other: Scope) -> None:
    gate = threading.Event()
    slow = Model(gate)
    out: dict[str, Any] = {}
    t = _run(_agent(_open(url, opened), SCOPE, slow), "ann's turn", out)
    assert slow.entered.wait(10)
    try:
        assert _agent(_open(url, opened), other, Model()).step("someone else").reply == "ok"
    finally:
        gate.set()
        t.join(10)
    assert out["ann's turn"].reply == "ok"


def test_failed_model_call_frees_the_session_and_is_undone(url: str, opened: list[Memory]) -> None:
    memory = _open(url, opened)
    with pytest.raises(LLMError):
        _agent(memory, SCOPE, Model(fail=True)).step("doomed quagga")
    assert _free(memory, SCOPE)
    model = Model()
    assert _agent(_open(url, opened), SCOPE, model).step("next").reply == "ok"
    assert "quagga" not in model.prompts[-1]


def test_refused_retry_with_same_message_id_then_stored_once(url: str, opened: list[Memory]) -> None:
    gate = threading.Event()
    slow = Model(gate)
    out: dict[str, Any] = {}
    t = _run(_agent(_open(url, opened), SCOPE, slow), "original okapi", out, message_id="m-1")
    assert slow.entered.wait(10)
    memory = _open(url, opened)
    retry = _agent(memory, SCOPE, Model())
    with pytest.raises(ConflictError):
        retry.step("original okapi", message_id="m-1")
    gate.set()
    t.join(10)
    assert out["original okapi"].reply == "ok"
    model = Model()
    _agent(memory, SCOPE, model).step("original okapi", message_id="m-1")
    assert json.loads(model.prompts[-1]).count({"role": "user", "content": "original okapi"}) <= 1
    assert _copies(memory, SCOPE, "original okapi") == 1


def test_erase_during_a_turn_leaves_nothing_of_the_user(url: str, opened: list[Memory]) -> None:
    """An erase while a turn waits on its model: the turn must not write the user back afterwards."""
    gate = threading.Event()
    slow = Model(gate)
    memory = _open(url, opened)
    out: dict[str, Any] = {}
    t = _run(_agent(memory, SCOPE, slow), "erase me wombat", out)
    assert slow.entered.wait(10)
    _open(url, opened).erase("acme", "ann")
    gate.set()
    t.join(10)
    check = _open(url, opened)
    stored = _stored(check, SCOPE)
    assert "wombat" not in stored and '"ok"' not in stored
    assert check.store.load_context_window(SCOPE) is None  # type: ignore[attr-defined]
    assert _free(check, SCOPE)


def test_a_model_call_longer_than_the_lease_keeps_the_session(url: str, opened: list[Memory]) -> None:
    """A live turn whose model answers after three of its leases still holds the session: a turn sent meanwhile is
    refused having written nothing and been shown to no model, and the slow turn is answered and kept."""
    # A lease long enough that a busy two-core machine cannot starve its renewals past it (every third of it).
    slow = Model(delay=3.0)
    late = _agent(_open(url, opened), SCOPE, slow, lease=timedelta(seconds=1.0))
    out: dict[str, Any] = {}
    t = _run(late, "late lemur", out)
    assert slow.entered.wait(10)
    time.sleep(1.5)  # past the lease the slow turn took: only its renewals hold the session now
    other = Model()
    out2: dict[str, Any] = {}
    _run(_agent(_open(url, opened), SCOPE, other), "taker tapir", out2).join(10)
    t.join(10)
    assert isinstance(out2["taker tapir"], BusyError) and other.prompts == []
    assert out["late lemur"].reply == "ok"
    stored = _stored(_open(url, opened), SCOPE)
    assert "late lemur" in stored and "taker tapir" not in stored
    assert "taker tapir" not in "\n".join(slow.prompts)


def _dies_mid_turn(url: str, ready: Any) -> None:
    memory = Memory.open(url, embedder="hash")

    class Hang:
        def complete(self, messages: Sequence[dict[str, Any]], tools: Any = None) -> ChatResponse:
            ready.set()
            time.sleep(60)
            raise AssertionError("killed before")

    _agent(memory, SCOPE, Hang(), lease=timedelta(seconds=1)).step("dying dodo", message_id="d-1")


def test_process_killed_mid_turn_frees_the_session_after_expiry(url: str, opened: list[Memory]) -> None:
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    child = ctx.Process(target=_dies_mid_turn, args=(url, ready))
    child.start()
    try:
        assert ready.wait(20)
        assert child.pid is not None
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)
        memory = _open(url, opened)
        with pytest.raises(ConflictError):
            _agent(memory, SCOPE, Model()).step("too early")
        assert "too early" not in _stored(memory, SCOPE)
        time.sleep(1.1)
        model = Model()
        # The client retries the dead turn under its id: one copy, shown once.
        assert _agent(memory, SCOPE, model).step("dying dodo", message_id="d-1").reply == "ok"
        assert model.prompts[-1].count("dying dodo") == 1
        assert _copies(memory, SCOPE, "dying dodo") == 1
    finally:
        if child.is_alive():
            child.kill()
            child.join(5)


def test_refused_turn_leaves_no_audit_or_recall(url: str, opened: list[Memory]) -> None:
    gate = threading.Event()
    slow = Model(gate)
    out: dict[str, Any] = {}
    holder = _agent(_open(url, opened), SCOPE, slow)
    t = _run(holder, "holder heron", out)
    assert slow.entered.wait(10)
    memory = _open(url, opened)
    refused = _agent(memory, SCOPE, Model())
    with pytest.raises(ConflictError):
        refused.step("refused rhino secret")
    gate.set()
    t.join(10)
    assert "rhino" not in json.dumps([a for a in memory.audit(SCOPE)], default=str)
    assert all("rhino" not in h.record.content for h in refused.context.conversation_search("rhino", k=10))
    assert "rhino" not in _stored(memory, SCOPE)
    model = Model()
    _agent(memory, SCOPE, model).step("after")
    assert "rhino" not in model.prompts[-1]


def test_turn_started_after_an_erase_is_not_disturbed_by_the_erased_turn(url: str, opened: list[Memory]) -> None:
    """An erase frees the session while a turn still waits on its model; a new turn starts: the old turn's late
    reply must not reach the new turn's window or prompts, nor be stored."""
    old_gate, new_gate = threading.Event(), threading.Event()
    old, new = Model(old_gate), Model(new_gate)
    out: dict[str, Any] = {}
    t = _run(_agent(_open(url, opened), SCOPE, old), "before erase", out)
    assert old.entered.wait(10)
    _open(url, opened).erase("acme", "ann")
    fresh = _agent(_open(url, opened), SCOPE, new)
    t2 = _run(fresh, "after erase", out)
    assert new.entered.wait(10)
    old_gate.set()  # the old turn answers while the new one runs
    t.join(10)
    new_gate.set()
    t2.join(10)
    assert isinstance(out["before erase"], ConflictError)
    assert out["after erase"].reply == "ok"
    model = Model()
    _agent(_open(url, opened), SCOPE, model).step("third")
    assert "before erase" not in "\n".join(new.prompts + model.prompts)
    check = _open(url, opened)
    assert "before erase" not in _stored(check, SCOPE)


def _post(url: str, key: str, session: str, text: str, user: str = "ann", idem: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}", **({"Idempotency-Key": idem} if idem else {})}
    return httpx.post(
        f"{url}/v1/sessions/{session}/messages", params={"user": user}, json={"text": text}, headers=headers, timeout=60
    )


def _expire_leases(url: str) -> None:
    """Move every lease of the tenant into the past: what the clock does in three minutes."""
    store: Any = open_store(url, create=False)
    try:
        m = store.MARK
        with store.keys_transaction("acme") as conn:
            conn.execute(f"UPDATE turn_leases SET expires_at = {m}", [store.stored_time(utcnow() - timedelta(1))])
    finally:
        store.close()


def test_server_killed_mid_turn_other_server_refuses_then_takes_over(url: str, tmp_path: Path) -> None:
    """kill -9 of a server while its turn waits on the model: the other server refuses that session (409, nothing
    kept, no prompt), serves other sessions and another tenant's same session id, and takes the session after expiry;
    the refused request's Idempotency-Key is not stuck on its 409."""
    admin = make_key(url, "acme", None, role="admin")
    other_tenant = make_key(url, "globex", None, role="admin")
    with FakeOpenAI() as model, served(url, ["--llm-url", model.base_url, "--llm-model", "m"]) as b:
        port = _free_port()
        command = [*TIERMEM, "serve", "--port", str(port), "--embedder", "hash", "--rate", "0"]
        dying = subprocess.Popen(
            [*command, "--llm-url", model.base_url, "--llm-model", "m"],
            env=env_for(url),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        a = f"http://127.0.0.1:{port}"
        try:
            wait_ready(a, dying, lambda: "")
            model.reply("never delivered", delay=25)
            doomed = threading.Thread(target=lambda: _swallow(lambda: _post(a, admin, "t7", "killed kiwi")))
            doomed.start()
            deadline = time.monotonic() + 20
            while not model.chat_requests:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            dying.send_signal(signal.SIGKILL)
            dying.wait(10)
            doomed.join(30)
            asked = len(model.chat_requests)
            refused = _post(b, admin, "t7", "blocked bison", idem="k1")
            assert refused.status_code == 409, refused.text
            assert len(model.chat_requests) == asked
            model.reply("fine")
            assert _post(b, admin, "t8", "other session").status_code == 200
            model.reply("fine")
            other = _post(b, other_tenant, "t7", "other tenant")  # a session id is one user's within a tenant
            assert other.status_code == 200, other.text
            _expire_leases(url)
            model.reply("answered")
            again = _post(b, admin, "t7", "blocked bison", idem="k1")
            assert again.status_code == 200, again.text
            last = model.chat_requests[-1].raw.decode()
            assert last.count("killed kiwi") == 1 and last.count("blocked bison") == 1
        finally:
            if dying.poll() is None:
                dying.kill()
                dying.wait(10)
    with Memory.open(url, embedder="hash") as memory:
        scope = Scope("acme", "ann", None, "t7")
        assert _copies(memory, scope, "blocked bison") == 1
        assert _copies(memory, scope, "killed kiwi") <= 1  # the dead turn's own message: its user saw no answer


def _swallow(call: Any) -> None:
    with contextlib.suppress(httpx.TransportError):  # the server it asked was killed
        call()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_turn_that_lost_its_lease_writes_nothing_after_the_erase(url: str, opened: list[Memory]) -> None:
    """An erase while the turn waits on its model takes the lease with the user: the model's late reply must not
    be written for the erased user at all (not even written and then undone: an audit trail of it after the erase)."""
    gate = threading.Event()
    slow = Model(gate)
    out: dict[str, Any] = {}
    t = _run(_agent(_open(url, opened), SCOPE, slow), "erase me wombat", out)
    assert slow.entered.wait(10)
    check = _open(url, opened)
    check.erase("acme", "ann")
    gate.set()
    t.join(10)
    assert isinstance(out["erase me wombat"], ConflictError)
    ops = [e.op for e in check.audit(Scope("acme", "ann"))]
    assert ops[ops.index("erase") + 1 :] == []
