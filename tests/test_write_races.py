"""Writes racing at one instant, through one or two ``tiermem serve`` processes on one database.

Dedupe and supersession decide on what is stored, so each store serialises the writes of one user: the same text
sent twice at once is stored once, and two new values for one fact leave exactly one current fact.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from pg_fixtures import PgServer
from served_process import make_key, served
from tiermem.store import open_store
from tiermem.types import Filter, MemoryRecord, Scope, utcnow

TENANT = "acme"
TEXTS = 40
RACES = 6
_WORDS = (
    "amber basil cobalt delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow nectar orchid pebble"
    " quartz raven saffron tundra umber velvet willow yarrow zephyr"
).split()


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the servers write (a file or a PostgreSQL URL) and their base URLs."""

    db: str
    urls: tuple[str, ...]
    admin: str


@pytest.fixture(params=["sqlite-one-server", "postgres-one-server", "postgres-two-servers"])
def layout(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Layout]:
    if request.param.startswith("sqlite"):
        db = str(tmp_path / "races.db")
    else:
        pg: PgServer = request.getfixturevalue("pg_server")
        db = pg.schema_url("races")
    admin = make_key(db, TENANT, None, role="admin")
    count = 2 if request.param.endswith("two-servers") else 1
    with contextlib.ExitStack() as stack:
        urls = tuple(stack.enter_context(served(db)) for _ in range(count))
        yield Layout(db, urls, admin)


def _at_once(layout: Layout, requests: list[tuple[int, str, dict[str, object]]]) -> list[httpx.Response]:
    """Send each (server index, user, body) from its own thread, all released together."""
    start = threading.Barrier(len(requests))
    answers: list[httpx.Response | None] = [None] * len(requests)

    def send(i: int, server: int, user: str, body: dict[str, object]) -> None:
        with httpx.Client(base_url=layout.urls[server % len(layout.urls)], timeout=60) as client:
            start.wait()
            answers[i] = client.post(
                "/v1/memories", params={"user": user}, json=body, headers={"Authorization": f"Bearer {layout.admin}"}
            )

    threads = [threading.Thread(target=send, args=(i, *r)) for i, r in enumerate(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a is not None and a.status_code == 201 for a in answers), [a and a.text for a in answers]
    return [a for a in answers if a is not None]


def _records(db: str, user: str) -> list[MemoryRecord]:
    store = open_store(db, create=False)
    try:
        return store.scope_records(Scope(TENANT, user))
    finally:
        store.close()


def test_the_same_text_sent_twice_at_one_instant_is_stored_once(layout: Layout) -> None:
    rng = random.Random(7)
    texts = [f"note {i}: " + " ".join(rng.sample(_WORDS, 5)) for i in range(TEXTS)]
    for lap in range(2):  # 40 pairs in two waves of 20 (each pair: one request per server, at once)
        wave = texts[lap * TEXTS // 2 : (lap + 1) * TEXTS // 2]
        _at_once(layout, [(side, "ann", {"content": text}) for text in wave for side in (0, 1)])
    stored = [r.content for r in _records(layout.db, "ann")]
    assert sorted(stored) == sorted(texts)  # none lost, none twice


def test_racing_new_values_for_one_fact_leave_one_current_fact(layout: Layout) -> None:
    users = [f"racer{k}" for k in range(RACES)]
    for user in users:
        _at_once(layout, [(0, user, {"content": "My favourite drink is tea"})])
    _at_once(
        layout,
        [(side, user, {"content": f"My favourite drink is now {drink}"})
         for user in users for side, drink in ((0, "coffee"), (1, "cocoa"))],
    )  # fmt: skip
    for user in users:
        records = _records(layout.db, user)
        current = [r.content for r in records if r.valid_to is None]
        assert len(records) == 3 and len(current) == 1, (user, [(r.content, r.valid_to) for r in records])
        assert current[0].startswith("My favourite drink is now")
        live = open_store(layout.db, create=False)
        try:
            listed = live.list_records(Scope(TENANT, user), Filter(), now=utcnow(), limit=10, cursor=None)
        finally:
            live.close()
        assert [r.content for r in listed.records] == current
