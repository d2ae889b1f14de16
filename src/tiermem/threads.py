"""(internal) Named thread pools made on first use and shared by the whole process."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from queue import SimpleQueue
from typing import Any, TypeVar

__all__ = ["LazyPool", "TaskThreads"]

T = TypeVar("T")


class LazyPool:
    """A thread pool started by its first task, so importing a module that may use one starts no threads."""

    def __init__(self, name: str, workers: int = 4) -> None:
        self._name = name
        self._workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def get(self) -> ThreadPoolExecutor:
        """The pool, made on the first call."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix=self._name)
            return self._pool


class TaskThreads:
    """Daemon threads, started by the first task (again in a forked child), running zero-argument tasks from one
    queue: for short tasks a caller waits on, such as a query's embedding, it hands a task over with less work
    than a ``ThreadPoolExecutor`` (no work item, no idle-thread count), and the caller's wait is what it saves."""

    def __init__(self, name: str, workers: int = 4) -> None:
        self._name = name
        self._workers = workers
        self._queue: SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = SimpleQueue()
        self._pid: int | None = None
        self._lock = threading.Lock()

    def submit(self, task: Callable[[], T]) -> Future[T]:
        """``task``'s result to come, from one of the threads."""
        if self._pid != os.getpid():
            self._start()
        future: Future[T] = Future()
        self._queue.put((task, future))
        return future

    def _start(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            self._queue = SimpleQueue()  # a forked child has none of its parent's threads, nor their tasks
            for i in range(self._workers):
                threading.Thread(target=_work, args=(self._queue,), name=f"{self._name}_{i}", daemon=True).start()
            self._pid = os.getpid()


def _work(queue: SimpleQueue[tuple[Callable[[], Any], Future[Any]]]) -> None:
    """Run tasks from ``queue`` for good, each result or error into its future."""
    while True:
        task, future = queue.get()
        if future.set_running_or_notify_cancel():
            try:
                result = task()
            except BaseException as exc:  # the caller waiting on the future raises it, as a thread pool's would
                future.set_exception(exc)
            else:
                future.set_result(result)
        del task, future  # nothing of a finished task is kept while the thread waits for the next
