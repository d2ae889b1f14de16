"""(internal) The AccessStore's idempotency keys written once over a backend's connection: claim, finish, release,
and drop the answers that quote a deleted record."""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime
from typing import Any, ClassVar, Protocol

from tiermem.store.access_base import Claim, ClaimState
from tiermem.types import Scope

__all__ = ["Executes", "IdempotencyMixin"]


class Executes(Protocol):
    """A connection that runs a statement with its parameters (sqlite3's and psycopg's both do)."""

    def execute(self, query: str, params: list[Any], /) -> Any: ...


class IdempotencyMixin:
    """Each call one transaction of the key's tenant; a backend gives its placeholder, row lock and stored time."""

    MARK: ClassVar[str]  # the driver's placeholder
    LOCK_ROW: ClassVar[str]  # appended to the read of a claimed key: a racing claim waits for the first to end

    def keys_transaction(self, tenant: str) -> AbstractContextManager[Executes]:
        """A write transaction as ``tenant``, giving its connection."""
        raise NotImplementedError

    def stored_time(self, at: datetime) -> Any:
        """A moment as the table holds it."""
        raise NotImplementedError

    def answers_scrubbed(self) -> AbstractContextManager[None]:
        """While inside, a deleted answer's bytes are overwritten where the backend does that on deletion."""
        return nullcontext()

    def claim_request(
        self,
        tenant: str,
        user: str | None,
        key: str,
        fingerprint: str,
        *,
        caller: str,
        at: datetime,
        stale_before: datetime,
        expired_before: datetime,
    ) -> Claim:
        m = self.MARK
        where = f"tenant = {m} AND user_key = {m} AND key = {m}"
        who = [tenant, user or "", key]
        insert = (
            "INSERT INTO idempotency_keys (tenant, user_key, key, fingerprint, caller, created_at)"
            f" VALUES ({m}, {m}, {m}, {m}, {m}, {m})"
        )
        claimed = [*who, fingerprint, caller, self.stored_time(at)]
        with self.keys_transaction(tenant) as conn:
            conn.execute(
                f"DELETE FROM idempotency_keys WHERE tenant = {m} AND user_key = {m} AND created_at < {m}",
                [tenant, user or "", self.stored_time(expired_before)],
            )
            if conn.execute(f"{insert} ON CONFLICT (tenant, user_key, key) DO NOTHING", claimed).rowcount:
                return Claim(ClaimState.NEW)
            row = conn.execute(
                f"SELECT fingerprint, caller, status, body, media_type, created_at FROM idempotency_keys WHERE {where}"
                + self.LOCK_ROW,
                who,
            ).fetchone()
            if row is None:  # released by its request between the insert and the read: claim it now
                conn.execute(insert, claimed)
                return Claim(ClaimState.NEW)
            stored, owner, status, body, media_type, created = row
            # Another caller learns nothing of the key's request, not even whether its own matches it.
            if owner != caller or stored != fingerprint:
                return Claim(ClaimState.MISMATCH)
            if status is not None:
                return Claim(ClaimState.DONE, int(status), bytes(body or b""), media_type)
            if created < self.stored_time(stale_before):  # its request died unanswered: this one takes it over
                conn.execute(f"UPDATE idempotency_keys SET created_at = {m} WHERE {where}", [claimed[-1], *who])
                return Claim(ClaimState.NEW)
            return Claim(ClaimState.RUNNING)

    def finish_request(
        self, tenant: str, user: str | None, key: str, *, status: int, body: bytes, media_type: str | None
    ) -> None:
        m = self.MARK
        with self.keys_transaction(tenant) as conn:
            conn.execute(
                f"UPDATE idempotency_keys SET status = {m}, body = {m}, media_type = {m}"
                f" WHERE tenant = {m} AND user_key = {m} AND key = {m}",
                [status, body, media_type, tenant, user or "", key],
            )

    def release_request(self, tenant: str, user: str | None, key: str) -> None:
        m = self.MARK
        with self.keys_transaction(tenant) as conn:
            conn.execute(
                f"DELETE FROM idempotency_keys WHERE tenant = {m} AND user_key = {m} AND key = {m} AND status IS NULL",
                [tenant, user or "", key],
            )

    def drop_answers(self, scope: Scope, needles: Collection[bytes]) -> int:
        found = [n for n in needles if n]
        if not found:
            return 0
        m = self.MARK
        who = [scope.tenant, scope.user or ""]
        with self.answers_scrubbed(), self.keys_transaction(scope.tenant) as conn:
            # Read and matched here, not in SQL: a user keeps a day's answers, and bytes match alike on every backend.
            rows = conn.execute(
                f"SELECT key, body FROM idempotency_keys WHERE tenant = {m} AND user_key = {m} AND body IS NOT NULL",
                who,
            ).fetchall()
            doomed = [key for key, body in rows if any(n in bytes(body) for n in found)]
            for key in doomed:
                conn.execute(
                    f"DELETE FROM idempotency_keys WHERE tenant = {m} AND user_key = {m} AND key = {m}", [*who, key]
                )
        return len(doomed)
