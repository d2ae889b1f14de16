"""Write-behind: a write is acknowledged once stored and full-text indexed; one worker thread embeds it later.

An acknowledged write (``write_many(..., defer_vectors=True)``) has been validated, refused if it holds a
secret, scanned for injection (the scan reads text only, so an untrusted note is quarantined before anyone can
see it), checked for an exact duplicate, and stored with its full-text entry in one committed transaction. It
carries its embedder's fingerprint and no vector: that is the queue (``Store.unindexed``), so a crash loses
nothing; the next ``WriteBehind`` on the store embeds what the last one left.

The worker embeds queued records in batches across writes (one model call for many records and their
sentences), then takes them one at a time, in the order they were written, through the synchronous path's
near-duplicate / supersession decision (``write.path``) and stores the vector, each in its own transaction:
- a paraphrase of a stored fact is folded into it (audited ``merge`` on both records) and the acknowledged
  record is deleted, so the store ends as the synchronous path would have left it;
- a newer fact closes the older one's validity (audited ``supersede``) and names it in ``supersedes``.
A record forgotten, changed or embedded meanwhile is skipped. Records found by ``Store.unindexed`` (left by a
crash) get their vectors only: whether they were chat messages or keyed items, which never merge, is not stored
(``Memory.consolidate`` merges and closes afterwards). Errors are logged and kept; ``flush`` raises the first.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from tiermem.embed import Embedder, Vectors
from tiermem.errors import WriteBehindError
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import Store, StoredItem
from tiermem.trust.injection import QUARANTINE_TAG
from tiermem.types import MemoryRecord, MemoryType, Scope, utcnow
from tiermem.write.path import WritePolicy, WriteResult, WriteStatus, _Batch, _detect, audit_entry

__all__ = [
    "BATCH",
    "HIGH_WATER",
    "IDLE",
    "Queued",
    "WriteBehind",
    "WriteBehindError",
    "index_queued",
    "queued_of",
    "recover",
]

log = logging.getLogger(__name__)

BATCH = 64  # records per model call: large enough to amortise the call, small enough to keep the lag short
# The worker starts once writes pause this long (seconds: more than a busy scheduler's jitter), or the backlog
# reaches HIGH_WATER records, or someone flushes: a burst of writes is acknowledged without the model taking the
# cores from it, and the lag stays bounded.
IDLE = 0.2
HIGH_WATER = 512


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
    by_scope: dict[Scope, list[str]] = {}
    for ref in refs:
        by_scope.setdefault(ref.scope, []).append(ref.id)
    hashes: dict[str, str] = {}
    for scope, ids in by_scope.items():
        hashes.update((rid, rec.content_hash) for rid, rec in store.get_many(scope, ids).items())
    return [Queued(ref.scope, ref.id, hashes[ref.id]) for ref in refs if ref.id in hashes]


def index_queued(store: Store, embedder: Embedder, queued: Sequence[Queued], policy: WritePolicy) -> int:
    """Embed ``queued`` in one batch, then decide and store each in write order; returns how many got vectors."""
    by_scope: dict[Scope, list[str]] = {}
    for q in queued:
        by_scope.setdefault(q.scope, []).append(q.id)
    records: dict[str, MemoryRecord] = {}
    for scope, ids in by_scope.items():
        records.update(store.get_many(scope, ids))
    # A record meant for another model (the store was opened with a different embedder) waits for that one.
    fingerprint = embedder.fingerprint
    todo = [
        q
        for q in queued
        if q.id in records
        and records[q.id].content_hash == q.content_hash
        and records[q.id].embedding_model == fingerprint
    ]
    if not todo:
        return 0
    vectors, passages = embed_with_passages(embedder, [records[q.id].content for q in todo])
    done = 0
    for q, vector, parts in zip(todo, vectors, passages, strict=True):
        done += _index_one(store, embedder.fingerprint, q, vector, parts, policy, utcnow())
    return done


def _index_one(
    store: Store,
    fingerprint: str,
    q: Queued,
    vector: Vectors,
    parts: Vectors | None,
    policy: WritePolicy,
    now: datetime,
) -> int:
    with store.transaction():
        # Read again inside the transaction: it may have been forgotten, rolled back or embedded meanwhile.
        current = store.get_many(q.scope, [q.id]).get(q.id)
        if current is None or current.content_hash != q.content_hash or current.embedding_model != fingerprint:
            return 0
        if store.vectors_of(q.scope, [q.id]):
            return 0
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


class WriteBehind:
    """One worker thread that embeds queued records in batches; ``flush`` waits for it and raises its errors."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        policy: WritePolicy,
        *,
        batch: int = BATCH,
        idle: float = IDLE,
        high_water: int = HIGH_WATER,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.policy = policy
        self.batch = batch
        self.idle = idle
        self.high_water = high_water
        self._queue: deque[Queued] = deque()
        self._cond = threading.Condition()
        self._last_put = 0.0
        self._flushing = 0
        self._busy = False
        self._closed = False
        self._errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name="tiermem-write-behind", daemon=True)
        self._thread.start()
        self.put(recover(store))

    def put(self, queued: Sequence[Queued]) -> None:
        """Queue acknowledged records for embedding."""
        if not queued:
            return
        with self._cond:
            if self._closed:
                raise WriteBehindError("write-behind is closed: no more writes are embedded by it")
            # Wake the worker only when its wait changes kind: from "no work" to a timed pause, or past the high
            # water mark. A worker already pausing wakes at its deadline and counts the pause again from
            # ``_last_put``; waking it on every write cost each write a thread switch, a large share of its time.
            wake = not self._queue or len(self._queue) + len(queued) >= self.high_water
            self._queue.extend(queued)
            self._last_put = time.monotonic()
            if wake:
                self._cond.notify_all()

    @property
    def backlog(self) -> int:
        """Records queued or being embedded."""
        with self._cond:
            return len(self._queue) + (self.batch if self._busy else 0)

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every queued record is embedded; raise the worker's first error since the last flush."""
        with self._cond:
            self._flushing += 1
            self._cond.notify_all()
            try:
                if not self._cond.wait_for(lambda: not self._queue and not self._busy, timeout):
                    queued = len(self._queue)
                    raise WriteBehindError(f"write-behind flush timed out after {timeout} s ({queued} queued)")
            finally:
                self._flushing -= 1
            errors, self._errors = self._errors, []
        if errors:
            raise WriteBehindError(
                f"write-behind failed {len(errors)} time(s); those records stay queued in the store and are"
                f" embedded when it is opened again: {errors[0]!r}"
            ) from errors[0]

    def close(self) -> None:
        """Flush, then stop the worker (the flush's error, if any, is raised after it stopped)."""
        try:
            self.flush()
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()
            self._thread.join()

    def _wait(self) -> float | None:
        """Seconds until the worker may start (0: now; None: nothing to do but wait for a write)."""
        if not self._queue:
            return 0.0 if self._closed else None
        if self._closed or self._flushing or len(self._queue) >= self.high_water:
            return 0.0
        return max(0.0, self._last_put + self.idle - time.monotonic())

    def _run(self) -> None:
        while True:
            with self._cond:
                while (wait := self._wait()) != 0.0:
                    self._cond.wait(wait)
                if not self._queue:
                    return
                taken = [self._queue.popleft() for _ in range(min(self.batch, len(self._queue)))]
                self._busy = True
            try:
                index_queued(self.store, self.embedder, taken, self.policy)
            except Exception as exc:  # any failure: a worker thread has no caller to raise to; flush() raises it
                log.exception("write-behind could not embed %d records", len(taken))
                with self._cond:
                    self._errors.append(exc)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
