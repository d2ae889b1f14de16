"""(internal) The overview page: what a memory holds, counted by type, source and trust (admins: per user too),
and the last requests of the signed-in credential itself (never another's)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tiermem.server.observe import RequestLine, RequestLog
from tiermem.server.ui.pages import base, users_of
from tiermem.server.ui.web import Page, UIRoute, Viewer, render, runtime
from tiermem.store.summary_base import Tally
from tiermem.types import MemoryType, Scope, utcnow

__all__ = ["Totals", "own_requests", "router", "totals"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
SHOWN_REQUESTS = 50


@dataclass(frozen=True, slots=True)
class Totals:
    """A scope's live records: all, and by type, source kind and trust (each sorted largest first)."""

    total: int
    by_type: list[tuple[str, int]]
    by_source: list[tuple[str, int]]
    by_trust: list[tuple[str, int]]


def totals(rows: list[Tally]) -> Totals:
    """The tallies summed along each dimension."""
    types: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    trust: Counter[str] = Counter()
    for row in rows:
        types[row.type.value] += row.count
        sources[row.source_kind.value] += row.count
        trust[f"{row.trust:.2f}"] += row.count
    return Totals(sum(types.values()), types.most_common(), sources.most_common(), sorted(trust.items(), reverse=True))


def own_requests(request: Request, view: Viewer) -> list[RequestLine]:
    """The signed-in credential's last requests, newest first (through the API and the inspector alike)."""
    log: RequestLog = request.app.state.request_log
    return log.of(view.principal.credential)


@router.get("/overview", response_class=HTMLResponse)
def overview(request: Request, view: Page) -> Response:
    """Totals of the viewed memory; for an admin, a row per user of its tenant; the caller's own requests."""
    store = runtime(request).memory.store
    now = utcnow()
    per_user: list[tuple[str, Totals]] = []
    if view.admin:
        for user in [None, *users_of(request, view)]:
            per_user.append((user or "(shared)", totals(store.tally(Scope(view.principal.tenant, user), now=now))))
    return render(
        request,
        "overview.html",
        **base(request, view, title="Overview"),
        mine=totals(store.tally(view.scope, now=now)),
        per_user=per_user,
        types=[t.value for t in MemoryType],
        requests=own_requests(request, view)[:SHOWN_REQUESTS],
    )
