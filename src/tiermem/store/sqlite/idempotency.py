"""(internal) Idempotency keys on SQLite (migration 0009_idempotency.sql): the AccessStore's claim, finish, release."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING

from tiermem.store.access_base import Claim, ClaimState
from tiermem.store.sqlite.maintenance import Connected
from tiermem.store.sqlite.rows import ts

__all__ = ["SQLiteIdempotencyMixin"]

_WHERE = "tenant = ? AND user_key = ? AND key = ?"


class SQLiteIdempotencyMixin(Connected):
    """Each call one write transaction: BEGIN IMMEDIATE makes insert-or-read one step for every process."""

    if TYPE_CHECKING:  # provided by SQLiteStore

        def transaction(self) -> AbstractContextManager[None]: ...

    def claim_request(
        self,
        tenant: str,
        user: str | None,
        key: str,
        fingerprint: str,
        *,
        at: datetime,
        stale_before: datetime,
        expired_before: datetime,
    ) -> Claim:
        who = (tenant, user or "", key)
        with self.transaction():
            self._conn.execute(
                "DELETE FROM idempotency_keys WHERE tenant = ? AND user_key = ? AND created_at < ?",
                (tenant, user or "", ts(expired_before)),
            )
            inserted = self._conn.execute(
                "INSERT INTO idempotency_keys (tenant, user_key, key, fingerprint, created_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (tenant, user_key, key) DO NOTHING",
                (*who, fingerprint, ts(at)),
            ).rowcount
            if inserted:
                return Claim(ClaimState.NEW)
            stored, status, body, media_type, created = self._conn.execute(
                f"SELECT fingerprint, status, body, media_type, created_at FROM idempotency_keys WHERE {_WHERE}", who
            ).fetchone()
            if stored != fingerprint:
                return Claim(ClaimState.MISMATCH)
            if status is not None:
                return Claim(ClaimState.DONE, int(status), bytes(body or b""), media_type)
            if created < ts(stale_before):  # its request died unanswered: this one takes it over
                self._conn.execute(f"UPDATE idempotency_keys SET created_at = ? WHERE {_WHERE}", (ts(at), *who))
                return Claim(ClaimState.NEW)
            return Claim(ClaimState.RUNNING)

    def finish_request(
        self, tenant: str, user: str | None, key: str, *, status: int, body: bytes, media_type: str | None
    ) -> None:
        with self.transaction():
            self._conn.execute(
                f"UPDATE idempotency_keys SET status = ?, body = ?, media_type = ? WHERE {_WHERE}",
                (status, body, media_type, tenant, user or "", key),
            )

    def release_request(self, tenant: str, user: str | None, key: str) -> None:
        with self.transaction():
            self._conn.execute(
                f"DELETE FROM idempotency_keys WHERE {_WHERE} AND status IS NULL", (tenant, user or "", key)
            )
