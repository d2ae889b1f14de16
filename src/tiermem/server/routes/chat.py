"""(internal) Chat: ``POST /v1/sessions/{session}/messages`` runs one agent turn against the configured model.

The reply comes back as JSON, or as server-sent events with ``Accept: text/event-stream``: one ``tool_call``
event per tool the agent ran, one ``message`` event with the whole reply (the model client does not stream
tokens, so the text arrives as one chunk), then ``done``. The turn runs before the first byte is sent, so a
model that is missing (503) or unreachable (502) still gets a problem+json answer, streaming or not.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from tiermem.agent.loop import AgentTurn
from tiermem.server.auth import scope_for
from tiermem.server.deps import Caller, Rt, ScopeAgent, check_limit
from tiermem.server.models import SCOPE_PATTERN, Moment, Text
from tiermem.server.problems import problem
from tiermem.types import MAX_SCOPE_PART
from tiermem.write.path import MAX_CONTENT_CHARS

__all__ = ["ChatIn", "ChatOut", "router"]

router = APIRouter(prefix="/v1", tags=["sessions"])
SessionId = Annotated[str, Path(pattern=SCOPE_PATTERN, max_length=MAX_SCOPE_PART)]
SSE = "text/event-stream"


class ChatIn(BaseModel):
    """One user message."""

    model_config = ConfigDict(extra="forbid")
    text: Annotated[Text, Field(min_length=1, max_length=MAX_CONTENT_CHARS, pattern=r"\S")]
    now: Moment | None = Field(None, description="When the message was said (replaying a past conversation).")


class ToolRunOut(BaseModel):
    """A tool the agent called during the turn, and what it got back."""

    id: str
    name: str
    arguments: str
    result: str
    ok: bool


class ChatOut(BaseModel):
    """The agent's reply and what it did to get there."""

    session: str
    reply: str
    tool_calls: list[ToolRunOut]
    model_calls: int
    stopped_at_limit: bool


def _out(session: str, turn: AgentTurn) -> dict[str, Any]:
    runs = [
        {"id": r.call_id, "name": r.name, "arguments": r.arguments, "result": r.result, "ok": r.ok}
        for r in turn.tool_runs
    ]
    return {
        "session": session,
        "reply": turn.reply,
        "tool_calls": runs,
        "model_calls": turn.steps,
        "stopped_at_limit": turn.stopped_at_limit,
    }


def _events(body: dict[str, Any]) -> Iterator[str]:
    for run in body["tool_calls"]:
        yield f"event: tool_call\ndata: {json.dumps(run, ensure_ascii=False)}\n\n"
    yield f"event: message\ndata: {json.dumps({'text': body['reply']}, ensure_ascii=False)}\n\n"
    yield f"event: done\ndata: {json.dumps({k: v for k, v in body.items() if k != 'tool_calls'})}\n\n"


@router.post(
    "/sessions/{session}/messages",
    response_model=ChatOut,
    summary="Chat: one agent turn",
    responses={200: {"content": {SSE: {"schema": {"type": "string"}}}}},
)
async def chat(
    session: SessionId,
    body: ChatIn,
    request: Request,
    runtime: Rt,
    principal: Caller,
    scope: ScopeAgent,
    accept: Annotated[str | None, Header(max_length=1000)] = None,
    idempotency_key: Annotated[
        str | None, Header(max_length=255, description="Retry safely: the same key gets the first answer.")
    ] = None,
) -> Any:
    """The agent answers the message with its context window, core memory and recall of earlier sessions.

    A turn whose model call fails (502) leaves the session as if the message had not been sent; one that lost its
    session while it ran (it stalled past its lease and another turn took over: 409) keeps its message, as a
    crashed one does. With an ``Idempotency-Key``, a retry gets the first answer; and the user's message takes its
    id from the key, so a turn cut short by a crash or a lost session is not stored twice by its retry."""
    check_limit("text", len(body.text), runtime.settings.limits.max_text_chars, " on characters")
    full = await run_in_threadpool(
        scope_for, runtime.access, principal, user=scope.user, agent=scope.agent, session=session
    )
    if runtime.chat.llm is None:
        detail = "no chat model is configured: start the server with --llm-url URL --llm-model NAME"
        return problem(503, detail, request=request, field="llm_url", given=None)
    said = None if idempotency_key is None else "turn-" + hashlib.sha256(idempotency_key.encode()).hexdigest()[:32]
    turn = await run_in_threadpool(runtime.chat.turn, full, body.text, now=body.now, message_id=said)
    out = _out(session, turn)
    if accept is not None and SSE in accept:
        return StreamingResponse(_events(out), media_type=SSE, headers={"Cache-Control": "no-store"})
    return out
