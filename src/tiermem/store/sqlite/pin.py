"""(internal) One read of a scope's generation for a whole recall (``SQLiteStore.pinned``, a mixin of SQLiteStore).

A recall reads its (tenant, user) a dozen times, through caches kept per scope generation (records, vectors,
successors, full-text rows, word counts), and each read used to begin by reading the generation again. Inside
``pinned(scope)`` the thread reads it once, with the scope's size and embedding model, and a cache that holds
that very generation is used without asking again. A write meanwhile, by any connection or process, moves the
generation on and leaves a cache at another one (or the writer's thread carries its write into a cache, which
then holds the new generation): such a cache is checked as without a pin. So a pinned read sees the file as it
was when the pin was read, or later, never earlier.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tiermem.types import Scope

__all__ = ["Pin", "SQLiteGenerationPin", "ThreadPins"]

# The model in the same statement: a scope's generation, size and vectors' model from one state of the file.
_READ_PIN = (
    "SELECT gen, n, (SELECT model FROM vectors WHERE tenant = ?1 AND user_key = ?2 LIMIT 1) FROM scope_generations"
    " WHERE tenant = ?1 AND user_key = ?2"
)


@dataclass(frozen=True, slots=True)
class Pin:
    """A (tenant, user)'s generation, record count and embedding model (None: no vectors), read together."""

    gen: int
    size: int
    model: str | None


class ThreadPins(threading.local):
    """Each thread's pinned scopes: one store serves many threads, each pinning its own recall."""

    def __init__(self) -> None:
        self.held: dict[tuple[str, str], Pin] = {}


class SQLiteGenerationPin:
    """``pinned`` and what the store's reads ask of it (see the module docstring)."""

    _conn: sqlite3.Connection
    _lock: threading.RLock
    _pins: ThreadPins

    @contextmanager
    def pinned(self, scope: Scope) -> Iterator[None]:
        """Within, this thread's cached reads of the scope's (tenant, user) trust one read of its generation."""
        held = self._pins.held
        key = (scope.tenant, scope.user or "")
        if key in held or self._conn.in_transaction:  # a write transaction reads its own writes, uncached
            yield
            return
        with self._lock:
            row = self._conn.execute(_READ_PIN, key).fetchone()
        if row is None:
            yield
            return
        held[key] = Pin(int(row[0]), int(row[1]), None if row[2] is None else str(row[2]))
        try:
            yield
        finally:
            del held[key]

    def _pin(self, key: tuple[str, str]) -> Pin | None:
        """This thread's pin of ``key``, unless the connection is inside a transaction (its writes are uncached)."""
        pin = self._pins.held.get(key)
        return None if pin is None or self._conn.in_transaction else pin

    def _pinned_gen(self, scope: Scope) -> int | None:
        """The generation this thread pinned for the scope's (tenant, user), if it did."""
        pin = self._pin((scope.tenant, scope.user or ""))
        return None if pin is None else pin.gen
