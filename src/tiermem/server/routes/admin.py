"""(internal) /v1/whoami, the admin routes (export and erase a user of the admin's own tenant), health and metrics."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from starlette.concurrency import run_in_threadpool

from tiermem.server.auth import require_admin
from tiermem.server.convert import erase_out
from tiermem.server.deps import Caller, Rt
from tiermem.server.models import SCOPE_PATTERN, EraseOut, WhoAmI
from tiermem.server.problems import problem
from tiermem.types import MAX_SCOPE_PART, Scope

__all__ = ["health", "router"]

router = APIRouter(prefix="/v1")
health = APIRouter(tags=["operations"])
UserName = Annotated[str, Path(pattern=SCOPE_PATTERN, max_length=MAX_SCOPE_PART, description="A user of the tenant.")]


@router.get("/whoami", response_model=WhoAmI, tags=["identity"], summary="The caller's identity")
def whoami(principal: Caller) -> dict[str, Any]:
    """The tenant, user and role the credential carries (what every request is scoped to)."""
    return {
        "tenant": principal.tenant,
        "user": principal.user,
        "role": principal.role.value,
        "credential": principal.credential,
    }


@router.get("/admin/users/{user}/export", tags=["admin"], summary="Export a user")
def export(user: UserName, runtime: Rt, principal: Caller) -> dict[str, Any]:
    """Everything held about a user of the admin's tenant (records with history, core blocks, audit...)."""
    require_admin(principal)
    return runtime.memory.export(Scope(principal.tenant, user))


@router.delete("/admin/users/{user}", response_model=EraseOut, tags=["admin"], summary="Erase a user")
def erase(user: UserName, runtime: Rt, principal: Caller, request: Request) -> dict[str, Any]:
    """Remove every trace of a user of the admin's tenant (its API keys and sessions too), and scrub the store."""
    require_admin(principal)
    report = runtime.memory.erase(principal.tenant, user, actor=principal.credential)
    runtime.credentials.clear()  # the user's keys are gone: no cached credential may outlive them
    request.app.state.ui_sessions.end_user(principal.tenant, user)  # and no inspector session signed in with one
    runtime.chat.forget_all()  # cached agents hold windows of messages the erase removed
    return erase_out(report)


@health.get("/healthz", summary="Liveness")
def healthz() -> dict[str, str]:
    """The process answers."""
    return {"status": "ok"}


@health.get("/readyz", summary="Readiness", responses={503: {"description": "store or model not ready: why"}})
async def readyz(runtime: Rt) -> Any:
    """The store answers within ``ready_timeout`` seconds and the model is loaded; else 503 saying which does not."""
    why = [] if runtime.model_ready else ["the model is not loaded"]
    try:
        problem_text = await asyncio.wait_for(run_in_threadpool(runtime.store_problem), runtime.settings.ready_timeout)
    except TimeoutError:
        problem_text = f"the store did not answer within {runtime.settings.ready_timeout:g} s"
    if problem_text is not None:
        why.insert(0, problem_text)
    if not why:
        return {"status": "ready", "store": True, "model": True}
    return problem(
        503,
        "not ready: " + "; ".join(why),
        headers={"Retry-After": "1"},
        field="store" if problem_text is not None else "model",
    )


@health.get("/metrics", summary="Prometheus metrics", response_class=Response)
def metrics(runtime: Rt) -> Response:
    """Requests by route and status, latency histograms, records, store bytes, model time (text format 0.0.4)."""
    records = runtime.memory.store.count(None) if runtime.store_ok() else None
    text = runtime.metrics.render(records=records, store_bytes=runtime.store_bytes(), model_loaded=runtime.model_ready)
    return Response(text, media_type="text/plain; version=0.0.4; charset=utf-8")
