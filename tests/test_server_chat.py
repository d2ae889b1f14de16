"""Chat over HTTP: a real ``tiermem serve`` process, the local fake of the OpenAI API as the model.

The helpdesk story: a user reports a problem on one day; the server is stopped and started; on the next day, in
a new session, "it happened again" reaches the model with the earlier report beside it, found by recall, with
its id, source and date.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fake_openai import FakeOpenAI
from served_process import make_key, served

REPORT = "my VPN keeps dropping since the update"
DAY1, DAY2 = "2026-03-02T09:15:00Z", "2026-03-03T10:40:00Z"


@pytest.fixture
def model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _say(url: str, secret: str, session: str, text: str, **extra: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {secret}", **extra.pop("headers", {})}
    body = {"text": text, **extra}
    return httpx.post(f"{url}/v1/sessions/{session}/messages", json=body, headers=headers, timeout=60)


def _prompt_text(request: Any) -> str:
    return "\n".join(str(m.get("content") or "") for m in request.body["messages"])


def test_helpdesk_user_is_remembered_across_a_restart_and_a_new_session(tmp_path: Path, model: FakeOpenAI) -> None:
    db = tmp_path / "helpdesk.db"
    alice, bob = make_key(db, "acme", "alice"), make_key(db, "acme", "bob")
    args = ["--llm-url", model.base_url, "--llm-model", "helpdesk-model"]
    with served(db, args) as url:
        model.reply("Sorry about that. Which VPN client version do you run?")
        day1 = _say(url, alice, "ticket-1", REPORT, now=DAY1)
        assert day1.status_code == 200, day1.text
        assert day1.json()["reply"] == "Sorry about that. Which VPN client version do you run?"
        assert day1.json()["tool_calls"] == []
        # The session is alice's now: bob naming it gets the 404 anything not his gets, and the model is not asked.
        asked = len(model.chat_requests)
        assert _say(url, bob, "ticket-1", "hello").status_code == 404
        assert len(model.chat_requests) == asked
    with served(db, args) as url:  # a new process on the same file
        model.reply("Sorry it happened again. Let us look at the VPN logs from the update.")
        day2 = _say(url, alice, "ticket-2", "it happened again", now=DAY2)
        assert day2.status_code == 200, day2.text
    prompt = _prompt_text(model.chat_requests[-1])
    assert "it happened again" in prompt
    line = next(line for line in prompt.splitlines() if REPORT in line)
    assert re.search(r"\[id=[0-9a-f-]+, source=user, trust=[0-9.]+, at=2026-03-02\]", line), line
    assert '"' + REPORT + '"' in line  # quoted as data, not pasted as an instruction


def test_chat_streams_tool_calls_and_the_reply_as_server_sent_events(tmp_path: Path, model: FakeOpenAI) -> None:
    db = tmp_path / "stream.db"
    alice = make_key(db, "acme", "alice")
    with served(db, ["--llm-url", model.base_url, "--llm-model", "m"]) as url:
        model.reply_tool_calls([("archival_memory_insert", {"content": "The user works from the Leeds office."})])
        model.reply("Noted: you work from the Leeds office.")
        response = _say(url, alice, "s-1", "I work from the Leeds office", headers={"Accept": "text/event-stream"})
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/event-stream")
        events = [
            (block.split("\n")[0].removeprefix("event: "), json.loads(block.split("\n")[1].removeprefix("data: ")))
            for block in response.text.strip().split("\n\n")
        ]
        assert [name for name, _ in events] == ["tool_call", "message", "done"]
        assert events[0][1]["name"] == "archival_memory_insert" and events[0][1]["ok"]
        assert events[1][1] == {"text": "Noted: you work from the Leeds office."}
        assert events[2][1]["model_calls"] == 2
        search = httpx.post(
            f"{url}/v1/memories/search", json={"query": "Leeds office"}, headers={"Authorization": f"Bearer {alice}"}
        )
        assert any("Leeds" in h["record"]["content"] for h in search.json()["hits"])


def test_chat_without_a_configured_model_is_503_naming_the_option(tmp_path: Path) -> None:
    db = tmp_path / "nomodel.db"
    alice = make_key(db, "acme", "alice")
    with served(db) as url:
        response = _say(url, alice, "s-1", "hello")
    assert response.status_code == 503
    assert response.headers["content-type"] == "application/problem+json"
    assert "--llm-url" in response.json()["detail"] and response.json()["field"] == "llm_url"


def test_chat_with_an_unreachable_model_is_502(tmp_path: Path) -> None:
    db = tmp_path / "unreachable.db"
    alice = make_key(db, "acme", "alice")
    with socket.socket() as s:  # a port nobody listens on once closed
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    with served(db, ["--llm-url", f"http://127.0.0.1:{dead}/v1", "--llm-model", "m"]) as url:
        response = _say(url, alice, "s-1", "hello", headers={"Accept": "text/event-stream"})
    assert response.status_code == 502
    assert response.headers["content-type"] == "application/problem+json"
