"""(internal) The MCP endpoint on the REST server at ``/mcp``, behind the same credentials as ``/v1``.

The endpoint needs the server's Memory, which the lifespan opens; so the route is a thin forwarder to the
endpoint the lifespan builds (``app.state.mcp``). It is added as a route, not a mount: a mount answers
``POST /mcp`` with a redirect to ``/mcp/``, which MCP clients do not follow with their body. A refused request
is answered by the app's own problem format (``problems``), with its request id and the same
``WWW-Authenticate`` challenge as ``/v1``; the request log and the metrics name the route ``/mcp``.
"""

from __future__ import annotations

from dataclasses import replace

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Send
from starlette.types import Scope as AsgiScope

from tiermem.errors import MemError
from tiermem.server.auth import scope_for
from tiermem.server.mcp import DEFAULT_BUDGET
from tiermem.server.mcp_http import McpHttpEndpoint
from tiermem.server.problems import WWW_AUTHENTICATE, problem, problem_for, unexpected
from tiermem.server.runtime import Runtime
from tiermem.types import Scope

__all__ = ["MCP_METHODS", "MCP_PATH", "McpRoute", "mcp_endpoint"]

MCP_PATH = "/mcp"
MCP_METHODS = ["GET", "POST", "DELETE"]


async def _caller_scope(request: Request) -> Scope:
    """The scope of the request's credential (the tenant and user it names), as the REST routes derive it."""
    runtime: Runtime = request.app.state.runtime
    # AccessError (401) and RateLimitError (429) are answered by _refused, as the app answers them on /v1.
    return scope_for(runtime.access, await runtime.auth.caller(request))


async def _refused(request: Request, exc: Exception) -> Response:
    """A refused MCP request as the app's problem+json, as a /v1 route would answer it."""
    if isinstance(exc, MemError):
        return await problem_for(request, exc)
    if not isinstance(exc, HTTPException):
        return await unexpected(request, exc)
    headers = dict(exc.headers or {})
    if exc.status_code == 401:
        headers["WWW-Authenticate"] = WWW_AUTHENTICATE
    return problem(exc.status_code, str(exc.detail), request=request, headers=headers)


def mcp_endpoint(runtime: Runtime) -> McpHttpEndpoint:
    """The memory tools over streamable HTTP for this server's callers; core blocks capped as the REST API caps them."""
    budget = replace(DEFAULT_BUDGET, core=runtime.settings.core_budget)
    return McpHttpEndpoint(runtime.memory, authenticate=_caller_scope, budget=budget, refuse=_refused)


class McpRoute:
    """The ASGI app at ``/mcp``: hands each request to the endpoint the lifespan built."""

    path = MCP_PATH  # the route label of the request log and the metrics (``observe.route_of``)

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        scope["route"] = self
        endpoint: McpHttpEndpoint = scope["app"].state.mcp
        await endpoint(scope, receive, send)
