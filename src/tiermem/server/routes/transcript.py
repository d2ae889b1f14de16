"""(internal) POST /v1/sessions/{session}/transcript: store a batch of a session's messages (``remember_messages``).

For replaying a conversation after the fact: each message may carry its ``created_at`` (when it was said) and
its own ``id``; re-sending a transcript, or one with turns appended, stores only the new turns. The session is
bound to the first user who names it (another user's session is 404, as everywhere). Every message is
validated before anything is stored, and errors name it: ``messages[3].created_at``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from tiermem.server.auth import scope_for
from tiermem.server.deps import Caller, Rt, ScopeAgent, check_limit
from tiermem.server.models import ID_PATTERN, SCOPE_PATTERN, Moment, Text, WriteOut
from tiermem.types import MAX_SCOPE_PART
from tiermem.write.conversation import CONTEXT_TURNS, MAX_CONTEXT_TURNS
from tiermem.write.path import MAX_BATCH, MAX_CONTENT_CHARS, WriteStatus

__all__ = ["TranscriptIn", "TranscriptMessageIn", "TranscriptOut", "router"]

router = APIRouter(prefix="/v1", tags=["sessions"])
SessionId = Annotated[str, Path(pattern=SCOPE_PATTERN, max_length=MAX_SCOPE_PART, description="A session id.")]
Name = Annotated[Text, StringConstraints(min_length=1, max_length=200)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TranscriptMessageIn(_In):
    """One message as said: who said it, what, and (optionally) when and under which id of the caller's."""

    role: Literal["user", "assistant", "tool", "system"]
    content: Annotated[Text, Field(min_length=1, max_length=MAX_CONTENT_CHARS)]
    name: Name | None = Field(None, description="the speaker's name: a named user's text is stored 'Ann: ...'")
    created_at: Moment | None = Field(None, description="when it was said (default: now)")
    id: Annotated[str, StringConstraints(pattern=ID_PATTERN)] | None = Field(
        None, description="the caller's message id: a re-sent message with the same id is not stored twice"
    )


class TranscriptIn(_In):
    """A batch of a session's messages, oldest first."""

    messages: list[TranscriptMessageIn] = Field(min_length=1, max_length=MAX_BATCH)
    context_turns: int = Field(
        CONTEXT_TURNS, ge=0, le=MAX_CONTEXT_TURNS, description="earlier turns indexed with each message"
    )


class TranscriptOut(BaseModel):
    """What was stored: one result per record, in order (an over-long message is several records)."""

    session: str
    written: int
    skipped: int
    record_ids: list[str]
    results: list[WriteOut]


@router.post(
    "/sessions/{session}/transcript",
    status_code=201,
    response_model=TranscriptOut,
    summary="Store a session's messages",
)
def transcript(
    session: SessionId, body: TranscriptIn, runtime: Rt, principal: Caller, scope: ScopeAgent
) -> dict[str, Any]:
    """Each message an episodic record with its speaker, time and session; already stored turns are skipped."""
    limits = runtime.settings.limits
    check_limit("messages", len(body.messages), limits.max_batch, " (messages per batch)")
    for i, message in enumerate(body.messages):
        check_limit(f"messages[{i}].content", len(message.content), limits.max_text_chars, " (characters)")
    full = scope_for(runtime.access, principal, user=scope.user, agent=scope.agent, session=session)
    messages = [m.model_dump(exclude_none=True) for m in body.messages]
    results = runtime.memory.remember_messages(full, messages, context_turns=body.context_turns)
    skipped = sum(r.status is WriteStatus.UNCHANGED for r in results)
    return {
        "session": session,
        "written": len(results) - skipped,
        "skipped": skipped,
        "record_ids": [r.record.id for r in results],
        "results": [r.to_dict() for r in results],
    }
