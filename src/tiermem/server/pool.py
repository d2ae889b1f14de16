"""(internal) The hot routes' own small thread pool: a trip costs one queue put and two thread wake-ups.

anyio's ``to_thread.run_sync`` (what Starlette's ``run_in_threadpool`` calls) also enters a cancel scope,
takes a capacity limiter and yields to the loop once before a trip, and ``loop.run_in_executor`` builds a
``concurrent.futures.Future`` (a lock and a condition) and chains it to an asyncio future: on the event loop's
thread, a large share of a hot request's HTTP handling (docs/service.md, "## Load"). Here a trip is the
caller's asyncio future and a tuple on a queue; the thread that runs it hands the outcome straight back to the
loop. The other routes keep anyio's pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["HOT_THREADS", "HotPool"]

R = TypeVar("R")

# Enough to keep both the model and SQLite busy on a few cores while one thread holds the GIL; more threads only
# take turns at the GIL.
HOT_THREADS = 8

_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", contextvars.Context, Callable[..., Any], tuple[Any, ...]]


class HotPool:
    """A thread pool that runs blocking calls for coroutines, each in a copy of the caller's context."""

    def __init__(self, threads: int = HOT_THREADS) -> None:
        self.threads = threads
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._workers: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False
        self.trips = 0  # calls sent to a thread: what tests count

    async def run(self, func: Callable[..., R], *args: object) -> R:
        """``func(*args)`` on a pool thread; its result or its exception."""
        if not self._workers:
            self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self.trips += 1
        self._jobs.put((loop, future, contextvars.copy_context(), func, args))
        return await future

    def _start(self) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the hot pool is closed")
            while len(self._workers) < self.threads:
                worker = threading.Thread(target=self._serve, name=f"tiermem-hot_{len(self._workers)}", daemon=True)
                worker.start()
                self._workers.append(worker)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, future, context, func, args = job
            try:
                result = context.run(func, *args)
            except BaseException as exc:  # the caller's to see, as an executor would hand it back
                _hand_back(loop, _fail, future, exc)
            else:
                _hand_back(loop, _settle, future, result)

    def close(self) -> None:
        """Let the calls under way finish, then stop the threads; later calls raise RuntimeError."""
        with self._lock:
            self._closed = True
            workers, self._workers = self._workers, []
        for _ in workers:
            self._jobs.put(None)
        for worker in workers:
            worker.join()


def _hand_back(loop: asyncio.AbstractEventLoop, settle: Callable[..., None], *args: object) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed while the call ran: nobody is left to tell
        loop.call_soon_threadsafe(settle, *args)


def _settle(future: asyncio.Future[Any], result: object) -> None:
    if not future.cancelled():  # a client that went away cancels its request's task, and the future with it
        future.set_result(result)


def _fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.cancelled():
        future.set_exception(exc)
