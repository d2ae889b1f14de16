"""(internal) Idempotency keys on SQLite (migration 0009_idempotency.sql): times held as epoch seconds."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from tiermem.store.idempotency_base import Executes, IdempotencyMixin
from tiermem.store.sqlite.maintenance import Connected, secure_delete

__all__ = ["SQLiteIdempotencyMixin"]


class SQLiteIdempotencyMixin(Connected, IdempotencyMixin):
    """Each call one write transaction: BEGIN IMMEDIATE makes insert-or-read one step for every process."""

    MARK = "?"
    LOCK_ROW = ""
    CLOCK = "((julianday('now') - 2440587.5) * 86400.0)"  # epoch seconds (stored_time), to the millisecond
    SECONDS = "{}"

    if TYPE_CHECKING:  # provided by SQLiteStore

        def transaction(self) -> AbstractContextManager[None]: ...

    @contextmanager
    def keys_transaction(self, tenant: str) -> Iterator[Executes]:
        with self.transaction():
            yield self._conn

    def stored_time(self, at: datetime) -> float:
        return at.timestamp()

    def answers_scrubbed(self) -> AbstractContextManager[None]:
        return secure_delete(self)

    def drop_answers_before(self, before: datetime) -> int:
        with secure_delete(self), self.keys_transaction("") as conn:
            gone = conn.execute("DELETE FROM idempotency_keys WHERE created_at < ?", [self.stored_time(before)])
            return int(gone.rowcount)
