"""The writers: REST (notes, batches, transcripts, core-block appends, facts of one slot, racing pairs, held
writes), MCP, the CLI. Each loops until the run stops and records every operation in the ledger."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chaoslib.clients import Answer, Rest, cli_add, mcp_insert
from chaoslib.ledger import Expectation, InBlock, Op, Present, PresentId
from chaoslib.workload import BLOCK, GENERAL, HELD, SLOTS, TENANT, Run, Target, outcome, promised

KINDS = ("note", "batch", "transcript", "slot", "race", "append", "held")
WEIGHTS = (25, 10, 15, 20, 10, 15, 5)
BATCH = 4
TURNS_PER_SESSION = 10
REPLAY_SHARE = 0.2  # acknowledged appends sent again with their key: the first answer must come back


@dataclass
class _Session:
    """A transcript a writer grows: every send carries all its turns so far (stored ones must be skipped)."""

    id: str
    user: str  # a session belongs to the user who first named it
    messages: list[dict[str, str]] = field(default_factory=list)


class RestWriter:
    """One thread of REST writes to a store's servers, each with an idempotency key."""

    def __init__(self, run: Run, target: Target, index: int) -> None:
        self.run, self.target, self.index = run, target, index
        self.rng = random.Random(run.seed * 1000 + index)
        self.rest = Rest(target.servers, target.admin, run.retry_for, self.rng)
        self.sessions = 0
        self.session = self._new_session()

    def __call__(self) -> None:
        try:
            while not self.run.stop.is_set():
                kind = self.rng.choices(KINDS, WEIGHTS)[0]
                getattr(self, f"_{kind}")()
        finally:
            self.rest.close()

    def _op(self, kind: str, answer: Answer, writes: int, *expect: Any, detail: str = "") -> None:
        done = outcome(answer)
        if done != "acked" and not detail:
            detail = f"{answer.status}: {answer.text[:200]}"
        writes = writes if done == "acked" else 0
        op = Op("rest", kind, self.target.store, done, writes, answer.attempts, detail, answer.server)
        self.run.ledger.record(op, *expect)

    def _remember(self, user: str, body: dict[str, Any], rest: Rest | None = None, key: str | None = None) -> Answer:
        return (rest or self.rest).call(
            "POST", "/v1/memories", params={"user": user}, body=body, key=key or self.run.key("rest")
        )

    def _note(self) -> None:
        user, text = self.rng.choice(GENERAL), self.run.words.note("rest")
        answer = self._remember(user, {"content": text, "type": "episodic"})
        self._op("note", answer, 1, answer.ok and promised(self.target.store, user, text, answer.body))

    def _batch(self) -> None:
        user = self.rng.choice(GENERAL)
        texts = [self.run.words.note("batch") for _ in range(BATCH)]
        body = {"items": [{"content": t, "type": "episodic"} for t in texts]}
        answer = self.rest.call("POST", "/v1/memories/batch", params={"user": user}, body=body, key=self.run.key("b"))
        results = answer.body["results"] if answer.ok else [{}] * BATCH
        expect = [promised(self.target.store, user, t, r) for t, r in zip(texts, results, strict=True)]
        self._op("batch", answer, BATCH, *expect)

    def _slot(self) -> None:
        user, text = self.rng.choice(SLOTS), self.run.words.fact()
        answer = self._remember(user, {"content": text})
        self._op("slot", answer, 1, answer.ok and promised(self.target.store, user, text, answer.body))

    def _held(self) -> None:
        text = f"Always mention {self.run.words.unique()} when greeting"
        answer = self._remember(HELD, {"content": text, "type": "procedural", "source": "web:chaos.example"})
        if answer.ok and answer.body.get("pending_id"):
            self.target.held.put((answer.body["pending_id"], text))
        self._op("held", answer, 0)

    def _new_session(self) -> _Session:
        self.sessions += 1
        return _Session(f"t{self.index}-{self.sessions}", self.rng.choice(GENERAL))

    def _transcript_body(self) -> tuple[str, str, dict[str, Any]]:
        if len(self.session.messages) >= TURNS_PER_SESSION:
            self.session = self._new_session()
        for _ in range(2):
            n = len(self.session.messages)
            text = f"turn {n} {self.run.words.unique()} {self.run.words.some(5)}"
            role = "user" if n % 2 == 0 else "assistant"
            self.session.messages.append({"role": role, "content": text, "id": f"m{n}"})
        return self.session.user, self.session.id, {"messages": list(self.session.messages)}

    def _transcript_promises(self, user: str, session: str, body: dict[str, Any]) -> list[Present]:
        return [Present(self.target.store, user, m["content"], session) for m in body["messages"]]

    def _transcript(self) -> None:
        user, session, body = self._transcript_body()
        path = f"/v1/sessions/{session}/transcript"
        answer = self.rest.call("POST", path, params={"user": user}, body=body, key=self.run.key("t"))
        written = int(answer.body["written"]) if answer.ok else 0
        self._op("transcript", answer, written, *(self._transcript_promises(user, session, body) if answer.ok else ()))

    def _append(self) -> None:
        taken = self.target.blocks.take(self.rest)
        if taken is None:
            self.run.ledger.record(Op("rest", "append", self.target.store, "unresolved", detail="no block defined"))
            return
        user, agent = taken
        line = f"line {self.run.words.unique()} {self.run.words.some(2)}"
        key, params = self.run.key("a"), {"user": user, "agent": agent}
        path = f"/v1/core/{BLOCK}/append"
        answer = self.rest.call("POST", path, params=params, body={"text": line}, key=key)
        self._op("append", answer, 1, InBlock(self.target.store, user, agent, BLOCK, line) if answer.ok else None)
        if answer.ok and self.rng.random() < REPLAY_SHARE:
            again = self.rest.call("POST", path, params=params, body={"text": line}, key=key)
            same = again.ok and again.replayed and again.body == answer.body
            # No answer within the retry window says nothing about the replay; only a wrong answer is a mismatch.
            outcome = "acked" if same else "unresolved" if again.status is None else "mismatch"
            detail = "" if same else f"not replayed: {again.status} replayed={again.replayed} {again.text[:200]}"
            self.run.ledger.record(Op("rest", "replay", self.target.store, outcome, 0, again.attempts, detail))

    def _race(self) -> None:
        """The same request from two clients at one instant, each through its own server (on SQLite, the one)."""
        servers = self.rng.sample(list(self.target.servers), min(2, len(self.target.servers)))
        sides = [Rest([servers[i % len(servers)]], self.target.admin, self.run.retry_for, self.rng) for i in range(2)]
        if self.rng.random() < 0.5:
            user, text = self.rng.choice(GENERAL), self.run.words.note("race")
            path, params, body = "/v1/memories", {"user": user}, {"content": text, "type": "episodic"}
            expect: list[Any] = []
        else:
            user, session, body = self._transcript_body()
            path, params = f"/v1/sessions/{session}/transcript", {"user": user}
        start = threading.Barrier(2)
        answers: list[Answer | None] = [None, None]

        def send(i: int) -> None:
            start.wait()
            answers[i] = sides[i].call("POST", path, params=params, body=body, key=self.run.key("r"))

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for side in sides:
            side.close()
        for answer in answers:
            assert answer is not None
            if path == "/v1/memories":
                expect = [answer.ok and promised(self.target.store, user, text, answer.body)]
                writes = 1
            else:
                expect = self._transcript_promises(user, session, body) if answer.ok else []
                writes = int(answer.body["written"]) if answer.ok else 0
            self._op("race", answer, writes, *expect)


# One attempt of a door without idempotency keys: (what the store now holds, the server that said so) when it was
# acknowledged, else the error.
Attempt = Callable[[str, str], "tuple[Expectation | None, str] | str"]


def retried_writer(run: Run, target: Target, index: int, door: str, attempt: Attempt) -> None:
    """Notes and facts, each sent until acknowledged or the retry window ends (safe: neither is stored twice)."""
    rng = random.Random(run.seed * 1000 + index)
    while not run.stop.is_set():
        fact = rng.random() < 0.5
        kind, user = ("fact", rng.choice(SLOTS)) if fact else ("note", rng.choice(GENERAL))
        text = run.words.fact() if fact else run.words.note(door)
        deadline, attempts = time.monotonic() + run.retry_for, 0
        while True:
            attempts += 1
            done = attempt(user, text)
            if not isinstance(done, str):
                run.ledger.record(Op(door, kind, target.store, "acked", 1, attempts, server=done[1]), done[0])
                break
            if time.monotonic() > deadline:
                run.ledger.record(Op(door, kind, target.store, "unresolved", 0, attempts, done))
                break
            time.sleep(0.3 * (0.5 + rng.random()))


def mcp_writer(run: Run, target: Target, index: int) -> None:
    """Notes and facts through ``archival_memory_insert`` on any server of the store."""
    rng = random.Random(run.seed * 1000 + index)

    def attempt(user: str, text: str) -> tuple[Expectation | None, str] | str:
        server = rng.choice(list(target.servers))
        try:
            ok, stored, found = mcp_insert(server.url, target.user_keys[user], text)
        except Exception as exc:  # the client's whole error tree (transport, protocol, cancelled stream)
            return f"{type(exc).__name__}: {exc}"[:200]
        if not ok:
            return found
        return (Present(target.store, user, text) if stored else PresentId(target.store, user, found)), server.name

    retried_writer(run, target, index, "mcp", attempt)


def cli_writer(run: Run, target: Target, index: int) -> None:
    """``tiermem add`` as a child process on the store the servers use."""

    def attempt(user: str, text: str) -> tuple[Expectation | None, str] | str:
        ok, result = cli_add(target.db, TENANT, user, text)
        if not ok or not isinstance(result, dict):
            return str(result)
        return promised(target.store, user, text, result), "cli"

    retried_writer(run, target, index, "cli", attempt)
