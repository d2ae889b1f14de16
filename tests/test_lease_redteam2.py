"""Hostile cases for the turn lease (one turn of a session at a time), on SQLite and PostgreSQL: threads, processes,
real server processes, a killed process, erase mid-turn, failing and interrupted turns, skewed client clocks."""

from __future__ import annotations

import itertools
import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from fake_openai import FakeOpenAI
from served_process import env_for, make_key, served
from tiermem.agent.loop import Agent
from tiermem.context.budget import ContextBudget
from tiermem.errors import BusyError, LLMError, TurnLostError, ValidationError
from tiermem.llm import ChatMessage, ChatResponse
from tiermem.memory import Memory
from tiermem.types import Scope

BUDGET = ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250)
SCOPE = Scope("acme", "ann", "bot", "s1")
SHORT, LONG = timedelta(seconds=0.6), timedelta(seconds=30)

pytestmark = pytest.mark.usefixtures("compressed_time")  # leases of a fraction of a second (conftest)


@dataclass(frozen=True, slots=True)
class Db:
    """A database under test: its URL, and how to read its lease rows as an owner would."""

    url: str
    pg: Any

    def sql(self, query: str) -> list[tuple[Any, ...]]:
        if self.pg is None:
            with sqlite3.connect(self.url) as conn:
                return list(conn.execute(query))
        return self.pg.owner_execute(self.url, query)

    def leases(self) -> list[tuple[Any, ...]]:
        return self.sql("SELECT holder, expires_at, renewed_at FROM turn_leases")


@pytest.fixture(params=["sqlite", "pg"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Db:
    if request.param == "sqlite":
        Memory.open(tmp_path / "lease.db", embedder="hash").close()
        return Db(str(tmp_path / "lease.db"), None)
    pg = request.getfixturevalue("pg_server")
    return Db(pg.schema_url("rl2"), pg)


@pytest.fixture
def mem(db: Db) -> Iterator[Memory]:
    with Memory.open(db.url, embedder="hash") as memory:
        yield memory


class Model:
    """A model that records its prompts and how many calls overlapped; sleeps ``delay``, then may raise."""

    def __init__(self, delay: float = 0.0, *, fail: BaseException | None = None) -> None:
        self.delay, self.fail, self.prompts, self.inflight, self.most = delay, fail, list[str](), 0, 0
        self.entered, self._lock = threading.Event(), threading.Lock()

    def complete(self, messages: Sequence[dict[str, Any]], tools: Any = None) -> ChatResponse:
        with self._lock:
            self.inflight += 1
            self.most = max(self.most, self.inflight)
            self.prompts.append(json.dumps(list(messages)))
        self.entered.set()
        try:
            time.sleep(self.delay)
            if self.fail is not None:
                raise self.fail
        finally:
            with self._lock:
                self.inflight -= 1
        return ChatResponse(ChatMessage.assistant("noted"), "stop", None, None)


def agent(mem: Memory, model: Model, lease: timedelta = SHORT, scope: Scope = SCOPE) -> Agent:
    return Agent(mem, scope, model, BUDGET, system_prompt="You help.", lease=lease)


def stored(mem: Memory, scope: Scope = SCOPE) -> list[str]:
    return [r.content for r in mem.list(scope, limit=500).records]


def beats() -> int:
    return sum(t.name == "tiermem-turn-lease" for t in threading.enumerate())


def run_all(threads: list[threading.Thread]) -> None:
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)


def background(fn: Any, *args: Any) -> tuple[threading.Thread, list[BaseException]]:
    """``fn(*args)`` running on a thread of its own, and what it raised."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            fn(*args)
        except BaseException as exc:  # what it raised is the test's to judge
            raised.append(exc)

    (thread := threading.Thread(target=run)).start()
    return thread, raised


def test_threads_racing_one_session_run_one_turn_at_a_time(db: Db, mem: Memory) -> None:
    model, start = Model(0.4), threading.Barrier(6)
    outcome: dict[str, str] = {}

    def turn(i: int) -> None:
        a = agent(Memory.open(db.url, embedder="hash") if i % 2 else mem, model)
        start.wait()
        try:
            a.step(f"racer-{i} says hello")
            outcome[f"racer-{i}"] = "ok"
        except BusyError as exc:
            assert exc.retry_after > 0
            outcome[f"racer-{i}"] = "busy"

    run_all([threading.Thread(target=turn, args=(i,)) for i in range(6)])
    assert model.most == 1 and "ok" in outcome.values() and len(outcome) == 6
    texts, seen = " ".join(stored(mem)), " ".join(model.prompts)
    for text, result in outcome.items():
        assert (text in texts) == (result == "ok") and (text in seen) == (result == "ok")
    assert db.leases() == [] and beats() == 0


CHILD = """
import json, os, sys, time
from datetime import timedelta
from tiermem.agent.loop import Agent
from tiermem.context.budget import ContextBudget
from tiermem.errors import BusyError, TurnLostError
from tiermem.llm import ChatMessage, ChatResponse
from tiermem.memory import Memory
from tiermem.types import Scope
{skew}
db, name, go, delay, lease = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
spans = []
class M:
    model = "gpt-4o"
    def complete(self, messages, tools=None):
        t0 = time.time()
        print(json.dumps({{"in_model": name, "saw": json.dumps(messages)}}), flush=True)
        time.sleep(delay)
        spans.append((t0, time.time()))
        return ChatResponse(ChatMessage.assistant("ok"), "stop", None, None)
mem, scope = Memory.open(db, embedder="hash"), Scope("acme", "ann", "bot", "s1")
budget = ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250)
a = Agent(mem, scope, M(), budget, system_prompt="You help.", lease=timedelta(seconds=lease))
print(json.dumps({{"ready": name}}), flush=True)
while not os.path.exists(go):
    time.sleep(0.005)
try:
    a.step(name + " says hello")
    print(json.dumps({{"ok": name, "spans": spans}}), flush=True)
except TurnLostError:
    print(json.dumps({{"lost": name}}), flush=True)
except BusyError:
    print(json.dumps({{"busy": name}}), flush=True)
"""


def child(db: Db, name: str, go: Path, delay: float, lease: float, skew: str = "") -> subprocess.Popen[str]:
    code = textwrap.dedent(CHILD.format(skew=skew))
    argv = [sys.executable, "-c", code, db.url, name, str(go), str(delay), str(lease)]
    return subprocess.Popen(argv, env=env_for(db.url), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def lines(proc: subprocess.Popen[str], timeout: float = 60) -> list[dict[str, Any]]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-2000:]
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def in_model(proc: subprocess.Popen[str], then: signal.Signals = signal.SIGKILL) -> float:
    """Send ``proc`` ``then`` once its turn is inside the model call (and wait if it kills); when."""
    assert proc.stdout is not None
    while "in_model" not in proc.stdout.readline():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    proc.send_signal(then)
    if then == signal.SIGKILL:
        proc.wait()
    return time.monotonic()


def wait_free(store: Any, died: float, within: float = 3.0) -> None:
    """Until ``store`` takes SCOPE's lease; fails when a dead turn holds it longer than ``within`` seconds."""
    while not store.acquire_turn_lease(SCOPE, "next", duration=SHORT):
        assert time.monotonic() - died < within, "a dead process held its session past its lease"
        time.sleep(0.05)


def test_racing_processes_never_overlap_and_refused_ones_leave_nothing(db: Db, mem: Memory, tmp_path: Path) -> None:
    go = tmp_path / "go"
    procs = [child(db, f"proc{i}", go, 0.5, 30) for i in range(3)]
    time.sleep(0.5)
    go.touch()
    results = [lines(p) for p in procs]
    done = {r["ok"]: r["spans"] for out in results for r in out if "ok" in r}
    busy = {r["busy"] for out in results for r in out if "busy" in r}
    saw = " ".join(r["saw"] for out in results for r in out if "saw" in r)
    assert done and len(done) + len(busy) == 3
    spans = sorted(s for v in done.values() for s in v)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), spans
    texts = " ".join(stored(mem))
    for name in busy:
        assert name not in texts and name not in saw
    assert all(name in texts for name in done) and db.leases() == []


def test_a_model_call_many_leases_long_is_never_taken_over(db: Db, mem: Memory) -> None:
    model, stolen = Model(6.0), []  # three leases long (a shorter lease is lost to a loaded machine's stalls)
    worker, raised = background(agent(mem, model, timedelta(seconds=2.0)).step, "a long question")
    assert model.entered.wait(10)
    other: Any = Memory.open(db.url, embedder="hash").store
    # Only while the call runs: once it returns, the turn writes, lets go, and the session is anyone's to take.
    while model.inflight:
        stolen.append(other.acquire_turn_lease(SCOPE, "thief", duration=SHORT))
        time.sleep(0.05)
    worker.join()
    other.close()
    assert not any(stolen) and len(stolen) > 20 and db.leases() == [] and raised == []


def test_a_killed_process_frees_its_session_within_about_one_lease(db: Db, mem: Memory, tmp_path: Path) -> None:
    (go := tmp_path / "go").touch()
    killed, store = in_model(child(db, "doomed", go, 60, 1.0)), mem.store
    assert not store.acquire_turn_lease(SCOPE, "next", duration=SHORT)  # type: ignore[attr-defined]
    wait_free(store, killed)
    assert "doomed says hello" in " ".join(stored(mem))  # the dead turn's message: the next turn shows it, no 2nd


def test_a_paused_process_is_not_told_refused_after_its_message_was_shown(db: Db, mem: Memory, tmp_path: Path) -> None:
    (go := tmp_path / "go").touch()
    # A stop-the-world pause inside the model call: its heartbeat stops with it.
    in_model(proc := child(db, "paused", go, 2.0, 1.0), signal.SIGSTOP)
    time.sleep(1.6)
    worker, raised = background(agent(mem, model := Model(1.5)).step, "the next turn")
    assert model.entered.wait(10)
    proc.send_signal(signal.SIGCONT)
    told = lines(proc)[-1]
    worker.join(20)
    assert "paused says hello" in " ".join(model.prompts)  # the taker loaded it, as a dead turn's message
    assert told == {"lost": "paused"} and raised == []  # so its user is told it was kept, not "send it again"
    assert sorted(stored(mem)) == ["noted", "paused says hello", "the next turn"]  # once, and no reply of its own


@pytest.mark.parametrize(
    "fail",
    [LLMError("model down"), RuntimeError("bug in a client"), KeyboardInterrupt(), SystemExit(3), None],
    ids=["llm", "runtime", "kbint", "exit", "ok"],
)
def test_no_heartbeat_survives_a_turn_however_it_ends(db: Db, mem: Memory, fail: BaseException | None) -> None:
    store: Any = mem.store
    calls: list[float] = []
    renew = store.renew_turn_lease
    store.renew_turn_lease = lambda *a, **k: calls.append(time.monotonic()) or renew(*a, **k)
    for i in range(5):
        try:
            agent(mem, Model(0.2, fail=fail), timedelta(seconds=0.15)).step(f"turn {i}")
        except BaseException as exc:  # every way a turn ends is under test
            assert type(exc) is type(fail), exc
        assert beats() == 0 and db.leases() == []
    ended, before = time.monotonic(), len(calls)
    time.sleep(0.5)
    assert before > 10 and len(calls) == before and all(t <= ended for t in calls) and db.leases() == []
    assert len(stored(mem)) == (0 if fail else 10)  # failed turns undone; answered ones: question and reply


def test_heartbeat_neither_deadlocks_nor_slows_a_writer_on_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    with Memory.open(path, embedder="hash") as mem, Memory.open(path, embedder="hash") as other:
        notes = Scope("acme", "bob")

        def write(memory: Memory, tag: str) -> float:
            t0 = time.perf_counter()
            for i in range(80):
                memory.remember(notes, f"{tag} note {i} about the fence")
            return time.perf_counter() - t0

        alone = write(mem, "alone")
        model = Model(2.5)
        turn, raised = background(agent(mem, model, timedelta(seconds=0.09)).step, "slow one")
        assert model.entered.wait(10)
        same, across = write(mem, "same"), write(other, "across")
        turn.join(20)
        assert not turn.is_alive() and beats() == 0 and raised == []
        assert same < 3 * alone + 1 and across < 3 * alone + 1, (alone, same, across)


def test_erase_during_a_turn_leaves_the_user_erased_and_the_session_free(db: Db, mem: Memory) -> None:
    worker, errors = background(agent(mem, model := Model(1.2)).step, "my secret is swordfish")
    assert model.entered.wait(10)
    mem.erase("acme", "ann")
    assert agent(mem, Model()).step("again").reply == "noted"  # at once, while the erased turn is in its call
    worker.join(20)
    assert len(errors) == 1 and isinstance(errors[0], TurnLostError), errors
    assert sorted(stored(mem)) == ["again", "noted"] and db.leases() == [] and beats() == 0
    assert "swordfish" not in str(mem.export(Scope("acme", "ann")))


@pytest.mark.parametrize("skew", ["+7200", "-7200"])
def test_a_skewed_client_clock_changes_nothing(db: Db, mem: Memory, tmp_path: Path, skew: str) -> None:
    patch = textwrap.dedent(f"""
        import datetime as _dt, time as _t
        _real = _t.time
        _t.time = lambda: _real() + {skew}
        class _DT(_dt.datetime):
            now = classmethod(lambda cls, tz=None: _dt.datetime.fromtimestamp(_t.time(), tz))
        _dt.datetime = _DT
    """)
    (go := tmp_path / "go").touch()
    store: Any = mem.store
    assert store.acquire_turn_lease(SCOPE, "here", duration=timedelta(seconds=30))
    assert lines(child(db, "skewed", go, 0.0, 1.0, patch)) == [{"ready": "skewed"}, {"busy": "skewed"}]
    store.release_turn_lease(SCOPE, "here")
    wait_free(store, in_model(child(db, "skewdead", go, 60, 1.0, patch)))


def test_an_acquire_in_an_older_transaction_never_takes_a_live_lease(db: Db) -> None:
    with Memory.open(db.url, embedder="hash") as mem, Memory.open(db.url, embedder="hash") as late:
        live: Any = mem.store
        stale: Any = late.store
        got: list[bool] = []
        assert live.acquire_turn_lease(SCOPE, "live", duration=timedelta(seconds=30))

        def later() -> None:
            with stale.transaction():
                time.sleep(1.6)
                got.append(stale.acquire_turn_lease(SCOPE, "late", duration=SHORT))

        worker, _ = background(later)
        time.sleep(1.2)
        assert live.renew_turn_lease(SCOPE, "live", duration=timedelta(seconds=30))
        worker.join(20)
        assert got == [False]
        assert live.renew_turn_lease(SCOPE, "live", duration=timedelta(seconds=30))


def test_strangers_other_scopes_and_a_stepped_back_clock(db: Db, mem: Memory) -> None:
    store: Any = mem.store
    assert store.acquire_turn_lease(SCOPE, "a", duration=LONG) and store.acquire_turn_lease(SCOPE, "a", duration=LONG)
    assert not store.renew_turn_lease(SCOPE, "b", duration=LONG)
    store.release_turn_lease(SCOPE, "b")
    assert not store.acquire_turn_lease(SCOPE, "b", duration=LONG)
    others = [("acme2", "ann", "bot", "s1"), ("acme", "ann2", "bot", "s1"), ("acme", "ann", "bot2", "s1")]
    for other in [Scope(*t) for t in [*others, ("acme", "ann", "bot", "s2"), ("acme", "ann", None, "s1")]]:
        assert store.acquire_turn_lease(other, "b", duration=LONG), other
    for ahead, ended in ((0.5, False), (5, True)):  # renewed this far in the clock's future: stepped back if > 1 s
        step = f"+ {ahead}" if db.pg is None else f"+ interval '{ahead} seconds'"
        db.sql(f"UPDATE turn_leases SET renewed_at = renewed_at {step}, expires_at = expires_at {step}")
        assert store.acquire_turn_lease(SCOPE, "b", duration=LONG) is ended
    assert not store.renew_turn_lease(SCOPE, "a", duration=LONG)


def test_a_lease_shorter_than_a_renewal_is_refused(mem: Memory) -> None:
    """A lease that could run out between two renewals (or while another writer holds the database) is refused
    when the Agent is made; the shipped floor is a second, lowered here only to compress the tests' time."""
    with pytest.raises(ValidationError, match="lease"):
        agent(mem, Model(1.5), timedelta(milliseconds=3))
    assert beats() == 0


def test_a_turn_started_from_inside_a_turn_is_refused_and_leaves_no_thread(db: Db, mem: Memory) -> None:
    inner: list[int] = []

    def nested(_: Any) -> None:
        with pytest.raises(BusyError):
            agent(mem, Model()).step("nested turn")
        inner.append(beats())

    outer = Agent(mem, SCOPE, Model(), BUDGET, system_prompt="You help.", lease=SHORT, before_turn=nested)
    assert outer.step("outer turn").reply == "noted"
    assert inner == [1] and beats() == 0 and db.leases() == []
    assert "nested turn" not in " ".join(stored(mem))


def test_two_servers_answer_409_with_retry_after_never_500(db: Db, tmp_path: Path) -> None:
    secret = make_key(db.url, "acme", "ann")
    answers: dict[str, httpx.Response] = {}

    def send(base: str, label: str, headers: dict[str, str]) -> None:
        text = label.rstrip("ABC")  # the keyed three send one message under one key
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {secret}"}, timeout=60) as c:
            answers[label] = c.post("/v1/sessions/s9/messages", json={"text": text}, headers=headers)

    def race(*sends: tuple[str, str, dict[str, str]]) -> None:
        run_all([threading.Thread(target=send, args=a) for a in sends])

    with FakeOpenAI() as fake:
        for _ in range(16):
            fake.reply("fine", delay=0.6)
        args = ["--llm-url", fake.base_url, "--llm-model", "gpt-4o", "--pii-mask", "never"]
        with served(db.url, args) as one, served(db.url, args) as two:
            sse, keyed = {"Accept": "text/event-stream"}, {"Idempotency-Key": "k-1"}
            race(*[(base, f"words{i}x", sse if i % 3 == 0 else {}) for i, base in enumerate([one, two] * 3)])
            race((one, "keyedA", keyed), (two, "keyedB", keyed))
            send(two, "keyedC", keyed)  # the retry after the race: the first answer, or the turn run once
        sent = " ".join(r.raw.decode() for r in fake.chat_requests)
    codes = sorted(r.status_code for r in answers.values())
    assert set(codes) <= {200, 409} and 200 in codes and len(codes) == 9, codes
    with Memory.open(db.url, embedder="hash") as mem:
        texts = stored(mem, Scope("acme", "ann", None, "s9"))
    for label, r in answers.items():
        if r.status_code == 409:
            assert int(r.headers["Retry-After"]) >= 1 and "application/problem+json" in r.headers["content-type"]
        if label.startswith("words"):
            assert (label in sent) == (r.status_code == 200) and (label in " ".join(texts)) == (r.status_code == 200)
    assert answers["keyedC"].status_code == 200
    assert texts.count("keyed") == 1, texts  # the keyed turn stored once
    assert db.leases() == []
