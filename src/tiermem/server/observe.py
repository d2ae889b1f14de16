"""(internal) Per-request observation: a request id (echoed as X-Request-ID), one JSON log line, the metrics.

The log line names the request id, the credential id (never its secret), the method, the route template,
the status and the latency; never a body, a query or a path with ids in it.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from datetime import UTC, datetime
from typing import Any, TextIO

from tiermem.server.limits import ASGIApp, Message, Receive, Scope, Send
from tiermem.server.metrics import Metrics

__all__ = ["Observe", "route_of"]

_GOOD_ID = re.compile(r"[A-Za-z0-9._\-]{1,128}")
# A request id names a request in the log, it guards nothing: a seeded generator, not a system call a request.
_IDS = random.Random()


def route_of(scope: Scope) -> str:
    """The matched route's template, or ``unmatched`` (a 404's path is not a label worth keeping)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


class Observe:
    """ASGI middleware: outermost, so even a refused body or a crash is logged and counted."""

    def __init__(self, app: ASGIApp, metrics: Metrics, stream: TextIO) -> None:
        self.app = app
        self.metrics = metrics
        self.stream = stream
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
            line = {
                "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "request_id": request_id,
                "credential": state.get("credential"),
                "method": method,
                "route": route,
                "status": status,
                "latency_ms": round(elapsed * 1000, 2),
            }
            with self._write:
                self.stream.write(json.dumps(line) + "\n")
                self.stream.flush()
