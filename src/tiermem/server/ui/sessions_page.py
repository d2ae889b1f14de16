"""(internal) Sessions: the list of a user's sessions, and one session as its agent saw it.

A session page puts side by side what was said (the transcript, oldest first), what recall added to the prompt
each reply answered (``context.trace``: the records, their flags, whether each was shown whole, cut or left
out), and the core blocks of the session's agent. Viewing reads only: it binds no session id to anyone (the
API binds a session to the first user who writes to it; a page that is merely looked at must not).
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tiermem.context.core import CoreMemory
from tiermem.context.messages import RECALL_TAG
from tiermem.context.trace import Recalled, recalled_of
from tiermem.server.ui.pages import base, context_store, find_session, flags
from tiermem.server.ui.web import Page, UIRoute, render, runtime
from tiermem.types import Filter, MemoryRecord, Scope, utcnow

__all__ = ["router"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
MAX_MESSAGES = 500


@dataclass(frozen=True, slots=True)
class Shown:
    """One recalled memory beside the reply whose prompt held it (``record`` None: forgotten since)."""

    trace: Recalled
    record: MemoryRecord | None


@dataclass(frozen=True, slots=True)
class Turn:
    """A message of the transcript and, for a reply of the agent loop, what recall put in its prompt (None: the
    message was not written by the agent loop, so nothing is known of a prompt)."""

    message: MemoryRecord
    recalled: tuple[Shown, ...] | None


def transcript(request: Request, scope: Scope) -> tuple[list[Turn], bool]:
    """The session's messages oldest first (at most MAX_MESSAGES, the newest), each reply with its recall."""
    store = runtime(request).memory.store
    only = Filter(tags=frozenset({RECALL_TAG}))
    page = store.list_records(scope, only, now=utcnow(), limit=MAX_MESSAGES, cursor=None)
    messages = list(reversed(page.records))
    traces = {m.id: recalled_of(m.metadata) for m in messages}
    wanted = list({t.record_id for traced in traces.values() for t in traced or ()})
    found = store.get_many(Scope(scope.tenant, scope.user), wanted) if wanted else {}
    turns = []
    for m in messages:
        traced = traces[m.id]
        shown = None if traced is None else tuple(Shown(t, found.get(t.record_id)) for t in traced)
        turns.append(Turn(m, shown))
    return turns, page.next_cursor is not None


@router.get("/sessions", response_class=HTMLResponse)
def sessions_list(request: Request, view: Page) -> Response:
    """The viewed user's sessions, latest first."""
    found = runtime(request).memory.store.list_sessions(view.scope)
    return render(request, "sessions.html", **base(request, view, title="Sessions"), sessions=found)


@router.get("/sessions/{session}", response_class=HTMLResponse)
def session_page(request: Request, session: str, view: Page) -> Response:
    """The transcript, what recall added to each prompt, and the agent's core blocks, side by side."""
    rt = runtime(request)
    found = find_session(request, view, session, request.query_params.get("agent") or None)
    scope = Scope(view.principal.tenant, view.user, found.agent, found.session)
    turns, cut = transcript(request, scope)
    agent_scope = Scope(scope.tenant, scope.user, scope.agent)
    core = CoreMemory(context_store(rt), agent_scope, counter=rt.counter, budget=rt.settings.core_budget)
    return render(
        request,
        "session.html",
        **base(request, view, title=f"Session {found.session}"),
        found=found,
        turns=turns,
        cut=cut,
        blocks=list(core.blocks),
        flags=flags,
    )
