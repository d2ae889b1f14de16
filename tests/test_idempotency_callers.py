"""A kept ``Idempotency-Key`` answer goes back only to the credential that made it, and goes with an erase of
the user it acted on: on both stores, over real HTTP."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from live_server import STORES, LiveServer, database_url, kept_answer, keyed_post, live_server
from tiermem.server.settings import RateLimit
from tiermem.types import Scope

NOTE = "Ann keeps the spare key under the blue flowerpot"
QUERY = {"query": "spare key flowerpot", "k": 5}


@pytest.fixture(params=STORES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(database_url(request, tmp_path, request.param)) as s:
        yield s


def test_a_kept_answer_is_not_replayed_to_a_credential_that_may_not_name_its_user(server: LiveServer) -> None:
    server.client(server.key("acme", "ann")).post("/v1/memories", json={"content": NOTE})
    admin, shared = server.key("acme", None, "admin"), server.key("acme", None, "user")
    first = keyed_post(server, admin, "/v1/memories/search?user=ann", QUERY, "look-1")
    assert first.status_code == 200 and NOTE in first.text
    again = keyed_post(server, shared, "/v1/memories/search?user=ann", QUERY, "look-1")
    assert again.status_code == 403 and "idempotent-replayed" not in again.headers
    assert NOTE not in again.text


def test_another_credential_reusing_a_key_gets_a_422_that_reveals_nothing(server: LiveServer) -> None:
    server.client(server.key("acme", "ann")).post("/v1/memories", json={"content": NOTE})
    admin, other_admin = server.key("acme", None, "admin"), server.key("acme", None, "admin")
    assert keyed_post(server, admin, "/v1/memories/search?user=ann", QUERY, "look-1").status_code == 200
    same = keyed_post(server, other_admin, "/v1/memories/search?user=ann", QUERY, "look-1")
    guess = keyed_post(server, other_admin, "/v1/memories/search?user=ann", {"query": "anything else"}, "look-1")
    for answer in (same, guess):
        assert answer.status_code == 422 and answer.json()["field"] == "Idempotency-Key"
        assert NOTE not in answer.text and "idempotent-replayed" not in answer.headers
    assert same.json()["detail"] == guess.json()["detail"]  # no hint whether the request matched
    replay = kept_answer(server, admin, "/v1/memories/search?user=ann", QUERY, "look-1")
    assert replay.headers["idempotent-replayed"] == "true" and NOTE in replay.text


def test_erasing_a_user_removes_the_answers_an_admin_kept_about_it(server: LiveServer) -> None:
    ann, admin = server.key("acme", "ann"), server.key("acme", None, "admin")
    assert keyed_post(server, ann, "/v1/memories", {"content": NOTE}, "own-1").status_code == 201
    assert keyed_post(server, admin, "/v1/memories/search?user=ann", QUERY, "look-1").status_code == 200
    ferns = {"content": "Ann waters the ferns on Sundays"}
    wrote = keyed_post(server, admin, "/v1/memories?user=ann", ferns, "write-1")
    assert wrote.status_code == 201
    assert kept_answer(
        server, admin, "/v1/memories?user=ann", {"content": "Ann waters the ferns on Sundays"}, "write-1"
    ).status_code
    store = server.runtime.memory.store
    assert store.held_rows(Scope("acme", "ann"))["idempotency_keys"] == 3
    erased = server.client(admin).delete("/v1/admin/users/ann")
    assert erased.status_code == 200 and erased.json()["removed"]["idempotency_keys"] == 3
    assert store.held_rows(Scope("acme", "ann")).get("idempotency_keys", 0) == 0
    assert store.held_rows(Scope("acme", None)).get("idempotency_keys", 0) == 0
    again = keyed_post(server, admin, "/v1/memories/search?user=ann", QUERY, "look-1")
    assert again.status_code == 200 and "idempotent-replayed" not in again.headers and NOTE not in again.text


def test_a_replayed_answer_spends_a_token_of_the_callers_rate(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with live_server(db, rate=RateLimit(per_second=0.01, burst=2)) as server:
        ann = server.key("acme", "ann")
        assert keyed_post(server, ann, "/v1/memories", {"content": NOTE}, "k").status_code == 201
        deadline = time.monotonic() + 10
        with sqlite3.connect(db) as conn:  # kept just after it is sent
            while conn.execute("SELECT status FROM idempotency_keys").fetchone() != (201,):
                assert time.monotonic() < deadline, "the answer was never kept"
                time.sleep(0.05)
        assert keyed_post(server, ann, "/v1/memories", {"content": NOTE}, "k").headers["idempotent-replayed"] == "true"
        over = keyed_post(server, ann, "/v1/memories", {"content": NOTE}, "k")
        assert over.status_code == 429 and "idempotent-replayed" not in over.headers
