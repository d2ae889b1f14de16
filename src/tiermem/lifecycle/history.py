"""Record lifecycle beyond the write path: supersession history, rollback, and approval of held writes."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from types import MappingProxyType

from tiermem.embed import Embedder
from tiermem.errors import NotFoundError, ValidationError
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import Store, StoredItem
from tiermem.types import MemoryRecord, MemoryType, Scope, Source, content_hash
from tiermem.write.path import NewMemory, WriteResult, audit_entry, write_many

__all__ = ["approve", "history", "record_from_json", "reject", "rollback"]


def history(store: Store, scope: Scope, record_id: str) -> list[MemoryRecord]:
    """The supersession chain through ``record_id``, oldest first (what it replaced, and what replaced it)."""
    record = store.get(scope, record_id)
    if record is None:
        raise NotFoundError(f"no record {record_id} in scope {scope}")
    chain = [record]
    seen = {record.id}
    back = record
    while back.supersedes is not None and back.supersedes not in seen:
        earlier = store.get(scope, back.supersedes)
        if earlier is None:
            break
        chain.insert(0, earlier)
        seen.add(earlier.id)
        back = earlier
    forward = record
    while True:
        later = [r for r in store.successors(scope, [forward.id]).get(forward.id, []) if r.id not in seen]
        if not later:
            return chain
        forward = later[0]
        chain.append(forward)
        seen.add(forward.id)


def record_from_json(data: dict[str, object]) -> MemoryRecord:
    """A record from ``MemoryRecord.to_json()`` output (export files, audit snapshots, held writes)."""

    def time(key: str) -> datetime | None:
        value = data.get(key)
        return None if value is None else datetime.fromisoformat(str(value))

    def required_time(key: str) -> datetime:
        value = time(key)
        if value is None:
            raise ValidationError(key, "is required in a record")
        return value

    tags = data.get("tags") or []
    metadata = data.get("metadata") or {}
    if not isinstance(tags, list) or not isinstance(metadata, dict):
        raise ValidationError("record", "tags must be a list and metadata an object", given=data.get("id"))
    return MemoryRecord(
        id=str(data["id"]),
        scope=Scope(str(data["tenant"]), _opt(data.get("user")), _opt(data.get("agent")), _opt(data.get("session"))),
        type=MemoryType.parse(str(data["type"])),
        content=str(data["content"]),
        source=Source.parse(str(data["source"])),
        trust=float(str(data["trust"])),
        created_at=required_time("created_at"),
        updated_at=time("updated_at"),
        valid_from=required_time("valid_from"),
        valid_to=time("valid_to"),
        expires_at=time("expires_at"),
        content_hash=str(data["content_hash"]),
        embedding_model=_opt(data.get("embedding_model")),
        tags=tuple(str(t) for t in tags),
        supersedes=_opt(data.get("supersedes")),
        metadata=MappingProxyType(dict(metadata)),
        version=int(str(data.get("version", 1))),
        context=_opt(data.get("context")),  # absent from exports made before search context existed
    )


def _opt(value: object) -> str | None:
    return None if value is None else str(value)


def rollback(
    store: Store, embedder: Embedder | None, scope: Scope, record_id: str, version: int, *, actor: str, now: datetime
) -> MemoryRecord:
    """Restore a record's content and lifecycle fields as they were at ``version``, as a new version."""
    current = store.get(scope, record_id)
    if current is None:
        raise NotFoundError(f"no record {record_id} in scope {scope}")
    snapshots = {e.version: e.after for e in store.audit(scope, record_id) if e.after is not None}
    if version not in snapshots:
        known = ", ".join(map(str, sorted(snapshots))) or "none"
        raise ValidationError("version", f"is not a recorded version of {record_id} (known: {known})", given=version)
    old = record_from_json(snapshots[version])
    restored = replace(
        current,
        content=old.content,
        context=old.context,
        content_hash=content_hash(old.content),
        valid_from=old.valid_from,
        valid_to=old.valid_to,
        expires_at=old.expires_at,
        tags=old.tags,
        metadata=old.metadata,
        updated_at=now,
        version=current.version + 1,
    )
    same_text = restored.content == current.content
    vector, passages = None, None
    if not same_text and embedder is not None:
        vectors, parts = embed_with_passages(embedder, [restored.content])
        vector, passages = vectors[0], parts[0]
    with store.transaction():
        store.put_many([StoredItem(restored, vector, keep_vector=same_text or embedder is None, passages=passages)])
        store.append_audit(
            scope, [audit_entry("rollback", actor, now, current, restored, f"restored version {version}")]
        )
    return restored


def approve(store: Store, embedder: Embedder | None, scope: Scope, pending_id: str, *, now: datetime) -> WriteResult:
    """Store a held write through the normal write path (the approver vouches for it)."""
    pending = store.take_pending(scope, pending_id)
    if pending is None:
        raise NotFoundError(f"no pending write {pending_id} in scope {scope}")
    rec = record_from_json(pending.record)
    # Approval is a trusted act: the note keeps its provenance in metadata but is stored as system-sourced.
    item = NewMemory(
        rec.content,
        type=rec.type,
        source="system",
        tags=rec.tags,
        valid_from=rec.valid_from,
        metadata={**rec.metadata, "approved_from": str(rec.source)},
        context=rec.context,
    )
    return write_many(store, embedder, scope, [item], now)[0]


def reject(store: Store, scope: Scope, pending_id: str) -> None:
    """Drop a held write."""
    if store.take_pending(scope, pending_id) is None:
        raise NotFoundError(f"no pending write {pending_id} in scope {scope}")
