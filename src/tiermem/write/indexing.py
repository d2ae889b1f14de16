"""(internal) Indexing acknowledged records: read what still waits, embed it, then decide and store in write order.

The three steps are separate so write-behind can run the model (``embed_queued``, no store) on one thread while
another reads (``waiting``) and stores (``store_embedded``); ``index_queued`` runs them one after another.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from tiermem.embed import Embedder, Vectors
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import Store, StoredItem, scope_writes
from tiermem.store.maintenance_base import RecordRef
from tiermem.trust.injection import QUARANTINE_TAG
from tiermem.types import MemoryRecord, MemoryType, Scope, utcnow
from tiermem.write.path import WritePolicy, WriteResult, WriteStatus, _Batch, _detect, audit_entry

__all__ = ["Embedded", "Queued", "embed_queued", "index_queued", "queued_of", "recover", "store_embedded", "waiting"]


@dataclass(frozen=True, slots=True)
class Queued:
    """A record waiting for its vector: its (tenant, user) scope, id, content hash, and whether to detect."""

    scope: Scope
    id: str
    content_hash: str
    detect: bool = False


def queued_of(results: Iterable[WriteResult], detect: Sequence[bool]) -> list[Queued]:
    """The records write-behind results added (``detect``: per result, may it merge or supersede)."""
    out: list[Queued] = []
    for result, may_detect in zip(results, detect, strict=True):
        if result.status in (WriteStatus.ADDED, WriteStatus.SUPERSEDED):
            rec = result.record
            owner = Scope(rec.scope.tenant, rec.scope.user)
            out.append(Queued(owner, rec.id, rec.content_hash, may_detect and rec.type is MemoryType.SEMANTIC))
    return out


def recover(store: Store, *, limit: int = 100_000) -> list[Queued]:
    """What a previous process acknowledged and never embedded (vectors only: see the module docstring)."""
    refs = store.unindexed(limit=limit)
    hashes: dict[str, str] = {}
    for scope, ids in _ids_by_scope(refs).items():
        hashes.update((rid, rec.content_hash) for rid, rec in store.get_many(scope, ids).items())
    return [Queued(ref.scope, ref.id, hashes[ref.id]) for ref in refs if ref.id in hashes]


@dataclass(frozen=True, slots=True)
class Embedded:
    """Queued records read for embedding, with their vectors and passages (the model's part of indexing)."""

    queued: list[Queued]
    vectors: Vectors
    passages: list[Vectors | None]


def waiting(store: Store, fingerprint: str, queued: Sequence[Queued]) -> tuple[list[Queued], list[str]]:
    """The queued records still waiting for this model's vectors (unchanged since queued), and their texts."""
    records: dict[str, MemoryRecord] = {}
    for scope, ids in _ids_by_scope(queued).items():
        records.update(store.get_many(scope, ids))
    # A record meant for another model (the store was opened with a different embedder) waits for that one.
    todo = [
        q
        for q in queued
        if q.id in records
        and records[q.id].content_hash == q.content_hash
        and records[q.id].embedding_model == fingerprint
    ]
    return todo, [records[q.id].content for q in todo]


def embed_queued(embedder: Embedder, todo: list[Queued], texts: Sequence[str]) -> Embedded:
    """One model call for the texts of ``todo`` and their sentences (touches no store: may run on any thread)."""
    vectors, passages = embed_with_passages(embedder, texts)
    return Embedded(todo, vectors, passages)


def store_embedded(store: Store, fingerprint: str, embedded: Embedded, policy: WritePolicy) -> int:
    """Decide and store each embedded record in write order, in one transaction; returns how many got vectors.

    Each record is decided as its own write would be: it sees the vectors, merges and closures of the records
    before it (the transaction reads its own writes), so the outcome is that of one transaction each.
    """
    if not embedded.queued:
        return 0
    with scope_writes(store, *(q.scope for q in embedded.queued)):
        # Read again inside the transaction: a record may have been forgotten, changed or embedded meanwhile.
        # A record of this batch is not changed by the ones before it: without a vector it is nobody's neighbour.
        current, indexed = _current(store, embedded.queued)
        seen: set[str] = set()
        done = 0
        for q, vector, parts in zip(embedded.queued, embedded.vectors, embedded.passages, strict=True):
            record = current.get(q.id)
            if q.id in seen or q.id in indexed or record is None:
                continue
            seen.add(q.id)
            if record.content_hash != q.content_hash or record.embedding_model != fingerprint:
                continue
            done += _index_one(store, fingerprint, q, record, vector, parts, policy, utcnow())
        return done


def index_queued(store: Store, embedder: Embedder, queued: Sequence[Queued], policy: WritePolicy) -> int:
    """Embed ``queued`` in one batch, then decide and store each in write order; returns how many got vectors."""
    todo, texts = waiting(store, embedder.fingerprint, queued)
    if not todo:
        return 0
    return store_embedded(store, embedder.fingerprint, embed_queued(embedder, todo, texts), policy)


def _current(store: Store, queued: Sequence[Queued]) -> tuple[dict[str, MemoryRecord], set[str]]:
    """The queued records as stored now, and those of them that have a vector already."""
    records: dict[str, MemoryRecord] = {}
    indexed: set[str] = set()
    for scope, ids in _ids_by_scope(queued).items():
        records.update(store.get_many(scope, ids))
        indexed.update(store.vectors_of(scope, ids))
    return records, indexed


def _ids_by_scope(refs: Iterable[Queued | RecordRef]) -> dict[Scope, list[str]]:
    """Record ids grouped by their scope, in order: the store reads a scope's records in one call."""
    by_scope: dict[Scope, list[str]] = {}
    for ref in refs:
        by_scope.setdefault(ref.scope, []).append(ref.id)
    return by_scope


def _index_one(
    store: Store,
    fingerprint: str,
    q: Queued,
    current: MemoryRecord,
    vector: Vectors,
    parts: Vectors | None,
    policy: WritePolicy,
    now: datetime,
) -> int:
    # The record's own scope (its agent and session too): the neighbours the synchronous write compared with.
    batch = _Batch(store, current.scope, now, [current], [None])
    kept = [0]
    if q.detect and policy.detect and QUARANTINE_TAG not in current.tags:
        kept = _detect(batch, [0], {0: vector}, fingerprint, policy.detection)
    changed = [StoredItem(r, None, keep_vector=True) for r in batch.changed.values()]
    actor = str(current.source)
    if not kept:  # a paraphrase: folded into the stored fact, as the synchronous path would not store it
        merged = batch.results[0]
        assert merged is not None  # _detect set it when it dropped the record
        into = merged.record
        store.put_many(changed)
        store.delete(q.scope, [q.id])
        entry = audit_entry("merge", actor, now, current, into, f"merged into {into.id} after acknowledgement")
        store.append_audit(q.scope, [*batch.audit, replace(entry, record_id=current.id)])
        return 0
    new = batch.prepared[0]
    if new.supersedes != current.supersedes:
        new = replace(new, updated_at=now, version=current.version + 1)
        batch.audit.append(audit_entry("supersede", actor, now, current, new, f"supersedes {new.supersedes}"))
    store.put_many([*changed, StoredItem(new, vector, passages=parts)])
    store.append_audit(q.scope, batch.audit)
    return 1
