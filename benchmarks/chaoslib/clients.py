"""Well-behaved clients of each door: they retry what failed for want of a server, and nothing else.

REST: every write carries an ``Idempotency-Key`` and is retried with the same key, on any server of the store,
after a dropped connection, a 503 (database away), a 502/504, or a 409 (the first request with the key is still
running, or an edit met a concurrent one). MCP and the CLI have no key: they retry only writes that the write
path deduplicates (a note, a fact), which a second attempt cannot store twice.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from chaoslib.fleet import Server, tiermem

RETRIED = frozenset({409, 502, 503, 504})
CONNECT_TIMEOUT = 3.0
READ_TIMEOUT = 60.0
_RECORD_ID = re.compile(r"id=([0-9a-f-]{36})")
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass(frozen=True, slots=True)
class Answer:
    """The last answer (status None: none came within the retry window) and how many attempts it took."""

    status: int | None
    body: Any
    attempts: int
    text: str = ""
    location: str = ""
    replayed: bool = False  # Idempotent-Replayed: the first answer to this key, sent again
    server: str = ""  # the server that gave the last answer

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _pause(attempt: int, retry_after: str | None = None) -> None:
    wait = min(2.0, 0.1 * 2**attempt) if retry_after is None else min(2.0, float(retry_after))
    time.sleep(wait * (0.5 + random.random()))


class Rest:
    """One thread's HTTP client for a store's servers."""

    def __init__(self, servers: Sequence[Server], token: str, retry_for: float, rng: random.Random) -> None:
        self.servers = list(servers)
        self.token = token
        self.retry_for = retry_for
        self.rng = rng
        self.http = httpx.Client(timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT))

    def call(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, str] | None = None,
        body: Any = None,
        key: str | None = None,
        server: Server | None = None,
    ) -> Answer:
        """Send until an answer that is not worth retrying, or the retry window ends."""
        headers = {"Authorization": f"Bearer {self.token}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        deadline = time.monotonic() + self.retry_for
        attempt, last = 0, ""
        while True:
            attempt += 1
            target = server or self.rng.choice(self.servers)
            retry_after = None
            try:
                response = self.http.request(method, target.url + path, params=params, json=body, headers=headers)
            except httpx.TransportError as exc:
                last = f"{type(exc).__name__} from {target.name}"
            else:
                last = f"{response.status_code} from {target.name}: {response.text[:120]}"
                if response.status_code not in RETRIED:
                    payload = response.json() if response.headers.get("content-type", "").endswith("json") else None
                    replayed = response.headers.get("idempotent-replayed") == "true"
                    return Answer(
                        response.status_code, payload, attempt, response.text, replayed=replayed, server=target.name
                    )
                retry_after = response.headers.get("retry-after")
            if time.monotonic() > deadline:
                return Answer(None, None, attempt, f"last: {last}")
            _pause(min(attempt, 4), retry_after)

    def close(self) -> None:
        self.http.close()


def mcp_insert(server_url: str, token: str, content: str) -> tuple[bool, bool, str]:
    """``archival_memory_insert`` through the official MCP client: (acknowledged, stored now rather than found
    stored, the record id or the error)."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def call() -> tuple[bool, bool, str]:
        http = httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT)
        )
        async with http, Client(streamable_http_client(f"{server_url}/mcp", http_client=http)) as client:
            result = await client.call_tool("archival_memory_insert", {"content": content})
        text = "".join(getattr(part, "text", "") for part in result.content)
        found = _RECORD_ID.search(text)
        if result.is_error or not text.startswith("ok:") or found is None:
            return False, False, text[:200]
        return True, text.startswith("ok: stored"), found.group(1)

    return asyncio.run(call())


def cli_add(db: str, tenant: str, user: str, content: str) -> tuple[bool, dict[str, Any] | str]:
    """``tiermem add --json``: (exit status 0, the write's JSON or the error's last line)."""
    done = tiermem(db, "add", "--json", "--embedder", "hash", "--tenant", tenant, "--user", user, content)
    if done.returncode != 0:
        return False, (done.stderr.strip().splitlines() or ["(no message)"])[-1][:200]
    return True, dict(json.loads(done.stdout))


class Inspector:
    """A browser-less inspector session on one server: sign in, read a form's CSRF token, post the form."""

    def __init__(self, server: Server, admin: str) -> None:
        self.server = server
        self.admin = admin
        self.http = httpx.Client(
            base_url=server.url, follow_redirects=False, timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT)
        )
        self.signed_in = False

    def _sign_in(self) -> None:
        self.http.cookies.clear()
        page = self.http.get("/ui/login")
        answer = self.http.post("/ui/login", data={"csrf": _csrf(page.text), "credential": self.admin})
        if answer.status_code != 303:
            raise httpx.TransportError(f"sign-in answered {answer.status_code}")
        self.signed_in = True

    def submit(self, page: str, steps: Sequence[tuple[str, dict[str, str]]], retry_for: float) -> Answer:
        """GET ``page``, then POST each (action, form) of ``steps`` with the CSRF token of the page before (a form
        that asks for a confirmation is two steps); signs in again after a restart lost the session."""
        deadline = time.monotonic() + retry_for
        attempt, last = 0, ""
        while True:
            attempt += 1
            try:
                if not self.signed_in:
                    self._sign_in()
                shown = self.http.get(page)
                if shown.status_code == 303 or "/ui/login" in shown.headers.get("location", ""):
                    self.signed_in = False
                    raise httpx.TransportError("signed out")
                if shown.status_code in RETRIED:
                    raise httpx.TransportError(f"page answered {shown.status_code}")
                for action, form in steps:
                    answer = self.http.post(action, data={"csrf": _csrf(shown.text), **form})
                    if answer.status_code != 200:
                        break
                    shown = answer
                location = answer.headers.get("location", "")
                if answer.status_code == 303 and "/ui/login" in location:
                    self.signed_in = False
                    raise httpx.TransportError("signed out")
                if answer.status_code not in RETRIED:
                    return Answer(answer.status_code, None, attempt, answer.text, location, server=self.server.name)
                last = f"{answer.status_code} from {self.server.name}"
            except (httpx.TransportError, ValueError) as exc:
                self.signed_in = False  # a restarted server lost the session: sign in again
                last = f"{type(exc).__name__}: {exc}"[:200]
            if time.monotonic() > deadline:
                return Answer(None, None, attempt, f"last: {last}")
            _pause(min(attempt, 4))

    def close(self) -> None:
        self.http.close()


def _csrf(html: str) -> str:
    found = _CSRF.search(html)
    if found is None:
        raise ValueError("no CSRF field on the page")
    return found.group(1)
