"""(internal) Inspector pages that change a user's memory wholesale: review (quarantine, held writes) and erase."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from tiermem.errors import ValidationError
from tiermem.lifecycle.revise import revise
from tiermem.server.runtime import Runtime
from tiermem.server.ui.pages import base, with_user
from tiermem.server.ui.web import Form, Page, UIRoute, render, runtime, sessions
from tiermem.trust.injection import QUARANTINE_TAG, injection_score
from tiermem.types import Filter, MemoryRecord, Scope, utcnow

__all__ = ["router"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
MAX_QUARANTINED = 200
MAX_PROBES = 200
REASONS_KEY = "injection_reasons"  # where a write-time scan stores its reasons (metadata)


def file_probes(rt: Runtime, scope: Scope) -> list[bytes]:
    """Texts of the user's records, to look for in the database file's bytes after the erase."""
    page = rt.memory.list(scope, limit=MAX_PROBES)
    return [r.content.encode() for r in page.records if len(r.content) >= 8]


def found_in_file(rt: Runtime, probes: list[bytes]) -> int | None:
    """How many probes still occur in the database's files (None: the store has no files to read)."""
    left = rt.memory.store.residue(probes)
    return None if left is None else len(left)


def reasons(record: MemoryRecord) -> list[str]:
    """Why the note is quarantined: the reasons stored with its verdict at write time, else the scanner's now."""
    stored = record.metadata.get(REASONS_KEY)
    if isinstance(stored, str) and stored:
        return [stored]
    return list(injection_score(record.content).reasons) or ["tagged quarantined when written"]


def quarantined_notes(request: Request, scope: Scope) -> list[tuple[MemoryRecord, list[str]]]:
    """Live notes tagged quarantined at write time, each with the scanner's reasons."""
    page = runtime(request).memory.list(scope, filter=Filter(tags=frozenset({QUARANTINE_TAG})), limit=MAX_QUARANTINED)
    return [(r, reasons(r)) for r in page.records]


@router.get("/review", response_class=HTMLResponse)
def review(request: Request, view: Page) -> Response:
    """Quarantined notes (release or delete) and held procedural writes (approve or reject)."""
    rt = runtime(request)
    return render(
        request,
        "review.html",
        **base(request, view, title="Review"),
        notes=quarantined_notes(request, view.scope),
        pending=rt.memory.pending(view.scope),
        message=request.query_params.get("done"),
        with_user=with_user,
    )


@router.post("/review/notes/{record_id}/release")
def release(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """Release the note: ``Memory.release`` where it exists, else drop the tag (a new version, audited)."""
    rt = runtime(request)
    rec = rt.memory.get(view.scope, record_id)
    if QUARANTINE_TAG not in rec.tags:
        raise ValidationError("record", "is not quarantined; nothing to release", given=record_id)
    released = getattr(rt.memory, "release", None)  # Memory.release, where the write path stores verdicts
    if released is not None:
        released(view.scope, record_id, actor=view.principal.credential)
        return RedirectResponse(with_user(view, "/ui/review", done="Released."), status_code=303)
    tags = [t for t in rec.tags if t != QUARANTINE_TAG]
    revise(
        rt.memory.store,
        rt.memory.embedder,
        view.scope,
        record_id,
        tags=tags,
        op="release",
        detail="released from quarantine",
        actor=view.principal.credential,
        now=utcnow(),
    )
    return RedirectResponse(with_user(view, "/ui/review", done="Released."), status_code=303)


@router.post("/review/notes/{record_id}/delete")
def delete(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """Forget a quarantined note."""
    runtime(request).memory.forget(view.scope, record_id)
    return RedirectResponse(with_user(view, "/ui/review", done="Deleted."), status_code=303)


@router.post("/review/pending/{pending_id}/approve")
def approve(request: Request, pending_id: str, view: Page, form: Form) -> Response:
    """Store the held write."""
    result = runtime(request).memory.approve(view.scope, pending_id, actor=view.principal.credential)
    return RedirectResponse(with_user(view, "/ui/review", done=f"Approved: stored as {result.record.id}."), 303)


@router.post("/review/pending/{pending_id}/reject")
def reject(request: Request, pending_id: str, view: Page, form: Form) -> Response:
    """Drop the held write."""
    runtime(request).memory.reject(view.scope, pending_id)
    return RedirectResponse(with_user(view, "/ui/review", done="Rejected."), status_code=303)


# -- erase ------------------------------------------------------------------------------------------------


@router.get("/erase", response_class=HTMLResponse)
def erase_form(request: Request, view: Page) -> Response:
    """The erase form (admins only): pick a user and type its name to confirm."""
    if not view.admin:
        return render(request, "error.html", 403, title="Refused", message="Erasing a user needs an admin key.")
    return render(request, "erase.html", **base(request, view, title="Erase"), report=None, verify=None, error=None)


@router.post("/erase", response_class=HTMLResponse)
def erase(request: Request, view: Page, form: Form) -> Response:
    """Erase the user when the typed confirmation matches; show the report and the verify step."""
    if not view.admin:
        return render(request, "error.html", 403, title="Refused", message="Erasing a user needs an admin key.")
    target, typed = form.get("target", ""), form.get("confirm", "")
    if not target or typed != target:
        error = f"Type the user's name exactly to confirm (you typed {typed!r} for {target!r})."
        return render(
            request, "erase.html", 422, **base(request, view, title="Erase"), report=None, verify=None, error=error
        )
    if target == view.principal.user:
        raise ValidationError("target", "is the signed-in admin itself; erase it with another admin key", given=target)
    rt = runtime(request)
    scope = Scope(view.principal.tenant, target)
    probes = file_probes(rt, scope)
    report = rt.memory.erase(view.principal.tenant, target, actor=view.principal.credential)
    rt.credentials.clear()
    ended = sessions(request).end_user(view.principal.tenant, target)
    exported = rt.memory.export(scope)
    left = found_in_file(rt, probes)
    verify = {
        "records left": rt.memory.store.count(scope),
        "exported records": len(exported.get("records", [])),
        "held writes left": len(rt.memory.pending(scope)),
        "browser sessions ended": ended,
    }
    if left is not None:
        verify[f"of {len(probes)} texts of the user, found in the database file"] = left
    return render(
        request,
        "erase.html",
        **base(request, view, title="Erase"),
        report=report,
        verify=verify,
        error=None,
        target=target,
    )
