"""(internal) The dependencies every route declares: the runtime, the caller (authenticated, rate limited), its scope.

Authentication is one dependency, so no route can forget it; the scope is built from the caller only. The
dependencies are async and touch the database only when they must (a credential not seen in the last second,
a session to bind), through the thread pool: a sync dependency would cost every request a thread hop each.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Annotated, ParamSpec, TypeVar

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from tiermem.errors import ValidationError
from tiermem.server.auth import Principal, scope_for
from tiermem.server.models import SCOPE_PATTERN
from tiermem.server.runtime import Runtime
from tiermem.types import MAX_SCOPE_PART, Scope

__all__ = ["Caller", "Rt", "ScopeAgent", "ScopeFull", "check_limit", "get_runtime", "offload"]

P = ParamSpec("P")
R = TypeVar("R")

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="An API key (`tiermem keys create`) or a JWT from the configured identity provider.",
)


async def get_runtime(request: Request) -> Runtime:
    """The process's runtime."""
    runtime: Runtime = request.app.state.runtime
    return runtime


Rt = Annotated[Runtime, Depends(get_runtime)]


async def caller(
    request: Request,
    runtime: Rt,
    _: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The authenticated caller (``identity.AuthPath.caller``); 401 without a valid credential, 429 over its rate."""
    return await runtime.auth.caller(request)


Caller = Annotated[Principal, Depends(caller)]

_PART = {"pattern": SCOPE_PATTERN, "max_length": MAX_SCOPE_PART}
UserQ = Annotated[str | None, Query(description="Admin only: act for this user of the credential's tenant.", **_PART)]
AgentQ = Annotated[str | None, Query(description="Narrow to one agent of the user.", **_PART)]
SessionQ = Annotated[
    str | None, Query(description="Narrow to one session; bound to the first user who names it.", **_PART)
]


async def scope_full(
    runtime: Rt, principal: Caller, user: UserQ = None, agent: AgentQ = None, session: SessionQ = None
) -> Scope:
    """The caller's scope, narrowed by agent and session."""
    if session is None:  # nothing to bind: no database, no thread
        return scope_for(runtime.access, principal, user=user, agent=agent)
    return await run_in_threadpool(scope_for, runtime.access, principal, user=user, agent=agent, session=session)


async def scope_agent(runtime: Rt, principal: Caller, user: UserQ = None, agent: AgentQ = None) -> Scope:
    """The caller's (tenant, user, agent): where core blocks live."""
    return scope_for(runtime.access, principal, user=user, agent=agent)


ScopeFull = Annotated[Scope, Depends(scope_full)]
ScopeAgent = Annotated[Scope, Depends(scope_agent)]


def check_limit(field: str, given: int, limit: int, what: str = "") -> None:
    """ValidationError (422) when ``given`` is over this server's ``limit``."""
    if given > limit:
        raise ValidationError(field, f"is over this server's limit{what}", given=given, limit=limit)


def offload(route: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """A blocking route as a coroutine that runs it in the thread pool: one thread hop a request, not two.

    FastAPI runs a plain ``def`` route in the pool and then checks its answer against the response model in a
    second trip to the pool; a coroutine's answer is checked on the event loop. For answers of a few records
    that check is cheaper than the trip (two thread wake-ups, each a wait for a core on a busy machine).
    FastAPI reads the route's parameters and their annotations through ``functools.wraps``.
    """

    @functools.wraps(route)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return await run_in_threadpool(route, *args, **kwargs)

    return run
