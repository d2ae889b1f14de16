"""(internal) The inspector's erase page: a user's memory removed wholesale (review is ``review_queue``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tiermem.errors import ValidationError, shown
from tiermem.server.runtime import Runtime
from tiermem.server.ui.pages import base
from tiermem.server.ui.web import Form, Page, UIRoute, error_page, render, runtime, sessions
from tiermem.types import Scope

__all__ = ["router"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
MAX_PROBES = 200


def file_probes(rt: Runtime, scope: Scope) -> list[bytes]:
    """Texts of the user's records, to look for in the database file's bytes after the erase."""
    page = rt.memory.list(scope, limit=MAX_PROBES)
    return [r.content.encode() for r in page.records if len(r.content) >= 8]


def found_in_file(rt: Runtime, probes: list[bytes]) -> int | None:
    """How many probes still occur in the database's files (None: the store has no files to read)."""
    left = rt.memory.store.residue(probes)
    return None if left is None else len(left)


# -- erase ------------------------------------------------------------------------------------------------


@router.get("/erase", response_class=HTMLResponse)
def erase_form(request: Request, view: Page) -> Response:
    """The erase form (admins only): pick a user and type its name to confirm."""
    if not view.admin:
        return error_page(request, 403, "Refused", "Erasing a user needs an admin key.")
    return render(request, "erase.html", **base(request, view, title="Erase"), report=None, verify=None, error=None)


@router.post("/erase", response_class=HTMLResponse)
def erase(request: Request, view: Page, form: Form) -> Response:
    """Erase the user when the typed confirmation matches; show the report and the verify step."""
    if not view.admin:
        return error_page(request, 403, "Refused", "Erasing a user needs an admin key.")
    target, typed = form.get("target", ""), form.get("confirm", "")
    if not target or typed != target:
        # Both fields are free text a careless admin may paste anything into: judged as any error's given value.
        error = f"Type the user's name exactly to confirm (you typed {shown(typed)!r} for {shown(target)!r})."
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
