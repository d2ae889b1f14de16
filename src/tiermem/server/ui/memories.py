"""(internal) The memories page: the records of a user with filters, as-of and toggles, or search hits with parts.

Chat turns (records tagged ``recall``: every message a conversation stored) are left out unless asked for, so
the facts and events are not buried under a transcript; sessions have their own pages. Superseded records
(validity closed by a newer fact) and quarantined notes are shown only when their toggles are on; "as of" lists
(and searches) what was valid on that day.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tiermem.context.messages import RECALL_TAG
from tiermem.errors import ValidationError
from tiermem.server.ui.pages import base, day, flags, with_user
from tiermem.server.ui.scores import steps
from tiermem.server.ui.web import Page, UIRoute, Viewer, render, runtime
from tiermem.trust.injection import QUARANTINE_TAG
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, SourceKind, including_closed, utcnow

__all__ = ["router"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
PAGE_SIZE = 25
HITS = 10
TOGGLES = ("chat", "superseded", "quarantined")
KEPT = ("q", "type", "source", "tag", "from", "to", "as_of", *TOGGLES)


def _choice(enum: type[MemoryType] | type[SourceKind], text: str | None) -> frozenset[Any]:
    if not text:
        return frozenset()
    try:
        return frozenset({enum(text)})
    except ValueError:  # raised below, outside the handler: its error quotes the value and must not be the context
        pass
    raise ValidationError(enum.__name__, "is not one of " + ", ".join(e.value for e in enum), given=text)


def _filter(q: Any) -> Filter:
    return Filter(
        types=_choice(MemoryType, q.get("type")),
        sources=_choice(SourceKind, q.get("source")),
        tags=frozenset({q["tag"]}) if q.get("tag") else frozenset(),
        time_from=day(q.get("from"), field="from"),
        time_to=day(q.get("to"), end=True, field="to"),
        as_of=day(q.get("as_of"), end=True, field="as_of"),
    )


def _search(request: Request, view: Viewer, query: str, filter_: Filter, shown: set[str]) -> list[Hit]:
    """The best hits; chat turns are dropped unless shown, from a deeper search so that as many remain."""
    rt = runtime(request)
    text = query[: rt.settings.limits.max_query_chars]
    k = HITS if "chat" in shown else 3 * HITS
    hits = rt.memory.recall(view.scope, text, k=k, filter=filter_, include_quarantined="quarantined" in shown)
    if "chat" not in shown:
        hits = [h for h in hits if RECALL_TAG not in h.record.tags]
    return hits[:HITS]


def _listed(request: Request, view: Viewer, filter_: Filter, shown: set[str]) -> tuple[list[MemoryRecord], str | None]:
    cursor = request.query_params.get("cursor") or None  # the store checks it (``sql_where.cursor_position``)
    left_out = {tag for toggle, tag in (("chat", RECALL_TAG), ("quarantined", QUARANTINE_TAG)) if toggle not in shown}
    wanted = including_closed(filter_) if "superseded" in shown else filter_
    page = runtime(request).memory.store.list_records(
        view.scope, wanted, now=utcnow(), limit=PAGE_SIZE, cursor=cursor, without_tags=frozenset(left_out)
    )
    return list(page.records), page.next_cursor


def superseded_by(request: Request, view: Viewer, records: list[MemoryRecord]) -> dict[str, MemoryRecord]:
    """For each closed record, the record that superseded it (the first, where several did)."""
    closed = [r.id for r in records if r.valid_to is not None]
    if not closed:
        return {}
    found = runtime(request).memory.store.successors(view.scope, closed)
    return {rid: later[0] for rid, later in found.items() if later}


@router.get("/memories", response_class=HTMLResponse)
def memories(request: Request, view: Page) -> Response:
    """The table of records with filters, as-of, toggles and cursor paging, or search hits with score steps."""
    q = request.query_params
    filter_ = _filter(q)
    shown = {t for t in TOGGLES if q.get(t)}
    query = (q.get("q") or "").strip()
    hits: list[Hit] = []
    records: list[MemoryRecord] = []
    next_url = None
    if query:
        hits = _search(request, view, query, filter_, shown)
    else:
        records, cursor = _listed(request, view, filter_, shown)
        if cursor:
            next_url = with_user(view, "/ui/memories", **{k: q.get(k) for k in KEPT}, cursor=cursor)
    scored = steps(hits)
    return render(
        request,
        "memories.html",
        **base(request, view, title="Memories"),
        q=q,
        query=query,
        shown=shown,
        hits=list(zip(hits, scored.rows, strict=True)),
        top=scored.top,
        records=records,
        successor=superseded_by(request, view, records),
        flags=flags,
        next_url=next_url,
        types=[t.value for t in MemoryType],
        sources=[s.value for s in SourceKind],
    )
