"""(internal) The hot routes' own small thread pool: a trip costs one future and two thread wake-ups.

anyio's ``to_thread.run_sync`` (what Starlette's ``run_in_threadpool`` calls) also enters a cancel scope,
takes a capacity limiter and yields to the loop once before a trip: on the event loop's thread, a large share
of a hot request's HTTP handling (docs/service.md, "## Load"). The other routes keep anyio's pool.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["HOT_THREADS", "HotPool"]

R = TypeVar("R")

# Enough to keep both the model and SQLite busy on a few cores while one thread holds the GIL; more threads only
# take turns at the GIL.
HOT_THREADS = 8


class HotPool:
    """A thread pool that runs blocking calls for coroutines, each in a copy of the caller's context."""

    def __init__(self, threads: int = HOT_THREADS) -> None:
        self.threads = threads
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="tiermem-hot")
        self.trips = 0  # calls sent to a thread: what tests count

    async def run(self, func: Callable[..., R], *args: object) -> R:
        """``func(*args)`` on a pool thread; its result or its exception."""
        self.trips += 1
        call = functools.partial(contextvars.copy_context().run, func, *args)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def close(self) -> None:
        """Let the calls under way finish, then stop the threads."""
        self._executor.shutdown(wait=True)
