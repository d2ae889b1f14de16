"""(internal) Inspector pages: sign-in and out, and what signed-in pages share (the layout's users and badge, a
user's sessions, dates and links)."""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any, cast
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from tiermem.errors import AccessError, NotFoundError
from tiermem.server.runtime import Runtime
from tiermem.server.ui.session import COOKIE, LOGIN_COOKIE
from tiermem.server.ui.web import (
    Form,
    LoginForm,
    Page,
    UIRoute,
    Viewer,
    render,
    runtime,
    sessions,
    set_cookie,
    set_login_cookie,
)
from tiermem.store.context_base import StoreWithContext
from tiermem.store.summary_base import SessionSummary
from tiermem.trust.injection import QUARANTINE_TAG, quarantined
from tiermem.types import Filter, MemoryRecord, Scope, iso_time, utcnow

__all__ = [
    "MAX_WAITING",
    "base",
    "context_store",
    "day",
    "find_session",
    "flags",
    "router",
    "users_of",
    "waiting",
    "with_user",
]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
MAX_WAITING = 200  # quarantined notes counted (and listed) per page


def flags(record: MemoryRecord) -> list[str]:
    """What a table marks: untrusted source, quarantined, superseded."""
    out = []
    if record.source.untrusted:
        out.append("untrusted")
    if quarantined(record):
        out.append("quarantined")
    if record.valid_to is not None:
        out.append("superseded")
    return out


def users_of(request: Request, view: Viewer) -> list[str]:
    """The users an admin may pick: those with keys or records in its tenant."""
    if not view.admin:
        return []
    rt = runtime(request)
    found = {k.user for k in rt.access.list_keys(view.principal.tenant) if k.user}
    found |= {s.user for s in rt.memory.store.iter_scopes() if s.tenant == view.principal.tenant and s.user}
    return sorted(found)


def quarantined_notes(request: Request, view: Viewer) -> list[MemoryRecord]:
    """Live notes tagged quarantined at write time (at most MAX_WAITING)."""
    only = Filter(tags=frozenset({QUARANTINE_TAG}))
    store = runtime(request).memory.store
    return list(store.list_records(view.scope, only, now=utcnow(), limit=MAX_WAITING, cursor=None).records)


def waiting(request: Request, view: Viewer) -> int:
    """What waits for review: quarantined notes and held writes of the viewed user."""
    return len(quarantined_notes(request, view)) + len(runtime(request).memory.pending(view.scope))


def context_store(rt: Runtime) -> StoreWithContext:
    """The store, as the keeper of core blocks and windows too (the server's stores all are)."""
    return cast(StoreWithContext, rt.memory.store)


def find_session(request: Request, view: Viewer, session: str, agent: str | None) -> SessionSummary:
    """The viewed user's session of that id (and agent, when given), read from its records; NotFoundError when
    the user has none. Reading binds nothing: only the API's writes claim a session id."""
    for found in runtime(request).memory.store.list_sessions(Scope(view.principal.tenant, view.user, agent)):
        if found.session == session:
            return found
    raise NotFoundError(f"no session {session}")


def base(request: Request, view: Viewer, **more: Any) -> dict[str, Any]:
    """What every signed-in page's layout needs: the users to pick, the review badge, the current path."""
    return {
        "view": view,
        "users": users_of(request, view),
        "waiting": waiting(request, view),
        "path": request.url.path,
        "with_user": with_user,
        **more,
    }


def day(text: str | None, *, end: bool = False, field: str = "date") -> datetime | None:
    """A date field as the start (or end) of that day in UTC; None when empty; ValidationError when malformed."""
    if not text:
        return None
    value = iso_time(field, text, "must be YYYY-MM-DD or YYYY-MM-DDTHH:MM")
    if len(text) == 10:
        value = datetime.combine(value.date(), time.max if end else time.min)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def with_user(view: Viewer, url: str, **params: str | None) -> str:
    """A URL with the viewed user (for admins) and the given parameters."""
    query = {k: v for k, v in params.items() if v}
    if view.admin and view.user:
        query["user"] = view.user
    return url + ("?" + urlencode(query) if query else "")


# -- sign-in ----------------------------------------------------------------------------------------------


@router.get("/login", response_class=HTMLResponse)
async def login_form(request: Request) -> Response:
    """The sign-in form; a browser already signed in goes on to its pages (its cookie is never replaced).

    A coroutine: it reads only this process's memory, so it needs no trip to the thread pool."""
    if sessions(request).get(request.cookies.get(COOKIE)) is not None:
        return RedirectResponse("/ui/", status_code=303)
    cookie, csrf = sessions(request).login_form(request.cookies.get(LOGIN_COOKIE))
    response = render(request, "login.html", csrf=csrf, error=None)
    set_login_cookie(request, response, cookie)
    return response


@router.post("/login")
async def login(request: Request, form: LoginForm) -> Response:
    """Verify the key (or JWT) with the service's own check, then start a fresh session."""
    rt = runtime(request)
    header = "Bearer " + form.get("credential", "").strip()
    client = request.client.host if request.client else None
    try:
        principal = await rt.auth.verified(header, client)
    except AccessError:
        return render(request, "login.html", 401, csrf=form.get("csrf", ""), error="That key or token is not valid.")
    old = sessions(request).get(request.cookies.get(COOKIE))
    if old is not None:
        sessions(request).end(old)
    session = sessions(request).new(principal, header)
    response = RedirectResponse("/ui/", status_code=303)
    set_cookie(request, response, session)
    response.delete_cookie(LOGIN_COOKIE, path="/ui/login")
    return response


@router.post("/logout")
def logout(request: Request, view: Page, form: Form) -> Response:
    """End the session and drop the cookie."""
    sessions(request).end(view.session)
    response = RedirectResponse("/ui/login", status_code=303)
    response.delete_cookie(COOKIE, path="/ui")
    return response


@router.get("/")
def home(view: Page) -> Response:
    """The memories page."""
    return RedirectResponse(with_user(view, "/ui/memories"), status_code=303)
