"""(internal) Review: quarantined notes and held writes, each with the scanner's verdict, score and reasons.

Every action asks first: a button (or a ticked selection, for several at once) leads to a confirmation page
that lists exactly what will change, with the same verdicts; only its own form changes anything. Approving,
rejecting, releasing and deleting go through ``Memory`` (approve, reject, release, forget), so the library's
guards and audit apply as they do through any other door.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from tiermem.errors import ValidationError
from tiermem.server.ui.pages import MAX_WAITING, base, quarantined_notes, with_user
from tiermem.server.ui.web import Form, Page, Posted, UIRoute, Viewer, render, runtime
from tiermem.store import PendingWrite
from tiermem.trust.injection import REASONS_KEY, SCORE_KEY, VERDICT_KEY, injection_score
from tiermem.types import MemoryRecord, MetaValue

__all__ = ["Verdict", "router", "verdict_of"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
ACTIONS = {"release": "note", "delete": "note", "approve": "held", "reject": "held"}
DONE = {"release": "released", "delete": "deleted", "approve": "approved", "reject": "rejected"}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The injection scanner's judgement of a text: its level, score and reasons, and whether it was stored at
    write time or is the scanner's reading now (for a note written before write-time scanning)."""

    level: str
    score: float | None
    reasons: tuple[str, ...]
    stored: bool


def verdict_of(metadata: Any, content: str) -> Verdict:
    """The verdict stored in ``metadata`` (``injection_verdict``, ``injection_score``, ``injection_reasons``),
    else the scanner's reading of ``content`` now."""
    meta: dict[str, MetaValue] = dict(metadata) if isinstance(metadata, Mapping) else {}
    level = meta.get(VERDICT_KEY)
    if isinstance(level, str):
        score = meta.get(SCORE_KEY)
        reasons = meta.get(REASONS_KEY)
        listed = tuple(r for r in reasons.split("; ") if r) if isinstance(reasons, str) else ()
        number = float(score) if isinstance(score, int | float) and not isinstance(score, bool) else None
        return Verdict(level, number, listed, True)
    now = injection_score(content)
    return Verdict("not judged when written", now.score, tuple(now.reasons), False)


@dataclass(frozen=True, slots=True)
class Item:
    """A note or a held write as the review pages show it."""

    kind: str  # "note" or "held"
    id: str
    content: str
    what: str  # type and source
    when: str
    record_id: str | None
    reason: str
    verdict: Verdict


def _note(record: MemoryRecord) -> Item:
    what = f"{record.type.value} · {record.source}"
    when = record.created_at.strftime("%Y-%m-%d %H:%M")
    verdict = verdict_of(record.metadata, record.content)
    return Item("note", record.id, record.content, what, when, record.id, "", verdict)


def _held(pending: PendingWrite) -> Item:
    rec = pending.record
    content = str(rec.get("content") or "")
    what = f"{rec.get('type')} · {rec.get('source')}"
    verdict = verdict_of(rec.get("metadata") or {}, content)
    when = pending.created_at.strftime("%Y-%m-%d %H:%M")
    return Item("held", pending.id, content, what, when, None, pending.reason, verdict)


def items(request: Request, view: Viewer) -> tuple[list[Item], list[Item]]:
    """The quarantined notes and the held writes of the viewed user."""
    notes = [_note(r) for r in quarantined_notes(request, view)]
    held = [_held(p) for p in runtime(request).memory.pending(view.scope)[:MAX_WAITING]]
    return notes, held


@router.get("/review", response_class=HTMLResponse)
def review(request: Request, view: Page) -> Response:
    """Quarantined notes (release or delete) and held writes (approve or reject), each with its verdict."""
    notes, held = items(request, view)
    return render(request, "review.html", **base(request, view, title="Review"), notes=notes, held=held)


def _chosen(form: Posted) -> tuple[str, list[str]]:
    """The action and the ids a review form asks for: one item's button, or a bulk button and the ticked ids."""
    one = form.get("item", "")
    if one:
        action, _, single = one.partition(":")
        ids = [single]
    else:
        action, ids = form.get("action", ""), form.every("id")
    if action not in ACTIONS:
        raise ValidationError("action", "must be one of " + ", ".join(ACTIONS), given=action)
    if len(ids) > MAX_WAITING:
        raise ValidationError("id", "too many items at once", given=len(ids), limit=MAX_WAITING)
    return action, [i for i in ids if i]


@router.post("/review/confirm", response_class=HTMLResponse)
def confirm(request: Request, view: Page, form: Form) -> Response:
    """What the chosen action would change, with the verdicts, and one form that does it."""
    action, ids = _chosen(form)
    if not ids:
        return RedirectResponse(with_user(view, "/ui/review", done="nothing-chosen"), status_code=303)
    notes, held = items(request, view)
    pool = {i.id: i for i in (notes if ACTIONS[action] == "note" else held)}
    missing = [i for i in ids if i not in pool]
    if missing:
        raise ValidationError("id", f"is not waiting for review ({len(missing)} of {len(ids)})", given=missing[0])
    chosen = [pool[i] for i in ids]
    return render(request, "review_confirm.html", **base(request, view, title="Confirm"), action=action, chosen=chosen)


@router.post("/review/apply")
def apply(request: Request, view: Page, form: Form) -> Response:
    """Carry out a confirmed action on each chosen item."""
    action, ids = _chosen(form)
    mem = runtime(request).memory
    for i in ids:
        if action == "release":
            mem.release(view.scope, i, actor=view.principal.credential)
        elif action == "delete":
            mem.forget(view.scope, i)
        elif action == "approve":
            mem.approve(view.scope, i, actor=view.principal.credential)
        else:
            mem.reject(view.scope, i)
    return RedirectResponse(with_user(view, "/ui/review", done=DONE[action]), status_code=303)
