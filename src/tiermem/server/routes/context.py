"""(internal) Held writes (/v1/pending), core blocks (/v1/core) and a session's messages (/v1/sessions).

Core blocks carry their version as a strong ETag. A replace must send ``If-Match`` with the version it read
(428 without one, 412 when another edit got there first); define and append accept one and check it when
given. A race between the check and the save is still caught by the store (``expected_version``) as a 409.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Header, Path, Response

from tiermem.context.core import CoreMemory
from tiermem.server.auth import scope_for
from tiermem.server.convert import block_out, message_out, pending_out
from tiermem.server.deps import Caller, Rt, ScopeAgent, ScopeFull
from tiermem.server.models import (
    BLOCK_PATTERN,
    ID_PATTERN,
    SCOPE_PATTERN,
    AppendIn,
    BlockIn,
    BlockOut,
    BlocksOut,
    MessagesOut,
    PendingsOut,
    ReplaceIn,
    WriteOut,
)
from tiermem.server.problems import PreconditionError
from tiermem.server.runtime import Runtime
from tiermem.store.context_base import CoreBlock, StoreWithContext
from tiermem.types import MAX_SCOPE_PART, Scope

__all__ = ["router"]

router = APIRouter(prefix="/v1")
PendingId = Annotated[str, Path(pattern=ID_PATTERN)]
BlockName = Annotated[str, Path(pattern=BLOCK_PATTERN, description="A core block's name.")]
_PRECONDITIONS: dict[int | str, dict[str, Any]] = {
    412: {"description": "If-Match names a version that is no longer current"},
    428: {"description": "If-Match is missing"},
}
IfMatch = Annotated[str | None, Header(max_length=100, description='The block version read, as its ETag ("3").')]


@router.get("/pending", response_model=PendingsOut, tags=["pending"], summary="Writes held for approval")
def pending(runtime: Rt, scope: ScopeFull) -> dict[str, Any]:
    """Procedural notes from untrusted sources wait here until approved or rejected."""
    return {"pending": [pending_out(p) for p in runtime.memory.pending(scope)]}


@router.post("/pending/{pending_id}/approve", response_model=WriteOut, tags=["pending"], summary="Approve")
def approve(pending_id: PendingId, runtime: Rt, principal: Caller, scope: ScopeFull) -> dict[str, Any]:
    """Store the held write through the write path; it keeps its source and trust, the key is its approver."""
    return runtime.memory.approve(scope, pending_id, actor=principal.credential).to_dict()


@router.post("/pending/{pending_id}/reject", status_code=204, tags=["pending"], summary="Reject")
def reject(pending_id: PendingId, runtime: Rt, scope: ScopeFull) -> Response:
    """Drop the held write."""
    runtime.memory.reject(scope, pending_id)
    return Response(status_code=204)


def _core(runtime: Runtime, scope: Scope) -> CoreMemory:
    store = cast(StoreWithContext, runtime.memory.store)
    return CoreMemory(store, scope, counter=runtime.counter, budget=runtime.settings.core_budget)


def _etag(block: CoreBlock) -> str:
    return f'"{block.version}"'


def _check_match(block: CoreBlock | None, if_match: str | None, *, required: bool) -> None:
    if if_match is None:
        if required:
            raise PreconditionError(
                "If-Match is required: send the ETag of the block as read", status=428, given=None, current=None
            )
        return
    current = 0 if block is None else block.version
    wanted = [v.strip().removeprefix("W/").strip('"') for v in if_match.split(",")]
    if "*" in wanted and block is not None:
        return
    if str(current) not in wanted:
        raise PreconditionError(
            f"the block is at version {current}, not {if_match}: read it again",
            status=412,
            given=if_match,
            current=current,
        )


def _with_etag(response: Response, block: CoreBlock) -> dict[str, Any]:
    response.headers["ETag"] = _etag(block)
    return block_out(block)


@router.get("/core", response_model=BlocksOut, tags=["core"], summary="Core blocks of an agent")
def blocks(runtime: Rt, scope: ScopeAgent) -> dict[str, Any]:
    """Every block of the caller's (tenant, user, agent), by name."""
    return {"blocks": [block_out(b) for b in _core(runtime, scope).blocks]}


@router.get("/core/{name}", response_model=BlockOut, tags=["core"], summary="One core block")
def block(name: BlockName, runtime: Rt, scope: ScopeAgent, response: Response) -> dict[str, Any]:
    """The block, with its version as the ETag."""
    return _with_etag(response, _core(runtime, scope).get(name))


@dataclass(frozen=True, slots=True)
class _Edit:
    """What every block edit takes besides name and body: the blocks, the caller, the response, If-Match."""

    core: CoreMemory
    actor: str
    response: Response
    if_match: str | None

    def check(self, block: CoreBlock | None, *, required: bool) -> None:
        """The block read is still at the version the caller read (``required``: the caller must say which)."""
        _check_match(block, self.if_match, required=required)

    def answer(self, block: CoreBlock) -> dict[str, Any]:
        """The edited block, its version as the ETag."""
        return _with_etag(self.response, block)


def _edit(runtime: Rt, scope: ScopeAgent, principal: Caller, response: Response, if_match: IfMatch = None) -> _Edit:
    return _Edit(_core(runtime, scope), principal.credential, response, if_match)


Edit = Annotated[_Edit, Depends(_edit)]


def _edits(method: str, path: str, summary: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The route of a block edit: the block back, a precondition's failure documented."""
    return router.api_route(
        path, methods=[method], response_model=BlockOut, tags=["core"], summary=summary, responses=_PRECONDITIONS
    )


@_edits("PUT", "/core/{name}", "Define a core block")
def define(name: BlockName, body: BlockIn, edit: Edit) -> dict[str, Any]:
    """Create the block, or change its cap, description and read-only flag (an existing value is kept)."""
    edit.check(edit.core.get(name) if name in edit.core else None, required=False)
    saved = edit.core.define(
        name,
        limit=body.limit,
        description=body.description,
        read_only=body.read_only,
        value=body.value,
        actor=edit.actor,
    )
    return edit.answer(saved)


@_edits("POST", "/core/{name}/append", "Append to a core block")
def append(name: BlockName, body: AppendIn, edit: Edit) -> dict[str, Any]:
    """Add a line at the end of the block."""
    edit.check(edit.core.get(name), required=False)
    return edit.answer(edit.core.append(name, body.text, actor=edit.actor))


@_edits("POST", "/core/{name}/replace", "Replace text in a core block")
def replace(name: BlockName, body: ReplaceIn, edit: Edit) -> dict[str, Any]:
    """Replace every occurrence of ``old`` by ``new``; needs ``If-Match`` with the version read."""
    edit.check(edit.core.get(name), required=True)
    return edit.answer(edit.core.replace(name, body.old, body.new, actor=edit.actor))


SessionId = Annotated[str, Path(pattern=SCOPE_PATTERN, max_length=MAX_SCOPE_PART)]


@router.get("/sessions/{session}/messages", response_model=MessagesOut, tags=["sessions"], summary="Messages")
def messages(session: SessionId, runtime: Rt, principal: Caller, scope: ScopeAgent) -> dict[str, Any]:
    """The messages in the session's context window, oldest first (older ones are in recall: search them)."""
    full = scope_for(runtime.access, principal, user=scope.user, agent=scope.agent, session=session)
    store = cast(StoreWithContext, runtime.memory.store)
    state = store.load_context_window(full)
    if state is None:
        return {"session": session, "messages": [], "summary_through": None}
    records = runtime.memory.store.get_many(full, list(state.message_ids))
    out = [message_out(records[i]) for i in state.message_ids if i in records]
    return {"session": session, "messages": out, "summary_through": state.summary_through}
