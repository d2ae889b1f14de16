"""Write-behind: a write is acknowledged once stored and full-text indexed; a worker embeds it later.

An acknowledged write (``write_many(..., defer_vectors=True)``) has been validated, refused if it holds a
secret, scanned for injection (the scan reads text only, so an untrusted note is quarantined before anyone can
see it), checked for an exact duplicate, and stored with its full-text entry in one committed transaction. It
carries its embedder's fingerprint and no vector: that is the queue (``Store.unindexed``), so a crash loses
nothing; the next ``WriteBehind`` on the store embeds what the last one left.

The worker embeds queued records in batches across writes (one model call for many records and their
sentences) on a model thread, while a store thread takes the batch embedded before through the synchronous
path's near-duplicate / supersession decision (``write.path``), one record at a time in the order they were
written, and stores the vectors, a batch in one transaction (``write.indexing``):
- a paraphrase of a stored fact is folded into it (audited ``merge`` on both records) and the acknowledged
  record is deleted, so the store ends as the synchronous path would have left it;
- a newer fact closes the older one's validity (audited ``supersede``) and names it in ``supersedes``.
A record forgotten, changed or embedded meanwhile is skipped. Records found by ``Store.unindexed`` (left by a
crash) get their vectors only: whether they were chat messages or keyed items, which never merge, is not stored
(``Memory.consolidate`` merges and closes afterwards). Errors are logged and kept; ``flush`` raises the first.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from queue import SimpleQueue

import numpy as np

from tiermem.embed import Embedder
from tiermem.errors import WriteBehindError
from tiermem.store.base import Store
from tiermem.write.indexing import (
    Embedded,
    Queued,
    embed_queued,
    index_queued,
    queued_of,
    recover,
    store_embedded,
    waiting,
)
from tiermem.write.path import WritePolicy

__all__ = [
    "BATCH",
    "HIGH_WATER",
    "IDLE",
    "Embedded",
    "Queued",
    "WriteBehind",
    "WriteBehindError",
    "embed_queued",
    "index_queued",
    "queued_of",
    "recover",
    "store_embedded",
    "waiting",
]

log = logging.getLogger(__name__)

BATCH = 64  # records per model call: large enough to amortise the call, small enough to keep the lag short
# The worker starts once writes pause this long (seconds: more than a busy scheduler's jitter), or the backlog
# reaches HIGH_WATER records, or someone flushes: a burst of writes is acknowledged without the model taking the
# cores from it, and the lag stays bounded.
IDLE = 0.2
HIGH_WATER = 512


class _ModelThread:
    """Runs model calls one after another on a daemon thread of its own, beside the store's work.

    onnxruntime releases the GIL while it runs, so the next batch's model pass overlaps the store thread's
    decisions and transaction for the last one, where the two used to take turns on one thread. A daemon
    thread, like the store thread, not a ThreadPoolExecutor's: a Memory never closed must not hold up exit.
    """

    def __init__(self, name: str) -> None:
        self._calls: SimpleQueue[tuple[Future[Embedded], Callable[[], Embedded]] | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, call: Callable[[], Embedded]) -> Future[Embedded]:
        """Run ``call`` after those submitted before it; its result or error comes back in the future."""
        future: Future[Embedded] = Future()
        self._calls.put((future, call))
        return future

    def stop(self) -> None:
        """Finish the calls submitted, then end the thread."""
        self._calls.put(None)
        self._thread.join()

    def _run(self) -> None:
        while (job := self._calls.get()) is not None:
            future, call = job
            try:
                future.set_result(call())
            except BaseException as exc:  # every outcome goes back to the store thread, which logs it
                future.set_exception(exc)


class WriteBehind:
    """Embeds queued records in batches on a worker; ``flush`` waits for it and raises its errors.

    Two threads: the model thread embeds batch n + 1 while the store thread decides and stores batch n, in
    write order (``store_embedded``); only one batch waits embedded or is being embedded ahead of the store.
    """

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
        self._working = 0  # records taken from the queue and not yet stored
        self._closed = False
        self._errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name="tiermem-write-behind-store", daemon=True)
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
            return len(self._queue) + self._working

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every queued record is embedded; raise the worker's first error since the last flush."""
        with self._cond:
            self._flushing += 1
            self._cond.notify_all()
            try:
                if not self._cond.wait_for(lambda: not self._queue and not self._working, timeout):
                    queued = len(self._queue) + self._working
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

    def _take(self, *, wait: bool) -> list[Queued] | None:
        """The next batch: waited for (None once closed and empty), or only if it may start now ([] if not)."""
        with self._cond:
            if wait:
                while (pause := self._wait()) != 0.0:
                    self._cond.wait(pause)
                if not self._queue:
                    return None
            elif not self._queue or self._wait() != 0.0:
                return []
            taken = [self._queue.popleft() for _ in range(min(self.batch, len(self._queue)))]
            self._working += len(taken)
            return taken

    def _run(self) -> None:
        model = _ModelThread("tiermem-write-behind")
        ahead: tuple[list[Queued], Future[Embedded]] | None = None
        try:
            while True:
                taken = self._take(wait=ahead is None)
                if taken is None:
                    return
                started = (taken, self._embed(model, taken)) if taken else None
                if ahead is not None:
                    self._store(*ahead)
                ahead = started
        finally:
            model.stop()

    def _embed(self, model: _ModelThread, taken: list[Queued]) -> Future[Embedded]:
        """Start the model pass of ``taken`` (the records are read here: the store stays on this thread)."""
        fingerprint = self.embedder.fingerprint
        try:
            todo, texts = waiting(self.store, fingerprint, taken)
        except Exception as exc:  # any failure: kept for _store, which logs it and hands it to flush()
            failed: Future[Embedded] = Future()
            failed.set_exception(exc)
            return failed
        if not todo:  # nothing left to embed: the model is not asked
            return model.submit(lambda: Embedded([], np.zeros((0, self.embedder.dim), dtype=np.float32), []))
        return model.submit(functools.partial(embed_queued, self.embedder, todo, texts))

    def _store(self, taken: list[Queued], embedded: Future[Embedded]) -> None:
        try:
            store_embedded(self.store, self.embedder.fingerprint, embedded.result(), self.policy)
        except Exception as exc:  # any failure: a worker thread has no caller to raise to; flush() raises it
            log.exception("write-behind could not embed %d records", len(taken))
            with self._cond:
                self._errors.append(exc)
        finally:
            with self._cond:
                self._working -= len(taken)
                self._cond.notify_all()
