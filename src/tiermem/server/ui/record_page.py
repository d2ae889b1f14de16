"""(internal) One record: content and metadata, the dated supersession timeline, as-of, versions, the audit trail.

Edits go through the library (``lifecycle.revise``, ``Memory.rollback``, ``Memory.forget``), so whatever guards
a write there guards the inspector's too. A rollback that would bring a superseded version back beside the
fact that replaced it is refused by the library; the page says so and names the current version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from tiermem.errors import ConflictError, ValidationError
from tiermem.lifecycle.history import live_successor
from tiermem.lifecycle.revise import revise
from tiermem.server.ui.pages import base, day, flags, with_user
from tiermem.server.ui.web import Form, Page, UIRoute, Viewer, render, runtime
from tiermem.types import MemoryRecord, utcnow

__all__ = ["Span", "believed", "router", "timeline"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
REFUSED = "refused"  # the code the record page shows the refused rollback's explanation for


def believed(chain: list[MemoryRecord], at: datetime) -> MemoryRecord | None:
    """The version of the fact that was valid at ``at`` (None: nothing yet, or no longer anything)."""
    for r in chain:
        if r.valid_from <= at and (r.valid_to is None or at < r.valid_to):
            return r
    return None


@dataclass(frozen=True, slots=True)
class Span:
    """A record's validity on the timeline, as x and width in percent of the whole span."""

    record: MemoryRecord
    x: float
    width: float


def timeline(chain: list[MemoryRecord], now: datetime) -> tuple[list[Span], datetime, datetime]:
    """Each version's validity from its start to its end (or now) on one axis, and the axis' two ends."""
    start = min(r.valid_from for r in chain)
    end = max(max(r.valid_to or now for r in chain), start + timedelta(seconds=1))
    total = (end - start).total_seconds()
    spans = []
    for r in chain:
        x = (r.valid_from - start).total_seconds() / total * 100
        w = ((r.valid_to or now) - r.valid_from).total_seconds() / total * 100
        spans.append(Span(r, round(x, 2), round(max(w, 1.0), 2)))
    return spans, start, end


@router.get("/records/{record_id}", response_class=HTMLResponse)
def record(request: Request, record_id: str, view: Page) -> Response:
    """Content, metadata, the supersession chain on a dated timeline, as-of, versions and the audit trail."""
    rt = runtime(request)
    rec = rt.memory.get(view.scope, record_id)
    chain = rt.memory.history(view.scope, record_id)
    as_of_text = request.query_params.get("as_of") or ""
    as_of = day(as_of_text, end=True, field="as_of")
    audit = rt.memory.audit(view.scope, record_id)
    versions = sorted({e.version for e in audit if e.after is not None} - {rec.version})
    position = [r.id for r in chain].index(rec.id)
    spans, start, end = timeline(chain, utcnow())
    return render(
        request,
        "record.html",
        **base(request, view, title="Record"),
        rec=rec,
        flags=flags(rec),
        chain=chain,
        timeline=spans,
        axis=(start, end),
        as_of=as_of_text,
        then=believed(chain, as_of) if as_of is not None else None,
        replaced_by=chain[position + 1] if position + 1 < len(chain) else None,
        current=live_successor(rt.memory.store, view.scope, rec.id) if rec.valid_to is not None else None,
        audit=audit,
        versions=versions,
        refused=request.query_params.get("done") == REFUSED,
    )


def _back(view: Viewer, record_id: str, done: str) -> Response:
    return RedirectResponse(with_user(view, f"/ui/records/{record_id}", done=done), status_code=303)


@router.post("/records/{record_id}/edit")
def edit(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """A new version with the edited text (roll back restores any earlier one)."""
    rt = runtime(request)
    text = form.get("content", "")
    if len(text) > rt.settings.limits.max_text_chars:
        raise ValidationError("content", "is too long", given=len(text), limit=rt.settings.limits.max_text_chars)
    revise(
        rt.memory.store,
        rt.memory.embedder,
        view.scope,
        record_id,
        content=text,
        actor=view.principal.credential,
        now=utcnow(),
        scan=rt.memory.write_policy.scan,  # judged as the service judges every write, its harm judge included
    )
    return _back(view, record_id, "saved")


@router.post("/records/{record_id}/rollback")
def rollback(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """Restore an earlier version, as a new version; refused (and explained) where it would fork the fact."""
    version = form.get("version", "")
    if not version.isdigit():
        raise ValidationError("version", "must be a version number", given=version)
    try:
        runtime(request).memory.rollback(view.scope, record_id, int(version), actor=view.principal.credential)
    except ConflictError:
        return _back(view, record_id, REFUSED)
    return _back(view, record_id, "rolled-back")


@router.post("/records/{record_id}/forget")
def forget(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """Delete the record and redact its audit trail."""
    runtime(request).memory.forget(view.scope, record_id)
    return RedirectResponse(with_user(view, "/ui/memories"), status_code=303)
