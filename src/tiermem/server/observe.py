"""(internal) Per-request observation: a request id (echoed as X-Request-ID), one JSON log line, the metrics.

The log line names the request id, the credential id (never its secret), the method, the route template,
the status and the latency; never a body, a query or a path with ids in it. The last lines of each credential
are also kept in memory (``RequestLog``), so the inspector can show a caller its own requests.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from tiermem.server.limits import ASGIApp, Message, Receive, Scope, Send
from tiermem.server.metrics import Metrics

__all__ = ["Observe", "RequestLine", "RequestLog", "route_of"]

_GOOD_ID = re.compile(r"[A-Za-z0-9._\-]{1,128}")
# A request id names a request in the log, it guards nothing: a seeded generator, not a system call a request.
_IDS = random.Random()


def route_of(scope: Scope) -> str:
    """The matched route's template, or ``unmatched`` (a 404's path is not a label worth keeping)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


@dataclass(frozen=True, slots=True)
class RequestLine:
    """One finished request as the log line names it."""

    at: datetime
    request_id: str
    method: str
    route: str
    status: int
    latency_ms: float


class RequestLog:
    """The last ``per_credential`` requests of each of the last ``credentials`` credentials seen (bounded)."""

    def __init__(self, *, per_credential: int = 200, credentials: int = 1000) -> None:
        self.per_credential = per_credential
        self.credentials = credentials
        self._lines: OrderedDict[str, deque[RequestLine]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, credential: str, line: RequestLine) -> None:
        """Keep ``line`` for ``credential``; the credential seen least recently goes first when over the bound."""
        with self._lock:
            lines = self._lines.get(credential)
            if lines is None:
                lines = self._lines[credential] = deque(maxlen=self.per_credential)
                while len(self._lines) > self.credentials:
                    self._lines.popitem(last=False)
            self._lines.move_to_end(credential)
            lines.append(line)

    def of(self, credential: str) -> list[RequestLine]:
        """The credential's kept requests, newest first."""
        with self._lock:
            return list(reversed(self._lines.get(credential, ())))


class Observe:
    """ASGI middleware: outermost, so even a refused body or a crash is logged and counted."""

    def __init__(self, app: ASGIApp, metrics: Metrics, stream: TextIO, requests: RequestLog | None = None) -> None:
        self.app = app
        self.metrics = metrics
        self.stream = stream
        self.requests = requests
        self._write = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-request-id"), "")
        request_id = given if _GOOD_ID.fullmatch(given) else f"{_IDS.getrandbits(128):032x}"
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = request_id
        start = time.perf_counter()
        status = 500

        async def tagged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, tagged)
        finally:
            elapsed = time.perf_counter() - start
            route = route_of(scope)
            method = str(scope.get("method", ""))
            self.metrics.observe_request(method, route, status, elapsed)
            now = datetime.now(UTC)
            credential = state.get("credential")
            if self.requests is not None and isinstance(credential, str):
                kept = RequestLine(now, request_id, method, route, status, round(elapsed * 1000, 2))
                self.requests.add(credential, kept)
            line = {
                "ts": now.isoformat(timespec="milliseconds"),
                "request_id": request_id,
                "credential": credential,
                "method": method,
                "route": route,
                "status": status,
                "latency_ms": round(elapsed * 1000, 2),
            }
            with self._write:
                self.stream.write(json.dumps(line) + "\n")
                self.stream.flush()
