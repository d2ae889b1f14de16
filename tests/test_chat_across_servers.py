"""Chat through two ``tiermem serve`` processes on one database, the local fake of the OpenAI API as the model.

Each process caches an Agent per session, so what another process did to a session (a turn, an erase, a
forgotten message) must reach the cache before the next prompt leaves: the stored window carries a revision, and
a cached window whose revision moved is reloaded. A turn runs holding its session's turn lease, so of two turns
of one session at one instant in two processes one is answered and the other is refused with 409 naming the
session before it writes anything: no prompt of the answered turn shows the refused turn's words.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from fake_openai import FakeOpenAI
from pg_fixtures import PgServer
from served_process import make_key, served
from tiermem.store import open_store
from tiermem.types import Scope, utcnow

TENANT = "acme"
SESSION = "ticket-7"


@dataclass(frozen=True, slots=True)
class Pair:
    """Two servers on one database, their model and an admin key that acts for any user of the tenant."""

    db: str
    a: str
    b: str
    model: FakeOpenAI
    admin: str


@pytest.fixture(params=["sqlite", "postgres"])
def pair(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Pair]:
    if request.param == "sqlite":
        db = str(tmp_path / "chat.db")
    else:
        pg: PgServer = request.getfixturevalue("pg_server")
        db = pg.schema_url("chat")
    admin = make_key(db, TENANT, None, role="admin")
    with FakeOpenAI() as model, contextlib.ExitStack() as stack:
        args = ["--llm-url", model.base_url, "--llm-model", "m"]
        a, b = (stack.enter_context(served(db, args)) for _ in range(2))
        yield Pair(db, a, b, model, admin)


def _say(pair: Pair, url: str, text: str, user: str = "ann") -> httpx.Response:
    return httpx.post(
        f"{url}/v1/sessions/{SESSION}/messages",
        params={"user": user},
        json={"text": text},
        headers={"Authorization": f"Bearer {pair.admin}"},
        timeout=60,
    )


def _said(request: Any) -> list[str]:
    """The user messages of a prompt (not what recall quoted beside them)."""
    return [str(m.get("content")) for m in request.body["messages"] if m.get("role") == "user"]


def _stored(db: str, user: str = "ann") -> dict[str, str]:
    """The stored window's messages by record id, oldest first."""
    store = open_store(db, create=False)
    try:
        scope = Scope(TENANT, user, None, SESSION)
        state = store.load_context_window(scope)  # type: ignore[attr-defined]
        ids = list(state.message_ids) if state is not None else []
        found = store.get_many(scope, ids)
        return {i: found[i].content for i in ids if i in found}
    finally:
        store.close()


def _kept(db: str, text: str, user: str = "ann") -> list[str]:
    """What the store holds of ``text``: records carrying it, and audit entries of records written then deleted."""
    store = open_store(db, create=False)
    try:
        scope = Scope(TENANT, user)
        records = store.scope_records(scope)
        live = {r.id for r in records}
        undone = [f"audit {e.op} {e.record_id}" for e in store.audit(scope) if e.record_id and e.record_id not in live]
        return [r.content for r in records if text in r.content] + undone
    finally:
        store.close()


def _prompts(pair: Pair) -> str:
    return " ".join(r.raw.decode() for r in pair.model.chat_requests)


def _window(db: str, user: str = "ann") -> list[str]:
    """The stored window's message texts, oldest first."""
    return list(_stored(db, user).values())


def test_chat_after_erase_in_another_server_sends_no_erased_text(pair: Pair) -> None:
    pair.model.reply("Noted.")
    assert _say(pair, pair.a, "my locker code is tangerine 4471").status_code == 200
    erased = httpx.delete(f"{pair.b}/v1/admin/users/ann", headers={"Authorization": f"Bearer {pair.admin}"})
    assert erased.status_code == 200, erased.text
    pair.model.reply("Hello, how can I help?")
    again = _say(pair, pair.a, "hello, I am new here")
    assert again.status_code == 200, again.text
    prompt = str(pair.model.chat_requests[-1].body["messages"])
    assert "tangerine" not in prompt
    assert not any("tangerine" in text for text in _window(pair.db))


def test_chat_after_forgetting_a_message_in_another_server_sends_no_forgotten_text(pair: Pair) -> None:
    pair.model.reply("Noted.")
    assert _say(pair, pair.a, "my locker code is tangerine 4471").status_code == 200
    (said,) = [i for i, text in _stored(pair.db).items() if "tangerine" in text]
    gone = httpx.delete(
        f"{pair.b}/v1/memories/{said}", params={"user": "ann"}, headers={"Authorization": f"Bearer {pair.admin}"}
    )
    assert gone.status_code == 204, gone.text
    pair.model.reply("Hello again.")
    assert _say(pair, pair.a, "hello again").status_code == 200
    assert "tangerine" not in str(pair.model.chat_requests[-1].body["messages"])
    assert _window(pair.db) == ["Noted.", "hello again", "Hello again."]


def test_a_turn_run_by_another_server_stays_in_the_window(pair: Pair) -> None:
    pair.model.reply("Noted the printer.")
    assert _say(pair, pair.a, "the printer on floor two jams").status_code == 200
    pair.model.reply("Noted the badge.")
    assert _say(pair, pair.b, "my badge stopped opening the garage").status_code == 200
    pair.model.reply("Noted the kettle.")
    assert _say(pair, pair.a, "and the kettle leaks").status_code == 200
    assert _said(pair.model.chat_requests[-1]) == [
        "the printer on floor two jams",
        "my badge stopped opening the garage",
        "and the kettle leaks",
    ]
    assert _window(pair.db) == [
        "the printer on floor two jams",
        "Noted the printer.",
        "my badge stopped opening the garage",
        "Noted the badge.",
        "and the kettle leaks",
        "Noted the kettle.",
    ]


def test_two_turns_of_one_session_at_once_in_two_servers_answer_one_and_refuse_the_other_with_409_and_retry_after(
    pair: Pair,
) -> None:
    pair.model.reply("Hello.")
    assert _say(pair, pair.a, "hello").status_code == 200
    pair.model.reply("Hello.")
    assert _say(pair, pair.b, "hello again").status_code == 200  # both servers hold the session now
    for _ in range(2):
        pair.model.reply("Noted.", delay=3.0)  # both turns are in flight together
    start = threading.Barrier(2)
    answers: dict[str, httpx.Response] = {}

    def send(url: str, text: str) -> None:
        start.wait()
        answers[text] = _say(pair, url, text)

    threads = [
        threading.Thread(target=send, args=(pair.a, "the lift is stuck")),
        threading.Thread(target=send, args=(pair.b, "the heating is off")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = sorted(r.status_code for r in answers.values())
    assert statuses == [200, 409], [r.text for r in answers.values()]
    won = next(text for text, r in answers.items() if r.status_code == 200)
    refused, lost = next((text, r) for text, r in answers.items() if r.status_code == 409)
    assert SESSION in lost.json()["detail"] and lost.headers["Retry-After"] == "1"  # when to send it again
    assert _window(pair.db) == ["hello", "Hello.", "hello again", "Hello.", won, "Noted."]
    assert refused not in _prompts(pair)
    assert _kept(pair.db, refused) == []


def test_a_turn_sent_while_another_server_runs_one_is_refused_unseen_and_unstored(pair: Pair) -> None:
    pair.model.reply("Hello.")
    assert _say(pair, pair.a, "hello").status_code == 200
    pair.model.reply("Hello.")
    assert _say(pair, pair.b, "hello again").status_code == 200
    pair.model.reply("Noted the lift.", delay=3.0)
    pair.model.reply("Noted the heating.")  # for the second turn, should it reach the model
    answers: dict[str, httpx.Response] = {}
    first = threading.Thread(target=lambda: answers.update(lift=_say(pair, pair.a, "the lift is stuck")))
    first.start()
    deadline = time.monotonic() + 30
    while len(pair.model.chat_requests) < 3:  # the first turn is with the model
        assert time.monotonic() < deadline, "the first turn never reached the model"
        time.sleep(0.02)
    answers["heating"] = _say(pair, pair.b, "the heating is off")
    first.join()
    statuses = {text: r.status_code for text, r in answers.items()}
    refused = next((text for text, status in statuses.items() if status == 409), None)
    assert refused is not None and sorted(statuses.values()) == [200, 409], statuses
    words = {"lift": "the lift is stuck", "heating": "the heating is off"}[refused]
    assert words not in _prompts(pair)  # no model was shown what its user was told was refused
    assert _kept(pair.db, words) == []
    assert statuses == {"lift": 200, "heating": 409}  # the running turn keeps the session
    assert SESSION in answers["heating"].json()["detail"]
    assert _window(pair.db) == ["hello", "Hello.", "hello again", "Hello.", "the lift is stuck", "Noted the lift."]


def test_a_lease_left_by_a_server_that_died_mid_turn_is_taken_over_once_it_expired(pair: Pair) -> None:
    store = open_store(pair.db, create=False)
    try:
        until = utcnow() + timedelta(seconds=2)  # taken and never released, as by a process killed during its turn
        assert store.acquire_turn_lease(Scope(TENANT, "ann", None, SESSION), "died", duration=timedelta(seconds=2))  # type: ignore[attr-defined]
    finally:
        store.close()
    refused = _say(pair, pair.a, "hello")
    assert refused.status_code == 409 and SESSION in refused.json()["detail"]
    assert pair.model.chat_requests == [] and _kept(pair.db, "hello") == []
    time.sleep(max(0.0, (until - utcnow()).total_seconds()) + 0.1)
    pair.model.reply("Hello.")
    assert _say(pair, pair.b, "hello").status_code == 200
    assert _window(pair.db) == ["hello", "Hello."]


def test_a_turn_that_lost_its_session_mid_call_is_answered_409_saying_its_message_was_kept(pair: Pair) -> None:
    pair.model.reply("Hello.")
    assert _say(pair, pair.a, "hello").status_code == 200
    pair.model.reply("Noted the lift.", delay=2.0)
    answers: dict[str, httpx.Response] = {}
    keyed = {"Authorization": f"Bearer {pair.admin}", "Idempotency-Key": "lift-1"}
    url, body = f"{pair.a}/v1/sessions/{SESSION}/messages", {"text": "the lift is stuck"}

    def say() -> httpx.Response:
        return httpx.post(url, params={"user": "ann"}, json=body, headers=keyed, timeout=60)

    first = threading.Thread(target=lambda: answers.update(lift=say()))
    first.start()
    deadline = time.monotonic() + 30
    while len(pair.model.chat_requests) < 2:  # the turn is with the model
        assert time.monotonic() < deadline, "the turn never reached the model"
        time.sleep(0.02)
    store: Any = open_store(pair.db, create=False)
    try:  # another process takes the session over, as one would after this turn's process stalled past its lease
        with store.keys_transaction(TENANT) as conn:
            assert conn.execute(f"UPDATE turn_leases SET holder = {store.MARK}", ["thief"]).rowcount == 1
        first.join()
        lost = answers["lift"]
        assert lost.status_code == 409 and "stays in the session" in lost.json()["detail"]
        assert "Retry-After" not in lost.headers  # not "send it again": the message is there
        assert _window(pair.db) == ["hello", "Hello.", "the lift is stuck"]  # kept once, and no reply of its own
        with store.keys_transaction(TENANT) as conn:  # the thief's turn ends
            conn.execute("DELETE FROM turn_leases")
    finally:
        store.close()
    pair.model.reply("Noted the lift.")
    assert say().status_code == 200  # asked again with its key: answered, its message not stored twice
    assert _window(pair.db) == ["hello", "Hello.", "the lift is stuck", "Noted the lift."]
