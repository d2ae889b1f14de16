"""(internal) Request limits that act before a route runs: the body's size, and a token bucket per credential.

The body is checked twice: a ``Content-Length`` over the limit is refused before a byte is read, and the body
itself is counted as it streams in (a chunked upload has no length, and a length may lie). A refused body
gets a 413 problem; the connection is not read further.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from tiermem.errors import RateLimitError
from tiermem.server.problems import MEDIA_TYPE, TYPE_PREFIX

__all__ = ["BodyLimit", "RateLimiter", "replay"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``max_bytes`` with 413, whatever their headers say."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, send, f"{declared} bytes (Content-Length)")
            return
        if declared == -1:
            await self._refuse(scope, send, "an unreadable Content-Length", status=400)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, send, f"more than {self.max_bytes} bytes (streamed)")
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        await self.app(scope, replay(b"".join(chunks), receive), send)

    async def _refuse(self, scope: Scope, send: Send, given: str, status: int = 413) -> None:
        detail = (
            f"body: the request body is over the limit of {self.max_bytes} bytes"
            if status == 413
            else "body: Content-Length is not a number"
        )
        problem: dict[str, Any] = {
            "type": TYPE_PREFIX + ("too-large" if status == 413 else "malformed"),
            "title": "Request body too large" if status == 413 else "Malformed request",
            "status": status,
            "detail": detail,
            "field": "body",
            "limit": self.max_bytes,
            "given": given,
        }
        request_id = scope.get("state", {}).get("request_id")
        if request_id:
            problem["request_id"] = request_id
        data = json.dumps(problem).encode()
        headers = [
            (b"content-type", MEDIA_TYPE.encode()),
            (b"content-length", str(len(data)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})


def replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives ``body`` (read already) whole, then the connection's own messages (its disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _content_length(scope: Scope) -> int | None:
    """The declared length; None when absent, -1 when it is not a number."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


class RateLimiter:
    """A token bucket per credential: ``burst`` requests at once, refilled at ``per_second``; thread-safe."""

    def __init__(self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # credential -> (tokens, when counted)
        self._lock = threading.Lock()

    def take(self, credential: str) -> None:
        """Spend one token of ``credential``; RateLimitError with the wait until the next one otherwise."""
        self._use(credential, spend=True, check=True, what="requests for this credential")

    def check(self, key: str, *, what: str) -> None:
        """RateLimitError when ``key`` has no token left (``what`` names what is counted); spends nothing."""
        self._use(key, spend=False, check=True, what=what)

    def spend(self, key: str) -> None:
        """Spend a token of ``key`` if it has one left (never raises)."""
        self._use(key, spend=True, check=False, what="")

    def _use(self, key: str, *, spend: bool, check: bool, what: str) -> None:
        if self.per_second <= 0:
            return
        now = self._clock()
        with self._lock:
            tokens, then = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                if not check:
                    return
                wait = (1.0 - tokens) / self.per_second
                raise RateLimitError(
                    f"more than {self.per_second:g} {what} per second (burst {self.burst}); retry in {wait:.2f} s",
                    retry_after=wait,
                )
            self._buckets[key] = (tokens - 1.0 if spend else tokens, now)
            if len(self._buckets) > 10_000:  # forget full buckets: they hold nothing a new one would not
                full = [c for c, (t, w) in self._buckets.items() if t + (now - w) * self.per_second >= self.burst]
                for c in full:
                    del self._buckets[c]
