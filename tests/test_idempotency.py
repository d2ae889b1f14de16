"""Idempotent retries (``Idempotency-Key``) and chat turns that fail, on both stores, over real HTTP."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from fake_openai import FakeOpenAI
from live_server import STORES, LiveServer, database_url, live_server
from pg_fixtures import PgServer
from tiermem.agent.loop import Agent
from tiermem.context.budget import ContextBudget
from tiermem.context.messages import Message
from tiermem.llm import ChatMessage, ScriptedClient
from tiermem.memory import Memory
from tiermem.tokens import counter_for_model
from tiermem.types import Scope


@pytest.fixture(params=STORES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(database_url(request, tmp_path, request.param)) as s:
        yield s


@pytest.fixture
def model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _post(server: LiveServer, secret: str, path: str, body: object, key: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {secret}", **({"Idempotency-Key": key} if key else {})}
    return httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=60)


def test_a_retry_with_the_same_key_gets_the_first_answer_and_writes_nothing(server: LiveServer) -> None:
    ann = server.key("acme", "ann")
    first = _post(server, ann, "/v1/memories", {"content": "the boiler was serviced in May"}, "retry-1")
    again = _post(server, ann, "/v1/memories", {"content": "the boiler was serviced in May"}, "retry-1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content and first.json()["status"] == "added"
    assert again.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in first.headers
    audit = server.runtime.memory.audit(Scope("acme", "ann"))
    assert [e.op for e in audit] == ["add"]


def test_a_key_used_for_another_request_is_refused(server: LiveServer) -> None:
    ann = server.key("acme", "ann")
    assert _post(server, ann, "/v1/memories", {"content": "one"}, "k").status_code == 201
    other = _post(server, ann, "/v1/memories", {"content": "two"}, "k")
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    assert server.runtime.memory.store.count(Scope("acme", "ann")) == 1


def test_a_key_belongs_to_its_user(server: LiveServer) -> None:
    ann, bob = server.key("acme", "ann"), server.key("acme", "bob")
    assert _post(server, ann, "/v1/memories", {"content": "shared key"}, "k").status_code == 201
    answer = _post(server, bob, "/v1/memories", {"content": "shared key"}, "k")
    assert answer.status_code == 201 and "idempotent-replayed" not in answer.headers
    assert server.runtime.memory.store.count(Scope("acme", "bob")) == 1


def test_a_refused_request_keeps_no_answer_for_its_key(server: LiveServer) -> None:
    ann = server.key("acme", "ann")
    bad = {"content": "x", "ttl": -5}
    assert _post(server, ann, "/v1/memories", bad, "k").status_code == 422
    again = _post(server, ann, "/v1/memories", bad, "k")
    assert again.status_code == 422 and "idempotent-replayed" not in again.headers
    assert _post(server, ann, "/v1/memories", {"content": "x"}, "k").status_code == 201  # the key is free


def test_a_malformed_key_is_a_400_naming_the_header(server: LiveServer) -> None:
    answer = _post(server, server.key("acme", "ann"), "/v1/memories", {"content": "x"}, "has space")
    assert answer.status_code == 400 and answer.json()["field"] == "Idempotency-Key"


def test_requests_racing_with_one_key_write_once(server: LiveServer) -> None:
    ann = server.key("acme", "ann")
    start = threading.Barrier(8)
    statuses: list[int] = []

    def send() -> None:
        start.wait()
        statuses.append(_post(server, ann, "/v1/memories/batch", {"items": [{"content": "race"}]}, "r").status_code)

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count(201) >= 1 and set(statuses) <= {201, 409}
    assert [e.op for e in server.runtime.memory.audit(Scope("acme", "ann"))] == ["add"]


def _drop_connections(pg: PgServer) -> None:
    """End every connection of the application's role, as a restart of the database does."""
    import psycopg

    with psycopg.connect(pg.admin_url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
            " AND usename = %s",
            [pg.app_url.split("//")[1].split("@")[0]],
        )


def test_a_keyed_write_whose_credential_check_loses_the_database_is_503_and_a_retry_writes(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    pg: PgServer = request.getfixturevalue("pg_server")
    with live_server(database_url(request, tmp_path, "postgres")) as server:
        ann = server.key("acme", "ann")
        assert _post(server, ann, "/v1/memories", {"content": "warm up the pool"}, None).status_code == 201
        time.sleep(server.runtime.settings.credential_cache_seconds + 0.2)  # the next request checks the key
        _drop_connections(pg)
        body = {"content": "the fuse box is behind the coats"}
        first = _post(server, ann, "/v1/memories", body, "lost-db")
        assert first.status_code == 503 and first.headers["retry-after"] == "1", first.text
        again = _post(server, ann, "/v1/memories", body, "lost-db")
        assert again.status_code == 201 and again.json()["status"] == "added", again.text


def test_a_write_answered_as_its_database_connection_drops_keeps_its_answer_for_a_retry(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg: PgServer = request.getfixturevalue("pg_server")
    with live_server(database_url(request, tmp_path, "postgres")) as server:
        ann = server.key("acme", "ann")
        access = server.runtime.access
        keep = access.finish_request
        dropped: list[bool] = []

        def connections_dropped_first(*args: object, **kwargs: object) -> None:
            if not dropped:  # the write is committed and answered; the pooled connection is dead now
                dropped.append(True)
                _drop_connections(pg)
            keep(*args, **kwargs)

        assert _put(server, ann, "/v1/core/notes", {"limit": 100}).status_code == 200
        monkeypatch.setattr(access, "finish_request", connections_dropped_first)
        first = _post(server, ann, "/v1/core/notes/append", {"text": "water the ferns"}, "answered")
        assert first.status_code == 200, first.text
        deadline = time.monotonic() + 10
        while (
            again := _post(server, ann, "/v1/core/notes/append", {"text": "water the ferns"}, "answered")
        ).status_code == 409:
            assert time.monotonic() < deadline, "the answer was never kept"  # kept just after it is sent
            time.sleep(0.1)
        assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true", again.text
        assert again.content == first.content and dropped
        block = server.client(ann).get("/v1/core/notes").json()
        assert block["value"] == "water the ferns"  # appended once


def _put(server: LiveServer, secret: str, path: str, body: object) -> httpx.Response:
    return httpx.put(f"{server.url}{path}", json=body, headers={"Authorization": f"Bearer {secret}"}, timeout=60)


def test_a_chat_turn_whose_model_fails_leaves_the_session_as_if_not_sent(tmp_path: Path, model: FakeOpenAI) -> None:
    with live_server(tmp_path / "chat.db", llm_url=model.base_url, llm_model="m") as server:
        ann = server.key("acme", "ann")
        model.fail(502)
        model.fail(502)  # the client retries once
        failed = _post(server, ann, "/v1/sessions/s1/messages", {"text": "my flight is on Friday"}, None)
        assert failed.status_code == 502
        assert server.runtime.memory.store.count(Scope("acme", "ann")) == 0
        model.reply("Noted: Friday.")
        retried = _post(server, ann, "/v1/sessions/s1/messages", {"text": "my flight is on Friday"}, None)
        assert retried.status_code == 200, retried.text
        user_turns = [m for m in model.chat_requests[-1].body["messages"] if m["role"] == "user"]
        assert [m["content"] for m in user_turns] == ["my flight is on Friday"]
        listed = server.runtime.memory.list(Scope("acme", "ann"))
        assert sorted(r.content for r in listed.records) == ["Noted: Friday.", "my flight is on Friday"]


def test_a_chat_retry_with_the_same_key_gets_the_first_reply_and_asks_the_model_once(
    tmp_path: Path, model: FakeOpenAI
) -> None:
    with live_server(tmp_path / "chat.db", llm_url=model.base_url, llm_model="m") as server:
        ann = server.key("acme", "ann")
        model.reply("Hello Ann.")
        first = _post(server, ann, "/v1/sessions/s1/messages", {"text": "hi, I am Ann"}, "turn-1")
        again = _post(server, ann, "/v1/sessions/s1/messages", {"text": "hi, I am Ann"}, "turn-1")
        assert first.status_code == again.status_code == 200 and again.content == first.content
        assert len(model.chat_requests) == 1
        assert server.runtime.memory.store.count(Scope("acme", "ann")) == 2


def test_a_turn_retried_after_a_crash_does_not_store_its_message_twice(tmp_path: Path) -> None:
    budget = ContextBudget(window=4000, system=200, core=400, output_reserve=500, retrieval_reserve=400)
    session = Scope("acme", "ann", None, "s1")
    with Memory.open(tmp_path / "crash.db", embedder="hash") as memory:
        llm = ScriptedClient([ChatMessage.assistant("Got it.")])
        agent = Agent(memory, session, llm, budget, system_prompt="Help.", counter=counter_for_model("gpt-4o"))
        agent.context.append(Message.user("book the dentist", id="turn-abc"))  # stored before the process died
        turn = agent.step("book the dentist", message_id="turn-abc")
        assert turn.reply == "Got it."
        said = [m for m in llm.calls[0] if m["role"] == "user"]
        assert [m["content"] for m in said] == ["book the dentist"]
        assert memory.store.count(Scope("acme", "ann")) == 2
