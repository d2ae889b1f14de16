"""A kept ``Idempotency-Key`` answer goes with the record it quotes (forget, TTL sweep), and every kept answer goes
a day after it was made (sweep), even for a user who sends no keyed request again: on both stores, over HTTP."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from live_server import STORES, LiveServer, database_url, kept_answer, keyed_post, live_server
from tiermem.store.access_base import ANSWERS_KEPT
from tiermem.store.databases import database_file
from tiermem.types import Scope, utcnow

NOTE = 'Zoë keeps the "spare" key in the green teapot'  # escaped by JSON twice over: a quote and an accent
OTHER = "Lunch with the book club is on Thursday"
BRIEF = "The cat Quillfeather takes her pills at nine"
OLD = "Bob owes Mortlake three hundred pounds"
ANN = Scope("acme", "ann")


@pytest.fixture(params=STORES)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[LiveServer, str]]:
    url = database_url(request, tmp_path, request.param)
    with live_server(url) as s:
        yield s, url


def _kept_answers(server: LiveServer, scope: Scope) -> int:
    return int(server.runtime.memory.store.held_rows(scope).get("idempotency_keys", 0))


def _tables_holding(request: pytest.FixtureRequest, server: LiveServer, url: str, text: str) -> list[str]:
    """The tables (PostgreSQL, read as the owner) that still hold ``text``, or (SQLite) it if the files do."""
    if database_file(url) is not None:
        return [bytes(n).decode() for n in server.runtime.memory.store.residue([text.encode()]) or []]
    pg = request.getfixturevalue("pg_server")
    tables = pg.owner_execute(
        url, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    )
    found = [
        str(t)
        for (t,) in tables
        if pg.owner_execute(url, f'SELECT count(*) FROM "{t}" x WHERE x::text LIKE %s', [f"%{text}%"]) != [(0,)]
    ]
    bodies = "SELECT count(*) FROM idempotency_keys WHERE position(convert_to(%s, 'UTF8') IN body) > 0"
    return found + (["idempotency_keys"] if pg.owner_execute(url, bodies, [text]) != [(0,)] else [])


def test_forgetting_a_record_drops_the_kept_answers_that_quote_it_and_a_retry_runs_again(
    served: tuple[LiveServer, str],
) -> None:
    server, _ = served
    ann = server.key("acme", "ann")
    wrote = keyed_post(server, ann, "/v1/memories", {"content": NOTE}, "w-1")
    assert wrote.status_code == 201
    assert keyed_post(server, ann, "/v1/memories", {"content": OTHER}, "w-2").status_code == 201
    found = kept_answer(server, ann, "/v1/memories/search", {"query": "spare key teapot", "k": 1}, "s-1")
    assert found.status_code == 200 and "teapot" in found.text and OTHER not in found.text
    kept_answer(server, ann, "/v1/memories", {"content": OTHER}, "w-2")
    assert _kept_answers(server, ANN) == 3

    gone = server.client(ann).delete(f"/v1/memories/{wrote.json()['record']['id']}")

    assert gone.status_code == 204
    assert _kept_answers(server, ANN) == 1  # the write and the search that quoted it went; the other stays
    again = keyed_post(server, ann, "/v1/memories/search", {"query": "spare key teapot", "k": 1}, "s-1")
    assert again.status_code == 200 and "idempotent-replayed" not in again.headers and "teapot" not in again.text
    assert keyed_post(server, ann, "/v1/memories", {"content": OTHER}, "w-2").headers["idempotent-replayed"] == "true"


def test_a_sweep_drops_expired_records_answers_and_every_answer_older_than_a_day(
    served: tuple[LiveServer, str], request: pytest.FixtureRequest
) -> None:
    server, url = served
    store = server.runtime.memory.store
    ann = server.key("acme", "ann")
    assert keyed_post(server, ann, "/v1/memories", {"content": BRIEF, "ttl": 1}, "w-1").status_code == 201
    assert kept_answer(server, ann, "/v1/memories", {"content": OTHER}, "w-2").status_code == 201
    # An answer kept for bob, who sends no keyed request after it: made just over a day ago.
    made = utcnow() - ANSWERS_KEPT - timedelta(minutes=1)
    older = made - ANSWERS_KEPT
    bob = ("acme", "bob", "old-1")
    store.claim_request(*bob, "f", caller="key:b user", at=made, stale_before=made, expired_before=older)
    store.finish_request(*bob, status=201, body=f'{{"content": "{OLD}"}}'.encode(), media_type=None)
    deadline = time.monotonic() + 10
    while _kept_answers(server, ANN) < 2:  # the first write's answer is kept just after it is sent
        assert time.monotonic() < deadline, "the answer was never kept"
        time.sleep(0.05)
    assert _tables_holding(request, server, url, "Mortlake") and _tables_holding(request, server, url, "Quillfeather")
    time.sleep(1.1)

    report = server.runtime.memory.sweep(vacuum=True)

    assert report.expired == 1
    assert _kept_answers(server, Scope("acme", "bob")) == 0 and _kept_answers(server, ANN) == 1
    server.runtime.memory.store.compact(full=True)
    assert (
        _tables_holding(request, server, url, "Quillfeather") == []
        and _tables_holding(request, server, url, "Mortlake") == []
    )
    assert keyed_post(server, ann, "/v1/memories", {"content": OTHER}, "w-2").headers["idempotent-replayed"] == "true"
