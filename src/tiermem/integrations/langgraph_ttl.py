"""(internal) LangGraph's TTL sweeper on tiermem: a thread (or, for the async store, a task) that sweeps on a timer.

A sweep is ``Memory.sweep``: expired records are deleted with their full-text and vector rows (and so are
records over the memory's retention limits), not hidden. LangGraph's stores sweep every 5 minutes unless told.
A failed sweep is logged and the next one runs; only an error that is not tiermem's ends the sweeper.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Awaitable, Callable

from tiermem.errors import MemError, shown

__all__ = ["DEFAULT_SWEEP_MINUTES", "SweeperTask", "SweeperThread", "sweep_interval"]

DEFAULT_SWEEP_MINUTES = 5.0
_log = logging.getLogger("tiermem.integrations.langgraph")


def sweep_interval(given: float | None, configured: float | None) -> float:
    """The sweep interval in seconds: the one given, else the store's ``sweep_interval_minutes``, else 5 minutes."""
    minutes = given or configured or DEFAULT_SWEEP_MINUTES
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not minutes > 0:
        raise ValueError(f"sweep_interval_minutes must be a positive number of minutes, given {shown(minutes)!r}")
    return float(minutes) * 60.0


def _swept(count: int) -> None:
    if count:
        _log.info("TTL sweep deleted %d expired records", count)


class SweeperThread:
    """Runs ``sweep`` every interval on a daemon thread until stopped."""

    def __init__(self, sweep: Callable[[], int]) -> None:
        self._sweep = sweep
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._future: concurrent.futures.Future[None] | None = None

    def start(self, interval: float) -> concurrent.futures.Future[None]:
        """Start sweeping (or return the running sweeper's future); cancelling the future stops it."""
        if self._thread is not None and self._thread.is_alive() and self._future is not None:
            return self._future
        self._stop.clear()
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        future.add_done_callback(lambda f: self._stop.set() if f.cancelled() else None)

        def loop() -> None:
            try:
                while not self._stop.wait(interval):
                    try:
                        _swept(self._sweep())
                    except MemError:
                        _log.exception("TTL sweep failed; the next one runs in %.0f s", interval)
            except BaseException as exc:  # the thread's end is reported through its future, whatever ended it
                if not future.done():
                    future.set_exception(exc)
                raise
            if not future.done():
                future.set_result(None)

        self._future = future
        self._thread = threading.Thread(target=loop, name="tiermem-ttl-sweeper", daemon=True)
        self._thread.start()
        return future

    def stop(self, timeout: float | None = None) -> bool:
        """Stop the sweeper; False if it was still sweeping when ``timeout`` (seconds) ran out."""
        thread = self._thread
        if thread is None or not thread.is_alive():
            return True
        self._stop.set()
        thread.join(timeout)
        if thread.is_alive():
            return False
        self._thread = None
        return True


class SweeperTask:
    """Runs ``sweep`` every interval as an asyncio task until stopped."""

    def __init__(self, sweep: Callable[[], Awaitable[int]]) -> None:
        self._sweep = sweep
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self, interval: float) -> asyncio.Task[None]:
        """Start sweeping in the running loop (or return the running sweeper's task)."""
        if self._task is not None and not self._task.done():
            return self._task
        stop = self._stop = asyncio.Event()

        async def loop() -> None:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(stop.wait(), timeout=interval)
                    return
                except TimeoutError:
                    pass
                try:
                    _swept(await self._sweep())
                except MemError:
                    _log.exception("TTL sweep failed; the next one runs in %.0f s", interval)

        self._task = asyncio.get_running_loop().create_task(loop(), name="tiermem-ttl-sweeper")
        return self._task

    async def stop(self, timeout: float | None = None) -> bool:
        """Stop the sweeper; False if it was still sweeping when ``timeout`` (seconds) ran out."""
        task = self._task
        if task is None or task.done():
            return True
        assert self._stop is not None  # set with the task
        self._stop.set()
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if not done:
            return False
        self._task = None
        return True
