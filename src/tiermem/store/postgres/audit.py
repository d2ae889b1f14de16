"""(internal) PostgreSQL tables of the audit log and of writes held for approval (a mixin of PostgresStore)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from tiermem.store.base import AuditEntry, PendingWrite
from tiermem.store.sql_where import audit_select
from tiermem.types import Scope

__all__ = ["PgAuditMixin"]


def _json(value: dict[str, object] | None) -> Jsonb | None:
    return None if value is None else Jsonb(value)


class PgAuditMixin:
    """Audit log and pending writes."""

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def append_audit(self, scope: Scope, entries: Sequence[AuditEntry]) -> None:
        if not entries:
            return
        rows = [
            (scope.tenant, scope.user or "", e.record_id, e.at, e.actor, e.op, e.version, _json(e.before),
             _json(e.after), e.detail)
            for e in entries
        ]  # fmt: skip
        with self._tenant(scope.tenant) as conn:
            conn.execute(
                "INSERT INTO audit_log (tenant, user_key, record_id, at, actor, op, version, before, after, detail)"
                f" VALUES {', '.join(['(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)'] * len(rows))}",
                [v for row in rows for v in row],
            )

    def audit(self, scope: Scope, record_id: str | None = None, *, limit: int = 1000) -> list[AuditEntry]:
        statement, params = audit_select(scope, record_id, limit, "%s")
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(statement, params).fetchall()
        return [
            AuditEntry(record_id=rid, at=at, actor=actor, op=op, version=version, before=before, after=after,
                       detail=detail, seq=seq)
            for seq, rid, at, actor, op, version, before, after, detail in rows
        ]  # fmt: skip

    def put_pending(self, scope: Scope, pending: PendingWrite) -> None:
        with self._tenant(scope.tenant) as conn:
            conn.execute(
                "INSERT INTO pending_writes (tenant, id, user_key, created_at, record, reason)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                [scope.tenant, pending.id, scope.user or "", pending.created_at, Jsonb(pending.record), pending.reason],
            )

    def list_pending(self, scope: Scope) -> list[PendingWrite]:
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                "SELECT id, created_at, record, reason FROM pending_writes WHERE tenant = %s AND user_key = %s"
                " ORDER BY created_at, id",
                [scope.tenant, scope.user or ""],
            ).fetchall()
        return [PendingWrite(i, t, r, why) for i, t, r, why in rows]

    def take_pending(self, scope: Scope, pending_id: str) -> PendingWrite | None:
        with self._tenant(scope.tenant) as conn:
            row = conn.execute(
                "DELETE FROM pending_writes WHERE tenant = %s AND id = %s AND user_key = %s"
                " RETURNING id, created_at, record, reason",
                [scope.tenant, pending_id, scope.user or ""],
            ).fetchone()
        return None if row is None else PendingWrite(row[0], row[1], row[2], row[3])
