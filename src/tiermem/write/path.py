"""The write path: validate → normalise → exact duplicate → embed → near-duplicate / supersession → put + audit.

A batch is all-or-nothing: every item is validated before anything is stored, and the rows, index entries,
closed validities and audit entries of a batch are written in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from types import MappingProxyType

import numpy as np

from tiermem.embed import Embedder, Vectors
from tiermem.errors import ValidationError
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import AuditEntry, PendingWrite, Store, StoredItem, scope_writes
from tiermem.trust.injection import QUARANTINE_TAG
from tiermem.types import (
    Filter,
    MemoryRecord,
    MemoryType,
    MetaValue,
    Scope,
    new_id,
)
from tiermem.write.actor import actor_for
from tiermem.write.aliases import alias_entries, aliased
from tiermem.write.gate import refuse_credentials, refuse_credentials_given
from tiermem.write.policy import DetectionPolicy, WritePolicy, WriteResult, WriteStatus
from tiermem.write.prepare import MAX_BATCH, MAX_CONTENT_CHARS, MAX_METADATA_BYTES, MAX_TTL, NewMemory, prepare
from tiermem.write.scan import (
    ScanPolicy,
    SourceScan,
    learned_applies,
    scan_records,
    scan_texts,
    scan_with_vectors,
    scanned,
)
from tiermem.write.scan_quoting import scan_quoting
from tiermem.write.supersede import Verdict, decide

__all__ = [
    "MAX_BATCH",
    "MAX_CONTENT_CHARS",
    "MAX_METADATA_BYTES",
    "MAX_TTL",
    "DetectionPolicy",
    "NewMemory",
    "ScanPolicy",
    "SourceScan",
    "WritePolicy",
    "WriteResult",
    "WriteStatus",
    "absorb",
    "audit_entry",
    "learned_applies",
    "prepare",
    "scan_texts",
    "write_many",
]


def audit_entry(
    op: str, actor: str, now: datetime, before: MemoryRecord | None, after: MemoryRecord, detail: str = ""
) -> AuditEntry:
    """An audit entry for a change of ``after`` (``before`` is None for a new record)."""
    return AuditEntry(
        record_id=after.id,
        at=now,
        actor=actor,
        op=op,
        version=after.version,
        before=None if before is None else before.to_json(),
        after=after.to_json(),
        detail=detail,
    )


@dataclass(slots=True)
class _Batch:
    """The working state of one write_many call."""

    store: Store
    scope: Scope
    now: datetime
    prepared: list[MemoryRecord]
    results: list[WriteResult | None]
    changed: dict[str, MemoryRecord] = field(default_factory=dict)  # stored records this batch modifies
    closed_by: dict[str, list[str]] = field(default_factory=dict)  # new record id -> ids it superseded
    audit: list[AuditEntry] = field(default_factory=list)
    # Positions whose valid_from the caller gave (the others are the time the write was prepared).
    dated: frozenset[int] = frozenset()
    given_ids: bool = False  # the caller chose the new records' ids (``write_many``'s ``ids``)
    restated: dict[int, str] = field(default_factory=dict)  # position -> id of the current record it repeats
    by_alias: set[int] = field(default_factory=set)  # positions whose key named a record through an alias
    # Record id -> position in ``prepared``; a prepared record is replaced only by versions with the same id.
    positions: dict[str, int] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.positions = {record.id: k for k, record in enumerate(self.prepared)}

    def index_of(self, record_id: str) -> int | None:
        """Position in the batch of a record added by this batch."""
        return self.positions.get(record_id)


def write_many(
    store: Store,
    embedder: Embedder | None,
    scope: Scope,
    items: Sequence[NewMemory],
    now: datetime,
    policy: WritePolicy = WritePolicy(),
    default_ttl: Mapping[MemoryType, timedelta | None] | None = None,
    ids: Sequence[str] | None = None,
    defer_vectors: bool = False,
) -> list[WriteResult]:
    """Write a batch (see the module docstring); items without a ttl get their type's ``default_ttl``.

    ``ids`` (internal: derived ids that make a conversation's re-ingest idempotent) are the new records' ids; one
    already stored (a racing writer of the same message stored it first) is left as it is, UNCHANGED.
    ``defer_vectors`` (write-behind, ``write.behind``): new records are stored with the embedder's fingerprint
    but no vector, and near-duplicate / supersession detection is left to whoever embeds them later.
    """
    if len(items) > MAX_BATCH:
        raise ValidationError("items", "batch is too large", given=len(items), limit=MAX_BATCH)
    fingerprint = embedder.fingerprint if embedder is not None else None
    chosen = list(ids) if ids is not None else [None] * len(items)
    try:
        prepared = [prepare(scope, it, now, fingerprint, default_ttl, r) for it, r in zip(items, chosen, strict=True)]
    except ValidationError as exc:
        invalid: ValidationError | None = exc
    else:
        invalid = None
    if invalid is not None:
        # Outside the handler: a refusal must not carry the validation error (and what it quotes) as its context.
        if policy.scan.refuse_secrets:
            refuse_credentials_given(store, scope, items, now)
        raise invalid
    if policy.scan.refuse_secrets:
        refuse_credentials(store, scope, prepared, now)  # before anything is embedded or stored
    # A memory tool's result is judged by what it quotes and the rest of it (``write.scan_quoting``).
    forced = [False if it.quoting is not None else it.scan for it in items]
    scan_records(prepared, forced, policy.scan)
    wanted = set(scanned(prepared, forced, policy.scan))
    dated = frozenset(i for i, it in enumerate(items) if it.valid_from is not None)
    batch = _Batch(store, scope, now, prepared, [None] * len(items), dated=dated, given_ids=ids is not None)
    _explicit_targets(batch)  # a target named wrongly fails before anything is embedded
    held = [
        i
        for i, r in enumerate(batch.prepared)
        if r.type is MemoryType.PROCEDURAL and r.source.untrusted and items[i].approved_by is None
    ]
    dedupe = [item.dedupe for item in items]
    todo = [i for i in range(len(items)) if i not in held]
    vectors: Vectors | None = None
    passages: list[Vectors | None] = [None] * len(todo)
    if embedder is not None and not defer_vectors:
        # Duplicates found before the model runs are not embedded; embedding happens outside the transaction so
        # a slow model never holds the write lock. With nothing to embed, the check inside it is enough.
        todo = _dedupe(batch, dedupe, todo)
        passages = [None] * len(todo)
        if todo:
            vectors, passages = embed_with_passages(embedder, [batch.prepared[i].content for i in todo])
    vector_of = {i: (None if vectors is None else vectors[j]) for j, i in enumerate(todo)}
    passages_of = dict(zip(todo, passages, strict=True))
    known = {i: (vector_of[i], passages_of[i]) for i in todo}
    scan_with_vectors(batch.prepared, [i for i in todo if i in wanted], embedder, known, policy.scan)
    scan_quoting(batch.prepared, [it.quoting for it in items], embedder, policy.scan)
    with scope_writes(store, scope):
        # Read again under the lock: a target forgotten or closed by a racing writer is seen as it is now, so it is
        # never written back, nor two closings of it given one version.
        explicit = _explicit_targets(batch)
        todo = _dedupe(batch, dedupe, todo)  # a racing writer may have stored the same text meanwhile
        _restate(batch)
        for i in held:
            _hold(batch, i)
        for i, target in explicit.items():
            if i in todo and QUARANTINE_TAG not in batch.prepared[i].tags:  # hostile text retires no fact
                _close(batch, target, batch.prepared[i], f"explicitly superseded by {batch.prepared[i].id}")
        if policy.detect and fingerprint is not None and not defer_vectors:
            # A quarantined note neither merges into nor closes anything: hostile text must not retire a fact.
            checked = [i for i in todo if dedupe[i] and QUARANTINE_TAG not in batch.prepared[i].tags]
            skipped = set(todo) - set(checked)
            todo = _detect(batch, checked, vector_of, fingerprint, policy.detection) + [i for i in todo if i in skipped]
        new_items = [StoredItem(batch.prepared[i], vector_of[i], passages=passages_of[i]) for i in sorted(todo)]
        kept = [StoredItem(r, None, keep_vector=True) for r in batch.changed.values()]
        store.put_many(kept + new_items)
        for i in sorted(todo):
            rec = batch.prepared[i]
            superseded = tuple(batch.closed_by.get(rec.id, ()))
            status = WriteStatus.SUPERSEDED if superseded else WriteStatus.ADDED
            approver = items[i].approved_by
            detail = "" if approver is None else f"approved by {approver}"
            batch.audit.append(audit_entry("add", actor_for(rec.source), now, None, rec, detail))
            previous = batch.results[i]
            reasons = previous.reasons if previous is not None else ()
            batch.results[i] = WriteResult(status, rec, superseded, reasons)
        if batch.given_ids:
            matched = (WriteStatus.UNCHANGED, WriteStatus.MERGED)
            found = [r.record if r is not None and r.status in matched else None for r in batch.results]
            batch.audit += alias_entries(batch.prepared, found, batch.by_alias, batch.now)
        store.append_audit(scope, batch.audit)
    return [r for r in batch.results if r is not None]


def _explicit_targets(batch: _Batch) -> dict[int, MemoryRecord]:
    wanted = {i: r.supersedes for i, r in enumerate(batch.prepared) if r.supersedes is not None}
    found = batch.store.get_many(batch.scope, list(wanted.values())) if wanted else {}
    for target_id in wanted.values():
        if target_id not in found:
            raise ValidationError("supersedes", "names no record in this scope", given=target_id)
    return {i: found[t] for i, t in wanted.items()}


def _hold(batch: _Batch, i: int) -> None:
    rec = batch.prepared[i]
    pending = PendingWrite(new_id(), batch.now, rec.to_json(), f"procedural write from untrusted source {rec.source}")
    batch.store.put_pending(batch.scope, pending)
    batch.results[i] = WriteResult(WriteStatus.PENDING, rec, reasons=(pending.reason,), pending_id=pending.id)


def _close(batch: _Batch, old: MemoryRecord, new: MemoryRecord, reason: str) -> None:
    """End ``old``'s validity where ``new`` begins (nothing is deleted)."""
    batch.closed_by.setdefault(new.id, []).append(old.id)
    j = batch.index_of(old.id)
    if j is not None:  # added earlier in this same batch: close it before it is stored
        batch.prepared[j] = replace(batch.prepared[j], valid_to=new.valid_from)
        return
    current = batch.changed.get(old.id, old)
    closed = replace(current, valid_to=new.valid_from, updated_at=batch.now, version=current.version + 1)
    batch.changed[old.id] = closed
    entry = audit_entry("supersede", actor_for(new.source), batch.now, current, closed, f"{reason}; by {new.id}")
    batch.audit.append(entry)


def _detect(
    batch: _Batch, todo: list[int], vector_of: dict[int, Vectors | None], fingerprint: str, policy: DetectionPolicy
) -> list[int]:
    """Merge paraphrases into stored facts and close the facts new ones replace; returns indexes to add."""
    semantic = [i for i in todo if batch.prepared[i].type is MemoryType.SEMANTIC and vector_of[i] is not None]
    if not semantic:
        return todo
    matrix = np.stack([vector_of[i] for i in semantic])  # type: ignore[misc]
    only_facts = Filter(types=frozenset({MemoryType.SEMANTIC}))
    neighbours = batch.store.vector_candidates_many(
        batch.scope, matrix, fingerprint, only_facts, now=batch.now, limit=policy.neighbours
    )
    # Only neighbours that share a topic can be merged or closed: fetch just those records.
    neighbours = [[c for c in cands if c.score >= policy.min_cosine] for cands in neighbours]
    stored = batch.store.get_many(batch.scope, list({c.id for cands in neighbours for c in cands}))
    within = matrix @ matrix.T
    keep = set(todo)
    for row, i in enumerate(semantic):
        new = batch.prepared[i]
        pairs = [
            (c.score, stored[c.id])
            for c in neighbours[row]
            if c.id in stored and QUARANTINE_TAG not in stored[c.id].tags  # nor is a fact folded into one
        ]
        # Earlier facts of the same batch count as stored ones: a batch behaves like writes in order.
        near = np.flatnonzero(within[row, :row] >= policy.min_cosine)
        pairs += [(float(within[row, r]), batch.prepared[semantic[r]]) for r in near if semantic[r] in keep]
        pairs.sort(key=lambda p: p[0], reverse=True)
        reasons: list[str] = []
        for cosine, old in pairs:
            j = batch.index_of(old.id)
            old = batch.changed.get(old.id, old) if j is None else batch.prepared[j]
            verdict = decide(new.content, old.content, cosine)
            if verdict.verdict is Verdict.MERGE and old.valid_to is None:
                _merge(batch, i, old, new, verdict.reason)
                keep.discard(i)
                break
            if verdict.verdict is not Verdict.SUPERSEDE or old.valid_to is not None:
                continue
            if new.trust < old.trust:  # a page or a tool does not retire what a more trusted source said
                reasons.append(f"contradicts {old.id} from {old.source}, which is trusted more: both stay current")
                continue
            if old.valid_from > new.valid_from and i not in batch.dated:
                # Written after ``old`` (writes to a scope are serialised), so said after it: the clock this
                # write read before it waited for the scope may be behind the one ``old`` read.
                new = batch.prepared[i] = replace(new, valid_from=old.valid_from)
            if old.valid_from > new.valid_from:
                # Dated before a current fact it contradicts: it was true until that one began.
                new = batch.prepared[i] = replace(new, valid_to=old.valid_from)
                reasons.append(f"already superseded by {old.id}, valid from {old.valid_from.isoformat()}")
                break
            _close(batch, old, new, verdict.reason)
            reasons.append(f"supersedes {old.id}: {verdict.reason}")
            if new.supersedes is None:
                new = batch.prepared[i] = replace(new, supersedes=old.id)
        if i in keep and reasons:
            batch.results[i] = WriteResult(WriteStatus.ADDED, new, reasons=tuple(reasons))
    return [i for i in todo if i in keep]


def absorb(keep: MemoryRecord, other: MemoryRecord, now: datetime, **metadata: MetaValue) -> MemoryRecord:
    """``keep`` refreshed with ``other``'s source added to ``merged_sources`` (a paraphrase folded into it)."""
    sources = str(keep.metadata.get("merged_sources") or keep.source)
    if str(other.source) not in sources.split("; "):
        sources = f"{sources}; {other.source}"
    meta = {**keep.metadata, "merged_sources": sources, **metadata}
    return replace(keep, updated_at=now, version=keep.version + 1, metadata=MappingProxyType(meta))


def _merge(batch: _Batch, i: int, old: MemoryRecord, new: MemoryRecord, reason: str) -> None:
    refreshed = replace(
        absorb(old, new, batch.now, merge_count=int(old.metadata.get("merge_count") or 0) + 1),
        trust=max(old.trust, new.trust),
    )
    j = batch.index_of(old.id)
    if j is not None:  # merged into a fact added earlier in this batch
        batch.prepared[j] = refreshed
    else:
        batch.changed[old.id] = refreshed
        batch.audit.append(audit_entry("merge", actor_for(new.source), batch.now, old, refreshed, reason))
    batch.results[i] = WriteResult(WriteStatus.MERGED, refreshed, reasons=(reason,))


def _dedupe(batch: _Batch, dedupe: list[bool], indexes: list[int]) -> list[int]:
    """Mark exact duplicates (stored, or earlier in the batch) and records whose given id is stored as UNCHANGED;
    return the indexes still new."""
    if batch.given_ids:  # a message's derived id: another writer of the same message may have stored it
        ids = [batch.prepared[i].id for i in indexes]
        stored = batch.store.get_many(batch.scope, ids)
        # A keyed statement that matched another record when first written names that record (``write.aliases``).
        # (Messages are never deduplicated, so they never name another record: no lookup for them.)
        keyed = [x for i, x in zip(indexes, ids, strict=True) if dedupe[i] and x not in stored]
        named = aliased(batch.store, batch.scope, keyed)
        stored |= named
        for i in indexes:
            if batch.prepared[i].id in stored:
                batch.results[i] = WriteResult(WriteStatus.UNCHANGED, stored[batch.prepared[i].id])
                if batch.prepared[i].id in named:
                    batch.by_alias.add(i)
        indexes = [i for i in indexes if batch.prepared[i].id not in stored]
    checked = [i for i in indexes if dedupe[i]]
    by_type: dict[MemoryType, list[int]] = {}
    for i in checked:
        by_type.setdefault(batch.prepared[i].type, []).append(i)
    first: dict[tuple[MemoryType, str], int] = {}
    new: list[int] = [i for i in indexes if not dedupe[i]]
    for type_, group in by_type.items():
        # Only a current record makes a write a duplicate: the same text closed or expired is said anew.
        hashes = [batch.prepared[i].content_hash for i in group]
        existing = batch.store.find_by_hash(batch.scope, type_, hashes, now=batch.now)
        for i in group:
            digest = batch.prepared[i].content_hash
            if digest in existing:
                batch.results[i] = WriteResult(WriteStatus.UNCHANGED, existing[digest])
                batch.restated[i] = existing[digest].id
            elif (type_, digest) in first:
                j = first[(type_, digest)]
                earlier, later = batch.prepared[j], batch.prepared[i]
                if QUARANTINE_TAG not in later.tags:
                    batch.prepared[j] = replace(earlier, expires_at=restated_expiry(earlier, later))
                batch.results[i] = WriteResult(WriteStatus.UNCHANGED, batch.prepared[j])
            else:
                first[(type_, digest)] = i
                new.append(i)
    return sorted(new)


def restated_expiry(old: MemoryRecord, new: MemoryRecord) -> datetime | None:
    """When ``old`` expires once ``new`` repeats its text: as ``new`` does (never, without a TTL).

    A less trusted source changes it only to a later moment: a page neither retires sooner what the user said nor
    keeps for ever what the user asked to expire.
    """
    if new.trust >= old.trust:
        return new.expires_at
    if old.expires_at is None or new.expires_at is None:
        return old.expires_at
    return max(old.expires_at, new.expires_at)


def _restate(batch: _Batch) -> None:
    """Give each current record a write repeats the expiry of its newest statement (read under the lock)."""
    if not batch.restated:
        return
    stored = batch.store.get_many(batch.scope, list(set(batch.restated.values())))
    for i, record_id in sorted(batch.restated.items()):
        old, new = batch.changed.get(record_id, stored.get(record_id)), batch.prepared[i]
        # Forgotten or closed after the check outside the lock: the write came before that, and is answered so.
        if old is None or old.valid_to is not None or QUARANTINE_TAG in new.tags:
            continue
        expires = restated_expiry(old, new)
        if expires == old.expires_at:
            continue
        why = "restated: no longer expires" if expires is None else f"restated: expires at {expires.isoformat()}"
        if old.expires_at is not None and expires is not None and expires > old.expires_at:
            # A later expiry only renews the lease, as ``Memory.refresh_ttl`` does: no new version, no audit entry,
            # so a note restated every turn with its TTL does not grow a version each time.
            renewed = replace(old, expires_at=expires)
        else:
            renewed = replace(old, expires_at=expires, updated_at=batch.now, version=old.version + 1)
            batch.audit.append(audit_entry("restate", actor_for(new.source), batch.now, old, renewed, why))
        batch.changed[record_id] = renewed
        batch.results[i] = WriteResult(WriteStatus.UNCHANGED, renewed, reasons=(why,))
