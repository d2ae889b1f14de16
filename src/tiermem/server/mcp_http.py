"""(internal) The MCP server over streamable HTTP: one ASGI endpoint whose every request the host authenticates.

The host (the REST server, or any ASGI app) passes ``authenticate(request) -> Scope | None``, sync or async; it
reads the credential from the headers (never the body, which the MCP transport reads next) and returns the
caller's Scope, or None (or raises a Starlette ``HTTPException``) to refuse: 401 with ``WWW-Authenticate:
Bearer`` and an RFC 9457 problem body. A host with its own error format passes ``refuse(request, exc)``, which
answers such a refusal (and any tiermem error ``authenticate`` raises) as the host's other routes would.

The scope rides the ASGI scope of that one request to the tool handlers, so it never comes from a tool argument
and is checked on every request, not once per session. The transport is stateless (no MCP session kept between
requests) and answers plain JSON, so any worker can serve any request; a ``subscriptions/listen`` request of the
2026 protocol is the one answered as a stream (``mcp_watch``).

Mounting: add ``endpoint`` as a route (``Route("/mcp", endpoint)``, or ``endpoint.app("/mcp")`` for a
stand-alone Starlette app) and run ``endpoint.running()`` in the host's lifespan.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Send
from starlette.types import Scope as AsgiScope

from tiermem.context.budget import ContextBudget
from tiermem.errors import MemError
from tiermem.memory import Memory
from tiermem.server.mcp import DEFAULT_BUDGET, build_mcp_server
from tiermem.types import Scope

__all__ = ["SCOPE_KEY", "Authenticate", "McpHttpEndpoint", "Refuse"]

Authenticate = Callable[[Request], "Scope | Awaitable[Scope | None] | None"]
"""The caller's scope from a request's credential, or None when it has none or a wrong one."""

Refuse = Callable[[Request, Exception], Awaitable[Response]]
"""The answer to a refused request: ``authenticate``'s exception (a 401 HTTPException when it returned None)."""

SCOPE_KEY = "tiermem.scope"  # where the verified scope rides in the ASGI scope of one request
_METHODS = ["GET", "POST", "DELETE"]


def _scope_of(request: Request | None) -> Scope:
    """The scope ``McpHttpEndpoint`` verified for this request; never a default."""
    scope = None if request is None else request.scope.get(SCOPE_KEY)
    if not isinstance(scope, Scope):
        raise MCPError(INTERNAL_ERROR, "this request was not authenticated by the endpoint")
    return scope


async def _problem(request: Request, exc: Exception) -> Response:
    """The default refusal: an RFC 9457 problem with the HTTPException's status and detail."""
    if not isinstance(exc, HTTPException):  # a tiermem error without the host's refuse: a host bug
        raise exc
    status = exc.status_code
    title = "Unauthorized" if status == 401 else "Forbidden" if status == 403 else "Request refused"
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": str(exc.detail)})
    headers = dict(exc.headers or {})
    if status == 401:
        headers.setdefault("WWW-Authenticate", "Bearer")
    return Response(body, status_code=status, headers=headers, media_type="application/problem+json")


class McpHttpEndpoint:
    """An ASGI app serving the memory tools over streamable HTTP to authenticated callers only."""

    def __init__(
        self,
        memory: Memory,
        authenticate: Authenticate,
        *,
        budget: ContextBudget = DEFAULT_BUDGET,
        transport_security: TransportSecuritySettings | None = None,
        refuse: Refuse = _problem,
        watch_interval: float = 2.0,
    ) -> None:
        self._authenticate = authenticate
        self._refuse = refuse
        self.server = build_mcp_server(memory, _scope_of, budget=budget, watch_interval=watch_interval)
        self._sessions = StreamableHTTPSessionManager(
            self.server, stateless=True, json_response=True, security_settings=transport_security
        )

    def running(self) -> AbstractAsyncContextManager[None]:
        """The transport's task group: enter it in the host's lifespan (once per endpoint)."""
        return self._sessions.run()

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise RuntimeError(f"the MCP endpoint serves HTTP requests only, not {scope['type']!r}")
        request = Request(scope, receive)
        try:
            verdict = self._authenticate(request)
            caller = await verdict if inspect.isawaitable(verdict) else verdict
            if not isinstance(caller, Scope):
                raise HTTPException(401, "a valid credential is required (Authorization: Bearer <token>)")
        except (HTTPException, MemError) as exc:
            response = await self._refuse(request, exc)
            await response(scope, receive, send)
            return
        await self._sessions.handle_request({**scope, SCOPE_KEY: caller}, receive, send)

    def app(self, path: str = "/mcp") -> Starlette:
        """A stand-alone Starlette app with this endpoint at ``path`` and its lifespan."""

        def lifespan(_: Any) -> AbstractAsyncContextManager[None]:
            return self.running()

        return Starlette(routes=[Route(path, endpoint=self, methods=_METHODS)], lifespan=lifespan)
