"""(internal) The inspector's context page: a session's window as one stacked bar, core blocks, what was paged out.

The server keeps no system prompt or window size of its own (each agent brings them), so the page takes the
window size and the reserves as inputs (defaulting to the budget docs' worked example) and measures what is
stored: core blocks (the ``summary`` block apart), the messages in the saved window, and the session's messages
that were paged out to recall. The session is picked from the user's sessions; looking binds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from tiermem.context.core import CoreMemory
from tiermem.context.messages import message_from_record, message_tokens
from tiermem.errors import ValidationError, shown
from tiermem.server.runtime import Runtime
from tiermem.server.ui.pages import base, context_store, find_session, with_user
from tiermem.server.ui.web import Form, Page, UIRoute, Viewer, render, runtime
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope, utcnow
from tiermem.write.gate import refuse_credentials_in

__all__ = ["router"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
DEFAULTS = {"window": 8000, "system": 600, "output": 1000, "retrieval": 500}
SUMMARY = "summary"
MAX_PAGED = 200


@dataclass(frozen=True, slots=True)
class Segment:
    """One part of the window: its tokens and where it sits on the bar (x and width, in percent)."""

    name: str
    tokens: int
    x: float
    width: float


def segments(window: int, parts: list[tuple[str, int]]) -> list[Segment]:
    """The parts laid end to end, then ``free`` for what is left of ``window`` (never below zero)."""
    used = sum(t for _, t in parts)
    scale = max(window, used) or 1
    out, x = [], 0.0
    for name, tokens in [*parts, ("free", max(window - used, 0))]:
        width = 100 * tokens / scale
        out.append(Segment(name, tokens, round(x, 3), round(width, 3)))
        x += width
    return out


def _number(text: str | None, field: str, default: int) -> int:
    if not text:
        return default
    if not text.isdigit() or not 0 <= int(text) <= 10_000_000:
        raise ValidationError(field, "must be a whole number of tokens from 0 to 10,000,000", given=text)
    return int(text)


def _core(rt: Runtime, scope: Scope) -> CoreMemory:
    return CoreMemory(context_store(rt), scope, counter=rt.counter, budget=rt.settings.core_budget)


def _scopes(request: Request, view: Viewer, session: str, agent: str | None) -> tuple[Scope, Scope | None]:
    """The agent's scope (core blocks) and the session's (its window): a session of the viewed user's, read
    from its records, never bound (looking at a page claims nothing)."""
    if not session:
        return Scope(view.principal.tenant, view.user, agent), None
    found = find_session(request, view, session, agent)
    full = Scope(view.principal.tenant, view.user, found.agent, found.session)
    return Scope(full.tenant, full.user, full.agent), full


@router.get("/context", response_class=HTMLResponse)
def context(request: Request, view: Page) -> Response:
    """The stacked bar, the core blocks with their versions and editors, and the paged-out messages."""
    q = request.query_params
    rt = runtime(request)
    session, agent = (q.get("session") or "").strip(), (q.get("agent") or "").strip() or None
    sizes = {k: _number(q.get(k), k, v) for k, v in DEFAULTS.items()}
    agent_scope, full = _scopes(request, view, session, agent)
    core = _core(rt, agent_scope)
    blocks = list(core.blocks)
    summary = sum(rt.counter.count(b.value) for b in blocks if b.name == SUMMARY)
    in_window: list[MemoryRecord] = []
    paged: list[MemoryRecord] = []
    saved_at = None
    if full is not None:
        state = context_store(rt).load_context_window(full)
        ids = list(state.message_ids) if state is not None else []
        saved_at = state.updated_at if state is not None else None
        found = rt.memory.store.get_many(full, ids)
        in_window = [found[i] for i in ids if i in found]
        listed = rt.memory.list(full, filter=Filter(types=frozenset({MemoryType.EPISODIC})), limit=MAX_PAGED)
        paged = sorted((r for r in listed.records if r.id not in set(ids)), key=lambda r: r.created_at)
    message_cost = sum(message_tokens(message_from_record(r), rt.counter) for r in in_window)
    parts = [
        ("system", sizes["system"]),
        ("core", max(core.tokens - summary, 0)),
        ("summary", summary),
        ("messages", message_cost),
        ("retrieved", sizes["retrieval"]),
        ("output", sizes["output"]),
    ]
    return render(
        request,
        "context.html",
        **base(request, view, title="Context"),
        session=session,
        sessions=rt.memory.store.list_sessions(view.scope),
        agent=agent_scope.agent or "",
        sizes=sizes,
        bar=segments(sizes["window"], parts),
        blocks=blocks,
        core_budget=rt.settings.core_budget,
        in_window=in_window,
        paged=paged,
        saved_at=saved_at,
        stale=None,
    )


@router.post("/context/core/{name}", response_class=HTMLResponse)
def edit_block(request: Request, name: str, view: Page, form: Form) -> Response:
    """Rewrite a block if it is still at the version the editor read; otherwise refuse and keep the text."""
    rt = runtime(request)
    agent = form.get("agent") or None
    scope = Scope(view.principal.tenant, view.user, agent)
    core = _core(rt, scope)
    block = core.get(name)
    read = form.get("version", "")
    value = form.get("value", "")
    if read != str(block.version):
        # The kept text is shown again: one holding a credential is refused (and audited) as a save would be.
        actor = view.principal.credential
        refuse_credentials_in(rt.memory.store, scope, [(f"core.{name}", value)], actor, utcnow())
        message = (
            f"Not saved: block '{name}' changed since you opened it (you edited version {shown(read)}, it is now at "
            f"version {block.version}). Your text is below; reload to see the current one and apply it again."
        )
        return render(
            request,
            "stale.html",
            409,
            **base(request, view, title="Context"),
            stale_message=message,
            value=value,
            name=name,
            agent=agent or "",
            session=form.get("session", ""),
        )
    core.rewrite(name, value, actor=view.principal.credential)
    return RedirectResponse(
        with_user(view, "/ui/context", session=form.get("session"), agent=agent, done="block-saved"), status_code=303
    )
