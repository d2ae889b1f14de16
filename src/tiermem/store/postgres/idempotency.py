"""(internal) Idempotency keys on PostgreSQL (migration 0008_idempotency.sql): each call run as the key's tenant."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.store.idempotency_base import Executes, IdempotencyMixin

__all__ = ["PgIdempotencyMixin"]


class PgIdempotencyMixin(IdempotencyMixin):
    """A racing claim of the same key waits on the first one's row, then reads it (READ COMMITTED)."""

    MARK = "%s"
    LOCK_ROW = " FOR UPDATE"
    # The server's clock, shared by every client, read when the statement starts (now() is the transaction's start,
    # which a caller's open transaction would leave in the past).
    CLOCK = "statement_timestamp()"
    SECONDS = "make_interval(secs => {})"

    if TYPE_CHECKING:  # provided by PostgresStore

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _anywhere(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def keys_transaction(self, tenant: str) -> AbstractContextManager[Executes]:
        return self._tenant(tenant)

    def stored_time(self, at: datetime) -> datetime:
        return at

    def drop_answers_before(self, before: datetime) -> int:
        # Across tenants: run as the tables' owner by the function (migration 0015), as the sweep's other reads are.
        with self._anywhere() as conn:
            row = conn.execute("SELECT tiermem_drop_answers_before(%s)", [before]).fetchone()
        return int(row[0]) if row else 0
