"""(internal) Idempotency keys on PostgreSQL (migration 0008_idempotency.sql): the AccessStore's claim, finish,
release, each run as the key's tenant."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.store.access_base import Claim, ClaimState

__all__ = ["PgIdempotencyMixin"]

_WHERE = "tenant = %s AND user_key = %s AND key = %s"


class PgIdempotencyMixin:
    """A racing claim of the same key waits on the first one's row, then reads it (READ COMMITTED)."""

    if TYPE_CHECKING:  # provided by PostgresStore

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

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
        who = [tenant, user or "", key]
        with self._tenant(tenant) as conn:
            conn.execute(
                "DELETE FROM idempotency_keys WHERE tenant = %s AND user_key = %s AND created_at < %s",
                [tenant, user or "", expired_before],
            )
            inserted = conn.execute(
                "INSERT INTO idempotency_keys (tenant, user_key, key, fingerprint, created_at)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (tenant, user_key, key) DO NOTHING",
                [*who, fingerprint, at],
            ).rowcount
            if inserted:
                return Claim(ClaimState.NEW)
            row = conn.execute(
                "SELECT fingerprint, status, body, media_type, created_at FROM idempotency_keys"
                f" WHERE {_WHERE} FOR UPDATE",
                who,
            ).fetchone()
            if row is None:  # released by its request between the insert and the read: claim it now
                conn.execute(
                    "INSERT INTO idempotency_keys (tenant, user_key, key, fingerprint, created_at)"
                    " VALUES (%s, %s, %s, %s, %s)",
                    [*who, fingerprint, at],
                )
                return Claim(ClaimState.NEW)
            stored, status, body, media_type, created = row
            if stored != fingerprint:
                return Claim(ClaimState.MISMATCH)
            if status is not None:
                return Claim(ClaimState.DONE, int(status), bytes(body or b""), media_type)
            if created < stale_before:  # its request died unanswered: this one takes it over
                conn.execute(f"UPDATE idempotency_keys SET created_at = %s WHERE {_WHERE}", [at, *who])
                return Claim(ClaimState.NEW)
            return Claim(ClaimState.RUNNING)

    def finish_request(
        self, tenant: str, user: str | None, key: str, *, status: int, body: bytes, media_type: str | None
    ) -> None:
        with self._tenant(tenant) as conn:
            conn.execute(
                f"UPDATE idempotency_keys SET status = %s, body = %s, media_type = %s WHERE {_WHERE}",
                [status, body, media_type, tenant, user or "", key],
            )

    def release_request(self, tenant: str, user: str | None, key: str) -> None:
        with self._tenant(tenant) as conn:
            conn.execute(f"DELETE FROM idempotency_keys WHERE {_WHERE} AND status IS NULL", [tenant, user or "", key])
