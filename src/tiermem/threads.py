"""(internal) Named thread pools made on first use and shared by the whole process."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["LazyPool"]


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
