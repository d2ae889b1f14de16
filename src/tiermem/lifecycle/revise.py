"""(internal) Revise a record in place: new content or tags recorded as a new version, with its audit entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from tiermem.embed import Embedder
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import Store, StoredItem, scope_writes, stored_record, unchanged_since
from tiermem.text_rules import check_encodable, check_visible
from tiermem.types import MemoryRecord, Scope, content_hash
from tiermem.write.gate import admit_revision
from tiermem.write.path import audit_entry
from tiermem.write.scan import ScanPolicy

__all__ = ["revise"]


def revise(
    store: Store,
    embedder: Embedder | None,
    scope: Scope,
    record_id: str,
    *,
    actor: str,
    now: datetime,
    content: str | None = None,
    tags: Sequence[str] | None = None,
    op: str = "edit",
    detail: str = "",
    scan: ScanPolicy | None = None,
) -> MemoryRecord:
    """The record with ``content`` and/or ``tags`` changed, saved as version + 1 (rollback can restore any)."""
    current = stored_record(store, scope, record_id)
    text = current.content if content is None else check_visible("content", check_encodable("content", content).strip())
    revised = replace(
        current,
        content=text,
        content_hash=content_hash(text),
        tags=current.tags if tags is None else tuple(tags),
        updated_at=now,
        version=current.version + 1,
    )
    same_text = text == current.content
    vector, passages = None, None
    if not same_text and embedder is not None:
        vectors, parts = embed_with_passages(embedder, [text])
        vector, passages = vectors[0], parts[0]
    if not same_text:  # new words pass the write gate as a write from the record's source would
        revised = admit_revision(store, scope, revised, now, embedder=embedder, vectors=(vector, passages), policy=scan)
    with scope_writes(store, scope):
        unchanged_since(store, scope, current)
        store.put_many([StoredItem(revised, vector, keep_vector=same_text or embedder is None, passages=passages)])
        store.append_audit(scope, [audit_entry(op, actor, now, current, revised, detail)])
    return revised
