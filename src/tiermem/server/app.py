"""(internal) The FastAPI app factory: ``create_app(settings)`` wires the runtime, middleware, errors and routes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.middleware.errors import ServerErrorMiddleware

from tiermem.server.docs_pages import mount as mount_docs
from tiermem.server.fast import FastRoutes
from tiermem.server.idempotency import Idempotent
from tiermem.server.limits import ASGIApp, BodyLimit, Receive, Scope, Send
from tiermem.server.mcp_mount import MCP_METHODS, MCP_PATH, McpRoute, mcp_endpoint
from tiermem.server.metrics import Metrics
from tiermem.server.models import Problem
from tiermem.server.observe import Observe, RequestLog
from tiermem.server.problems import MEDIA_TYPE, install, unexpected
from tiermem.server.routes import admin, chat, context, memories, transcript
from tiermem.server.runtime import Runtime, open_runtime
from tiermem.server.settings import ServerSettings
from tiermem.server.ui import mount as mount_ui

__all__ = ["Service", "create_app"]

_ERRORS = {
    400: "Malformed JSON",
    401: "No valid credential",
    403: "The credential does not allow this",
    404: "Not found (also what another tenant's or user's ids get)",
    409: "Conflict",
    413: "Request body too large",
    422: "Invalid input: names the field, the limit and what was given",
    429: "Over the credential's rate (Retry-After)",
    503: "Store or model unavailable (Retry-After)",
    507: "Storage full",
}


class Service(FastAPI):
    """FastAPI with tiermem's front: every HTTP request passes ``front`` (observe, the body limit, the hot
    routes' fast path) before FastAPI's own stack, which a hot request answered by the fast path never enters
    (its exception, telemetry and body-limit layers and Starlette's dispatch are a share of a hot request's
    CPU on the event loop's thread: docs/service.md, "## Load")."""

    front: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.front is not None:
            scope["app"] = self
            await self.front(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)

    async def stack(self, scope: Scope, receive: Receive, send: Send) -> None:
        """FastAPI's own stack: its middleware, the exception handlers and the declared routes."""
        await super().__call__(scope, receive, send)


def create_app(settings: ServerSettings, *, runtime: Runtime | None = None) -> Service:
    """The service as an ASGI app; the store and the model are opened at startup (or ``runtime`` is used)."""

    metrics = runtime.metrics if runtime is not None else Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = runtime is None
        app.state.runtime = open_runtime(settings, metrics) if own else runtime
        try:
            app.state.mcp = mcp_endpoint(app.state.runtime)
            async with app.state.mcp.running():
                yield
        finally:
            if own:
                app.state.runtime.close()

    from tiermem import __version__

    problem_ref = {"content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    app = Service(
        title="tiermem",
        version=__version__,
        summary="Long-term memory for LLM agents: scoped by the caller's credential, auditable.",
        lifespan=lifespan,
        responses={code: {"description": text, **problem_ref} for code, text in _ERRORS.items()},
        docs_url=None,  # served by docs_pages, from installed assets: FastAPI's own pages load them from a CDN
        redoc_url=None,
    )
    install(app)
    app.include_router(memories.router)
    app.include_router(context.router)
    app.include_router(chat.router)
    app.include_router(transcript.router)
    app.include_router(admin.router)
    app.include_router(admin.health)
    # A route, not a mount: a mount answers POST /mcp with a redirect to /mcp/ (see docs/mcp.md).
    app.add_route(MCP_PATH, cast(Any, McpRoute()), methods=MCP_METHODS, include_in_schema=False)
    mount_ui(app)  # the web inspector at /ui: pages, static files, CSP
    mount_docs(app)  # /docs, offline

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
            schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = Problem.model_json_schema(
                ref_template="#/components/schemas/{model}"
            )
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    # Outermost first: a crash anywhere still answers a 500 problem; observe (request id, log line, metrics)
    # sees even a refused body; a keyed retry is answered before any route; the hot routes' fast path sits inside
    # the body limit.
    fast = FastRoutes(app.stack, owner=app)
    idempotent = Idempotent(fast, owner=app)
    limited = BodyLimit(idempotent, max_bytes=settings.limits.max_body_bytes)
    app.state.request_log = RequestLog()  # each credential's last requests, for the inspector's overview
    observe = Observe(limited, metrics=metrics, stream=settings.log, requests=app.state.request_log)
    app.front = ServerErrorMiddleware(observe, handler=unexpected)
    return app
