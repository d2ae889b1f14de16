"""(internal) Inspector pages: sign-in and out, the memories table with search and score bars, one record."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from tiermem.errors import AccessError, ValidationError
from tiermem.lifecycle.revise import revise
from tiermem.server.ui.session import COOKIE
from tiermem.server.ui.web import Form, Page, UIRoute, Viewer, render, runtime, sessions, set_cookie
from tiermem.trust.injection import quarantined
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, SourceKind, utcnow

__all__ = ["flags", "router", "users_of"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
PAGE_SIZE = 25


def flags(record: MemoryRecord) -> list[str]:
    """What the table marks: untrusted source, quarantined, superseded."""
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


def base(request: Request, view: Viewer, **more: Any) -> dict[str, Any]:
    """What every signed-in page's layout needs."""
    return {"view": view, "users": users_of(request, view), "path": request.url.path, **more}


def day(text: str | None, *, end: bool = False) -> datetime | None:
    """A date field as the start (or end) of that day in UTC; None when empty; ValidationError when malformed."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise ValidationError("date", "must be YYYY-MM-DD or YYYY-MM-DDTHH:MM", given=text) from None
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
def login_form(request: Request) -> Response:
    """The sign-in form (an anonymous session carries its CSRF token)."""
    session = sessions(request).get(request.cookies.get(COOKIE)) or sessions(request).new()
    response = render(request, "login.html", csrf=session.csrf, error=None)
    set_cookie(request, response, session)
    return response


@router.post("/login")
async def login(request: Request, form: Form) -> Response:
    """Verify the key (or JWT) with the service's own check, then start a fresh session."""
    rt = runtime(request)
    old = sessions(request).get(request.cookies.get(COOKIE))
    header = "Bearer " + form.get("credential", "").strip()
    client = request.client.host if request.client else None
    try:
        principal = await run_in_threadpool(rt.auth.verify, header, client)
    except AccessError:
        assert old is not None  # the CSRF check found it
        return render(request, "login.html", 401, csrf=old.csrf, error="That key or token is not valid.")
    if old is not None:
        sessions(request).end(old)
    session = sessions(request).new(principal, header)
    response = RedirectResponse("/ui/", status_code=303)
    set_cookie(request, response, session)
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


# -- memories ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bar:
    """One score part drawn as a bar: its share of the largest such part on the page (0..100)."""

    name: str
    rank: int | None
    raw: float | None
    contribution: float
    width: int


def bars(hits: list[Hit]) -> list[list[Bar]]:
    """Each hit's parts, each bar scaled to the largest contribution of that part among the hits."""
    top: dict[str, float] = {}
    for hit in hits:
        for p in hit.parts:
            top[p.name] = max(top.get(p.name, 0.0), abs(p.contribution))
    return [
        [
            Bar(
                p.name,
                p.rank,
                p.raw,
                p.contribution,
                round(100 * abs(p.contribution) / top[p.name]) if top[p.name] else 0,
            )
            for p in hit.parts
        ]
        for hit in hits
    ]


def _choice(enum: type[MemoryType] | type[SourceKind], text: str | None) -> frozenset[Any]:
    if not text:
        return frozenset()
    try:
        return frozenset({enum(text)})
    except ValueError:
        raise ValidationError(enum.__name__, "is not one of " + ", ".join(e.value for e in enum), given=text) from None


@router.get("/memories", response_class=HTMLResponse)
def memories(request: Request, view: Page) -> Response:
    """The table of live records with filters and cursor paging, or search hits with their score parts."""
    q = request.query_params
    filter_ = Filter(
        types=_choice(MemoryType, q.get("type")),
        sources=_choice(SourceKind, q.get("source")),
        tags=frozenset({q["tag"]}) if q.get("tag") else frozenset(),
        time_from=day(q.get("from")),
        time_to=day(q.get("to"), end=True),
    )
    rt = runtime(request)
    query = (q.get("q") or "").strip()
    hits: list[Hit] = []
    records: list[MemoryRecord] = []
    next_url = None
    if query:
        hits = rt.memory.recall(view.scope, query[: rt.settings.limits.max_query_chars], k=10, filter=filter_)
    else:
        cursor = q.get("cursor") or None
        page = rt.memory.list(view.scope, filter=filter_, limit=PAGE_SIZE, cursor=cursor)
        records = list(page.records)
        if page.next_cursor:
            keep = {k: q.get(k) for k in ("type", "source", "tag", "from", "to")}
            next_url = with_user(view, "/ui/memories", **keep, cursor=page.next_cursor)
    return render(
        request,
        "memories.html",
        **base(request, view, title="Memories"),
        q=q,
        query=query,
        hits=list(zip(hits, bars(hits), strict=True)),
        records=records,
        flags=flags,
        next_url=next_url,
        types=[t.value for t in MemoryType],
        sources=[s.value for s in SourceKind],
        with_user=with_user,
    )


# -- one record -------------------------------------------------------------------------------------------


def believed(chain: list[MemoryRecord], at: datetime) -> MemoryRecord | None:
    """The version of the fact that was valid at ``at`` (None: nothing yet, or no longer anything)."""
    for r in chain:
        if r.valid_from <= at and (r.valid_to is None or at < r.valid_to):
            return r
    return None


@router.get("/records/{record_id}", response_class=HTMLResponse)
def record(request: Request, record_id: str, view: Page) -> Response:
    """Content, metadata, the supersession chain on a timeline, as-of, versions and the audit trail."""
    rt = runtime(request)
    rec = rt.memory.get(view.scope, record_id)
    chain = rt.memory.history(view.scope, record_id)
    as_of_text = request.query_params.get("as_of") or ""
    as_of = day(as_of_text, end=True)
    audit = rt.memory.audit(view.scope, record_id)
    versions = sorted({e.version for e in audit if e.after is not None})
    return render(
        request,
        "record.html",
        **base(request, view, title="Record"),
        rec=rec,
        flags=flags(rec),
        chain=chain,
        timeline=timeline(chain),
        as_of=as_of_text,
        then=believed(chain, as_of) if as_of is not None else None,
        audit=audit,
        versions=[v for v in versions if v != rec.version],
        with_user=with_user,
        message=request.query_params.get("done"),
    )


@dataclass(frozen=True, slots=True)
class Span:
    """A record's validity on the timeline, as x and width in percent of the whole span."""

    record: MemoryRecord
    x: float
    width: float


def timeline(chain: list[MemoryRecord]) -> list[Span]:
    """Each version's validity from its start to its end (or now), laid out on one axis."""
    now = utcnow()
    start = min(r.valid_from for r in chain)
    end = max(max(r.valid_to or now for r in chain), start + timedelta(seconds=1))
    total = (end - start).total_seconds()
    spans = []
    for r in chain:
        x = (r.valid_from - start).total_seconds() / total * 100
        w = ((r.valid_to or now) - r.valid_from).total_seconds() / total * 100
        spans.append(Span(r, round(x, 2), round(max(w, 1.0), 2)))
    return spans


def _back(view: Viewer, record_id: str, done: str) -> Response:
    return RedirectResponse(with_user(view, f"/ui/records/{record_id}", done=done), status_code=303)


@router.post("/records/{record_id}/edit")
def edit(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """A new version with the edited text (roll back restores any earlier one)."""
    rt = runtime(request)
    text = form.get("content", "")
    if len(text) > rt.settings.limits.max_text_chars:
        raise ValidationError("content", "is too long", given=len(text), limit=rt.settings.limits.max_text_chars)
    rec = revise(
        rt.memory.store,
        rt.memory.embedder,
        view.scope,
        record_id,
        content=text,
        actor=view.principal.credential,
        now=utcnow(),
    )
    return _back(view, record_id, f"Saved as version {rec.version}.")


@router.post("/records/{record_id}/rollback")
def rollback(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """Restore an earlier version, as a new version."""
    version = form.get("version", "")
    if not version.isdigit():
        raise ValidationError("version", "must be a version number", given=version)
    rec = runtime(request).memory.rollback(view.scope, record_id, int(version), actor=view.principal.credential)
    return _back(view, record_id, f"Rolled back to version {version} (now version {rec.version}).")


@router.post("/records/{record_id}/forget")
def forget(request: Request, record_id: str, view: Page, form: Form) -> Response:
    """Delete the record and redact its audit trail."""
    runtime(request).memory.forget(view.scope, record_id)
    return RedirectResponse(with_user(view, "/ui/memories"), status_code=303)
