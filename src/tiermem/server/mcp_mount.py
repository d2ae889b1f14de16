"""(internal) The MCP endpoint on the REST server at ``/mcp``, behind the same credentials as ``/v1``.

The endpoint needs the server's Memory, which the lifespan opens; so the route is a thin forwarder to the
endpoint the lifespan builds (``app.state.mcp``). It is added as a route, not a mount: a mount answers
``POST /mcp`` with a redirect to ``/mcp/``, which MCP clients do not follow with their body.
"""

from __future__ import annotations

import math
from dataclasses import replace

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import Receive, Send
from starlette.types import Scope as AsgiScope

from tiermem.errors import AccessError, RateLimitError
from tiermem.server.mcp import DEFAULT_BUDGET
from tiermem.server.mcp_http import McpHttpEndpoint
from tiermem.server.runtime import Runtime
from tiermem.types import Scope

__all__ = ["MCP_METHODS", "MCP_PATH", "McpRoute", "mcp_endpoint"]

MCP_PATH = "/mcp"
MCP_METHODS = ["GET", "POST", "DELETE"]


async def _caller_scope(request: Request) -> Scope:
    """The scope of the request's credential (the tenant and user it names), as the REST routes derive it."""
    runtime: Runtime = request.app.state.runtime
    header = request.headers.get("authorization")
    try:
        principal = runtime.auth.cached(header)
        if principal is None:
            client = request.client.host if request.client else None
            principal = await run_in_threadpool(runtime.auth.verify, header, client)
        request.state.credential = principal.credential
        runtime.auth.admit(principal)
    except AccessError as exc:
        raise HTTPException(401, str(exc)) from None
    except RateLimitError as exc:
        retry = str(max(1, math.ceil(exc.retry_after)))
        raise HTTPException(429, str(exc), headers={"Retry-After": retry}) from None
    return Scope(principal.tenant, principal.user)


def mcp_endpoint(runtime: Runtime) -> McpHttpEndpoint:
    """The memory tools over streamable HTTP for this server's callers; core blocks capped as the REST API caps them."""
    budget = replace(DEFAULT_BUDGET, core=runtime.settings.core_budget)
    return McpHttpEndpoint(runtime.memory, authenticate=_caller_scope, budget=budget)


class McpRoute:
    """The ASGI app at ``/mcp``: hands each request to the endpoint the lifespan built."""

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        endpoint: McpHttpEndpoint = scope["app"].state.mcp
        await endpoint(scope, receive, send)
