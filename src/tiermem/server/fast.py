"""(internal) A fast path for the two hot routes, ``POST /v1/memories`` and ``POST /v1/memories/search``.

FastAPI solves a route's dependencies anew on every request (seven nested solves for these two: the caller,
its bearer header, the runtime, the scope), a large share of the app's CPU. On the happy path (a bearer
credential, no query parameter but ``user`` and ``agent``, a JSON body that validates) this middleware takes the
declared route's steps in one plain function, with the same functions: the auth path (``AuthPath.verify``,
then ``admit``), the scope (``auth.scope_for``), the body checked by the route's own body field, the work,
and the answer written as the route's response model writes it (a test compares the bytes), in one trip to the
runtime's ``HotPool``. Verifying here, not in the declared route, matters under load: when the cached credential
expires, every request would otherwise take the declared route's two trips until one verification came back
through a queue of work. An error once a request is taken here (a credential that does not verify, over the
rate, a user the credential may not name, the work's own) is written by the app's problem handler, as the
declared route's would be, and counted once. Anything else (no credential, a session to bind, a body that
fails, any other route) goes on to the declared route untouched, so its refusals and the OpenAPI schema stay
its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic_core import to_json
from starlette.datastructures import Headers
from starlette.requests import Request

from tiermem.errors import ConfigError, MemError
from tiermem.server.auth import Principal, scope_for
from tiermem.server.limits import ASGIApp, Receive, Scope, Send, replay
from tiermem.server.models import SCOPE_PATTERN
from tiermem.server.problems import problem_for
from tiermem.server.routes import memories
from tiermem.server.routes.memories import remember_one, search_hits
from tiermem.server.runtime import Runtime
from tiermem.types import MAX_SCOPE_PART
from tiermem.types import Scope as MemScope

__all__ = ["HOT_ROUTES", "FastRoutes"]

Work = Callable[[Runtime, Any, MemScope], dict[str, Any]]
HOT_ROUTES: dict[str, Work] = {"/v1/memories": remember_one, "/v1/memories/search": search_hits}
_PART = re.compile(SCOPE_PATTERN)
_QUERY = frozenset({"user", "agent"})


@dataclass(frozen=True, slots=True)
class _Hot:
    route: APIRoute
    work: Work


def _hot_routes() -> dict[str, _Hot]:
    """The declared routes themselves: FastAPI hands the same objects their requests."""
    found: dict[str, _Hot] = {}
    for route in memories.router.routes:
        if isinstance(route, APIRoute) and route.path in HOT_ROUTES and "POST" in (route.methods or ()):
            found[route.path] = _Hot(route, HOT_ROUTES[route.path])
    missing = sorted(set(HOT_ROUTES) - set(found))
    if missing:
        raise ConfigError(f"hot routes not declared: {', '.join(missing)}")
    return found


class FastRoutes:
    """ASGI middleware (inside the body limit): answers the hot routes' happy path, passes everything else on."""

    def __init__(self, app: ASGIApp, owner: FastAPI) -> None:
        self.app = app
        self.owner = owner
        self._hot = _hot_routes()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        hot = self._hot.get(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if hot is None:
            await self.app(scope, receive, send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
        if not await self._answer(hot, scope, body, receive, send):
            await self.app(scope, replay(body, receive), send)

    async def _answer(self, hot: _Hot, scope: Scope, body: bytes, receive: Receive, send: Send) -> bool:
        """Answer the request; False (nothing sent, no rate token taken) when the declared route must."""
        runtime: Runtime = self.owner.state.runtime
        headers = Headers(scope=scope)
        header = headers.get("authorization")
        query = _query(scope.get("query_string", b""))
        if not header or query is None or not _json(headers.get("content-type")):
            return False
        try:
            given = json.loads(body)
        except (ValueError, RecursionError):  # the declared route says what is wrong with it
            return False
        field = hot.route.body_field  # both declare a body; a route without one is left to answer itself
        if field is None:
            return False
        value, errors = field.validate(given, {}, loc=("body",))
        if errors:
            return False
        scope["route"] = hot.route  # what the log line and the metrics name
        client = scope.get("client")
        host = client[0] if client else None
        credential, outcome = await runtime.hot_pool.run(_guarded, hot, runtime, header, host, query, value)
        if credential is not None:
            scope.setdefault("state", {})["credential"] = credential
        if isinstance(outcome, MemError):
            await (await problem_for(Request(scope), outcome))(scope, receive, send)
            return True
        status, content = outcome  # the headers Starlette's Response would write for these bytes
        start = [(b"content-length", str(len(content)).encode()), (b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": status, "headers": start})
        await send({"type": "http.response.body", "body": content})
        return True


def _guarded(
    hot: _Hot, runtime: Runtime, header: str, client: str | None, query: dict[str, str], body: Any
) -> tuple[str | None, tuple[int, bytes] | MemError]:
    """The caller's credential id (None when it did not verify) with the answer or the error to write."""
    try:
        principal = runtime.auth.verify(header, client)
    except MemError as exc:  # refused: answered as the declared route's caller would answer it
        return None, exc
    try:
        return principal.credential, _run(hot, runtime, principal, query, body)
    except MemError as exc:
        return principal.credential, exc


def _run(hot: _Hot, runtime: Runtime, principal: Principal, query: dict[str, str], body: Any) -> tuple[int, bytes]:
    """The rate limit, the scope, the work and its answer (status and JSON): what the declared route would do."""
    runtime.auth.admit(principal)
    scope = scope_for(runtime.access, principal, user=query.get("user"), agent=query.get("agent"))
    content = hot.work(runtime, body, scope)
    # The work's dict already holds what the response model would (times as datetimes), so it is written as is:
    # the declared route validates the same dict first and writes the same bytes (a test compares them).
    return hot.route.status_code or 200, to_json(content, inf_nan_mode="null")


def _query(raw: bytes) -> dict[str, str] | None:
    """``user`` and ``agent`` when they are all the query says and both are valid; None for anything else."""
    if not raw:
        return {}
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
    query = dict(pairs)
    if len(query) != len(pairs) or not set(query) <= _QUERY:
        return None
    if not all(len(v) <= MAX_SCOPE_PART and _PART.fullmatch(v) for v in query.values()):
        return None
    return query


def _json(content_type: str | None) -> bool:
    return content_type is not None and content_type.partition(";")[0].strip().lower() == "application/json"
