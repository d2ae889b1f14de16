"""(internal) /v1/memories: remember one or many, search, get, list with cursors, forget, history, rollback, audit;
/v1/related: the records around a named entity."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from tiermem.recall.related import DEFAULT_LIMIT
from tiermem.server.convert import audit_out, hit_out
from tiermem.server.deps import Caller, Rt, ScopeFull, check_limit, offload
from tiermem.server.models import (
    ID_PATTERN,
    TAG_PATTERN,
    AuditOut,
    BatchIn,
    BatchOut,
    HitsOut,
    MemoryIn,
    Moment,
    PageOut,
    RecallIn,
    RecordOut,
    RecordsOut,
    RelatedOut,
    RollbackIn,
    WriteOut,
)
from tiermem.server.runtime import Runtime
from tiermem.types import Filter, MemoryType, Scope, SourceKind
from tiermem.write.path import NewMemory

__all__ = ["remember_one", "router", "search_hits"]

router = APIRouter(prefix="/v1", tags=["memories"])
RecordId = Annotated[str, Path(pattern=ID_PATTERN, description="A record id.")]


def _new(runtime: Runtime, item: MemoryIn, where: str) -> NewMemory:
    limit = runtime.settings.limits.max_text_chars
    check_limit(f"{where}content", len(item.content), limit, " (characters)")
    if item.context is not None:
        check_limit(f"{where}context", len(item.context), limit, " (characters)")
    return NewMemory(
        item.content,
        type=item.type,
        source=item.source,
        tags=tuple(item.tags),
        ttl=None if item.ttl is None else timedelta(seconds=item.ttl),
        valid_from=item.valid_from,
        metadata=dict(item.metadata),
        dedupe=item.dedupe,
        supersedes=item.supersedes,
        context=item.context,
    )


@router.post("/memories", status_code=201, response_model=WriteOut, summary="Remember one memory")
@offload
def remember(body: MemoryIn, runtime: Rt, scope: ScopeFull) -> dict[str, Any]:
    """Duplicates return the stored record, paraphrases merge, updates supersede, untrusted procedures are held."""
    return remember_one(runtime, body, scope)


def remember_one(runtime: Runtime, body: MemoryIn, scope: Scope) -> dict[str, Any]:
    """What ``POST /v1/memories`` does once its caller and body are known (also run by ``server.fast``)."""
    (result,) = runtime.memory.remember_many(scope, [_new(runtime, body, "")])
    return result.to_dict()


@router.post("/memories/batch", status_code=201, response_model=BatchOut, summary="Remember a batch")
def remember_batch(body: BatchIn, runtime: Rt, scope: ScopeFull) -> dict[str, Any]:
    """One embedding batch and one transaction: every item is validated first, then all are stored or none."""
    check_limit("items", len(body.items), runtime.settings.limits.max_batch, " (items per batch)")
    items = [_new(runtime, item, f"items[{i}].") for i, item in enumerate(body.items)]
    return {"results": [r.to_dict() for r in runtime.memory.remember_many(scope, items)]}


@router.post("/memories/search", response_model=HitsOut, summary="Recall: hybrid search")
@offload
def search(body: RecallIn, runtime: Rt, scope: ScopeFull) -> dict[str, Any]:
    """The k most relevant live records, with score parts; ``as_of`` asks what was valid then."""
    return search_hits(runtime, body, scope)


def search_hits(runtime: Runtime, body: RecallIn, scope: Scope) -> dict[str, Any]:
    """What ``POST /v1/memories/search`` does once its caller and body are known (also run by ``server.fast``)."""
    limits = runtime.settings.limits
    check_limit("k", body.k, limits.max_k)
    check_limit("query", len(body.query), limits.max_query_chars, " (characters)")
    f = body.filter
    filter_ = Filter(
        types=frozenset(f.types),
        sources=frozenset(f.sources),
        tags=frozenset(f.tags),
        time_from=f.time_from,
        time_to=f.time_to,
    )
    hits = runtime.memory.recall(
        scope,
        body.query,
        k=body.k,
        filter=filter_,
        as_of=body.as_of,
        now=body.now,
        include_quarantined=body.include_quarantined,
    )
    return {"hits": [hit_out(h) for h in hits]}


@router.get("/memories", response_model=PageOut, summary="List memories, newest first")
def list_memories(
    runtime: Rt,
    scope: ScopeFull,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    cursor: Annotated[str | None, Query(pattern=r"^[0-9]{1,18}$", description="next_cursor of the last page")] = None,
    type: Annotated[list[MemoryType] | None, Query(max_length=3)] = None,
    source: Annotated[list[SourceKind] | None, Query(max_length=6)] = None,
    tag: Annotated[list[Annotated[str, Query(pattern=TAG_PATTERN)]] | None, Query(max_length=32)] = None,
    time_from: Annotated[Moment | None, Query()] = None,
    time_to: Annotated[Moment | None, Query()] = None,
    as_of: Annotated[Moment | None, Query(description="what was valid at this time")] = None,
) -> dict[str, Any]:
    """Live records; pass ``next_cursor`` back as ``cursor`` for the next page."""
    filter_ = Filter(
        types=frozenset(type or ()),
        sources=frozenset(source or ()),
        tags=frozenset(tag or ()),
        time_from=time_from,
        time_to=time_to,
        as_of=as_of,
    )
    page = runtime.memory.list(scope, filter=filter_, limit=limit, cursor=cursor)
    return {"records": [r.to_json() for r in page.records], "next_cursor": page.next_cursor}


@router.get("/related", response_model=RelatedOut, summary="Records around a named entity")
@offload
def related(
    runtime: Rt,
    scope: ScopeFull,
    entity: Annotated[str, Query(description="a person, place or thing, matched as a whole word")],
    limit: Annotated[int, Query(description="at most this many records")] = DEFAULT_LIMIT,
) -> dict[str, Any]:
    """The records naming the entity, those of their sessions and days and their other versions, and the names
    occurring with it; quarantined and expired notes left out as in recall."""
    return runtime.memory.related(scope, entity, limit=limit).to_json()


@router.get("/memories/{record_id}", response_model=RecordOut, summary="Get one memory")
@offload
def get_memory(record_id: RecordId, runtime: Rt, scope: ScopeFull) -> dict[str, Any]:
    """The record; 404 when it is not in the caller's scope (whether or not it exists elsewhere)."""
    return runtime.memory.get(scope, record_id).to_json()


@router.delete("/memories/{record_id}", status_code=204, summary="Forget one memory")
def forget(
    record_id: RecordId, runtime: Rt, scope: ScopeFull, scrub_file: Annotated[bool, Query()] = False
) -> Response:
    """Delete the record with its index and vector rows and redact its audit trail."""
    runtime.memory.forget(scope, record_id, scrub_file=scrub_file)
    return Response(status_code=204)


@router.get("/memories/{record_id}/history", response_model=RecordsOut, summary="Supersession history")
@offload
def history(record_id: RecordId, runtime: Rt, scope: ScopeFull) -> dict[str, Any]:
    """The chain of records through this one, oldest first."""
    return {"records": [r.to_json() for r in runtime.memory.history(scope, record_id)]}


@router.post("/memories/{record_id}/rollback", response_model=RecordOut, summary="Roll a memory back")
@offload
def rollback(record_id: RecordId, body: RollbackIn, runtime: Rt, scope: ScopeFull, principal: Caller) -> dict[str, Any]:
    """Restore the record as it was at ``version`` (recorded as a new version, the credential as its actor)."""
    return runtime.memory.rollback(scope, record_id, body.version, actor=principal.credential).to_json()


@router.get("/audit", response_model=AuditOut, summary="Audit log")
def audit(
    runtime: Rt,
    scope: ScopeFull,
    record_id: Annotated[str | None, Query(pattern=ID_PATTERN)] = None,
) -> dict[str, Any]:
    """Every recorded change in the scope (or to one record), oldest first."""
    return {"entries": [audit_out(e) for e in runtime.memory.audit(scope, record_id)]}
