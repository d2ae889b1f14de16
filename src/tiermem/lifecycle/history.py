"""(internal) Record lifecycle beyond the write path: supersession history, rollback, and approval of held writes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from types import MappingProxyType

from tiermem.embed import Embedder
from tiermem.errors import ConflictError, NotFoundError, ValidationError
from tiermem.lifecycle.erase import drop_quotes
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import Store, StoredItem, scope_writes, stored_record, unchanged_since
from tiermem.types import MemoryRecord, MemoryType, MetaValue, Scope, Source, aware_time, content_hash
from tiermem.write.gate import admit_revision
from tiermem.write.path import NewMemory, WritePolicy, WriteResult, audit_entry, write_many
from tiermem.write.scan import ScanPolicy

__all__ = ["approve", "history", "live_successor", "record_from_json", "reject", "rollback"]


def history(store: Store, scope: Scope, record_id: str) -> list[MemoryRecord]:
    """The supersession chain through ``record_id``, oldest first (what it replaced, and what replaced it)."""
    record = stored_record(store, scope, record_id)
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


def live_successor(store: Store, scope: Scope, record_id: str) -> MemoryRecord | None:
    """The current record that (directly or down the chain) superseded ``record_id``, if one is still valid."""
    chain = history(store, scope, record_id)
    later = chain[[r.id for r in chain].index(record_id) + 1 :]
    return next((r for r in reversed(later) if r.valid_to is None), None)


def record_from_json(data: Mapping[str, object]) -> MemoryRecord:
    """A record from ``MemoryRecord.to_json()`` output (export files, audit snapshots, held writes).

    Every field's type is checked (a missing required field is a KeyError), and the content hash is computed
    from the content: a file's own hash may be stale or wrong.
    """
    content = _text(data, "content")
    if not content.strip():
        raise ValidationError("content", "must not be empty", given=content)
    tags = data.get("tags") or []
    metadata = data.get("metadata") or {}
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ValidationError("tags", "must be a list of strings", given=tags)
    if not isinstance(metadata, dict):
        raise ValidationError("metadata", "must be an object", given=metadata)
    return MemoryRecord(
        id=_text(data, "id"),
        scope=Scope(_text(data, "tenant"), _opt(data, "user"), _opt(data, "agent"), _opt(data, "session")),
        type=MemoryType.parse(_text(data, "type")),
        content=content,
        source=Source.parse(_text(data, "source")),
        trust=_trust(data["trust"]),
        created_at=_time(data, "created_at"),
        updated_at=_opt_time(data, "updated_at"),
        valid_from=_time(data, "valid_from"),
        valid_to=_opt_time(data, "valid_to"),
        expires_at=_opt_time(data, "expires_at"),
        content_hash=content_hash(content),
        embedding_model=_opt(data, "embedding_model"),
        tags=tuple(tags),
        supersedes=_opt(data, "supersedes"),
        metadata=MappingProxyType(dict(metadata)),
        version=_version(data.get("version", 1)),
        context=_opt(data, "context"),  # absent from exports made before search context existed
    )


def _text(data: Mapping[str, object], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValidationError(key, "must be a string", given=value)
    return value


def _opt(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ValidationError(key, "must be a string or null", given=value)
    return value


def _opt_time(data: Mapping[str, object], key: str) -> datetime | None:
    return None if data.get(key) is None else _time(data, key)


def _time(data: Mapping[str, object], key: str) -> datetime:
    value = data.get(key)
    if value is None:
        raise ValidationError(key, "is required in a record")
    if not isinstance(value, str):
        raise ValidationError(key, "must be an ISO 8601 time string", given=value)
    return aware_time(key, value)


def _trust(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise ValidationError("trust", "must be a number from 0 to 1", given=value)
    return float(value)


def _version(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValidationError("version", "must be an integer of at least 1", given=value)
    return value


def rollback(
    store: Store,
    embedder: Embedder | None,
    scope: Scope,
    record_id: str,
    version: int,
    *,
    actor: str,
    now: datetime,
    scan: ScanPolicy | None = None,
) -> MemoryRecord:
    """Restore a record's content and lifecycle fields as they were at ``version``, as a new version.

    The restored words pass the write gate as an edit's do (``write.gate.admit_revision``, under ``scan``): the
    verdict that version carried is not restored, so a history edited in an export file cannot bring back an
    order unjudged, and a release given to that version is given again after the rollback if still wanted.

    A superseded record is not brought back beside the record that replaced it: restoring a version from
    before its supersession is a ConflictError while that successor is current (never two current versions).
    """
    # The record, its history and its successor read as one state (a forget redacts the history); the write
    # below checks that the record is still that version.
    with scope_writes(store, scope):
        current = stored_record(store, scope, record_id)
        snapshots = {e.version: e.after for e in store.audit(scope, record_id) if e.after is not None}
        if version not in snapshots:
            known = ", ".join(map(str, sorted(snapshots))) or "none"
            raise ValidationError(
                "version", f"is not a recorded version of {record_id} (known: {known})", given=version
            )
        old = record_from_json(snapshots[version])
        if old.valid_to is None and current.valid_to is not None:
            successor = live_successor(store, scope, record_id)
            if successor is not None:
                raise ConflictError(
                    f"version {version} of {record_id} was valid before {successor.id} superseded it; restoring it "
                    f"would make two current versions of one fact. Edit {successor.id} instead, or forget it first"
                )
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
    restored = admit_revision(store, scope, restored, now, embedder=embedder, vectors=(vector, passages), policy=scan)
    with scope_writes(store, scope):
        unchanged_since(store, scope, current)
        store.put_many([StoredItem(restored, vector, keep_vector=same_text or embedder is None, passages=passages)])
        store.append_audit(
            scope, [audit_entry("rollback", actor, now, current, restored, f"restored version {version}")]
        )
    return restored


def approve(
    store: Store,
    embedder: Embedder | None,
    scope: Scope,
    pending_id: str,
    *,
    now: datetime,
    actor: str = "operator",
    policy: WritePolicy | None = None,
    default_ttl: Mapping[MemoryType, timedelta | None] | None = None,
) -> WriteResult:
    """Store a held write through the write path, taken and stored in one transaction.

    Approval lifts the hold, nothing else: the note keeps its source and trust and is judged by the write gate
    as any write from that source is (a quarantine verdict stands until released), under ``policy`` and with
    ``default_ttl`` as the memory's own writes are; who approved it is recorded in its metadata (``approved_by``,
    ``approved_at``) and its audit entry.
    """
    with scope_writes(store, scope):
        pending = store.take_pending(scope, pending_id)
        if pending is None:
            raise NotFoundError(f"no pending write {pending_id} in scope {scope}")
        rec = record_from_json(pending.record)
        approval: dict[str, MetaValue] = {"approved_by": actor, "approved_at": now.isoformat()}
        item = NewMemory(
            rec.content,
            type=rec.type,
            source=rec.source,
            tags=rec.tags,
            valid_from=rec.valid_from,
            metadata={**rec.metadata, **approval},
            context=rec.context,
            approved_by=actor,
        )
        return write_many(store, embedder, scope, [item], now, policy or WritePolicy(), default_ttl)[0]


def reject(store: Store, scope: Scope, pending_id: str) -> None:
    """Drop a held write, and its words from the notes written after it in its batch that quote it."""
    with scope_writes(store, scope):  # it rewrites the context of the user's records
        pending = store.take_pending(scope, pending_id)
        if pending is None:
            raise NotFoundError(f"no pending write {pending_id} in scope {scope}")
        # A note that followed it in one remember_many (follow_window, transcript lines) has its end as search
        # context: a rejected write must not stay findable, or come back with an export, through that note.
        rec = record_from_json(pending.record)
        drop_quotes(store, rec.scope, [rec])
