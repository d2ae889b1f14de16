"""(internal) SQLite tables of the audit log and of writes held for approval (a mixin of SQLiteStore)."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from tiermem.store.base import AuditEntry, PendingWrite
from tiermem.store.sql_where import audit_select
from tiermem.types import Scope

__all__ = ["SQLiteAuditMixin", "audit_json", "audit_loads"]


def audit_json(value: dict[str, object] | None) -> str | None:
    """A record snapshot as the audit log keeps it."""
    return None if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


def audit_loads(value: str | None) -> dict[str, Any] | None:
    """A record snapshot as the audit log keeps it, decoded."""
    return None if value is None else dict(json.loads(value))


class SQLiteAuditMixin:
    """Audit log and pending writes on the store's connection."""

    _conn: sqlite3.Connection
    _lock: threading.RLock

    def transaction(self) -> AbstractContextManager[None]:  # provided by SQLiteStore
        raise NotImplementedError

    def append_audit(self, scope: Scope, entries: Sequence[AuditEntry]) -> None:
        with self.transaction():
            self._conn.executemany(
                "INSERT INTO audit_log (tenant, user_key, record_id, at, actor, op, version, before, after, detail)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        scope.tenant,
                        scope.user or "",
                        e.record_id,
                        e.at.timestamp(),
                        e.actor,
                        e.op,
                        e.version,
                        audit_json(e.before),
                        audit_json(e.after),
                        e.detail,
                    )
                    for e in entries
                ],
            )

    def audit(self, scope: Scope, record_id: str | None = None, *, limit: int = 1000) -> list[AuditEntry]:
        sql, params = audit_select(scope, record_id, limit, "?")
        with self._lock:
            rows = self._conn.execute(sql, params).fetchall()
        return [
            AuditEntry(
                record_id=rid,
                at=datetime.fromtimestamp(at, UTC),
                actor=actor,
                op=op,
                version=version,
                before=audit_loads(before),
                after=audit_loads(after),
                detail=detail,
                seq=seq,
            )
            for seq, rid, at, actor, op, version, before, after, detail in rows
        ]

    def put_pending(self, scope: Scope, pending: PendingWrite) -> None:
        with self.transaction():
            self._conn.execute(
                "INSERT INTO pending_writes VALUES (?, ?, ?, ?, ?, ?)",
                (
                    pending.id,
                    scope.tenant,
                    scope.user or "",
                    pending.created_at.timestamp(),
                    json.dumps(pending.record, ensure_ascii=False),
                    pending.reason,
                ),
            )

    def list_pending(self, scope: Scope) -> list[PendingWrite]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, created_at, record, reason FROM pending_writes WHERE tenant = ? AND user_key = ?"
                " ORDER BY created_at",
                (scope.tenant, scope.user or ""),
            ).fetchall()
        return [PendingWrite(i, datetime.fromtimestamp(t, UTC), json.loads(r), why) for i, t, r, why in rows]

    def take_pending(self, scope: Scope, pending_id: str) -> PendingWrite | None:
        with self.transaction():
            row = self._conn.execute(
                "DELETE FROM pending_writes WHERE id = ? AND tenant = ? AND user_key = ?"
                " RETURNING id, created_at, record, reason",
                (pending_id, scope.tenant, scope.user or ""),
            ).fetchone()
        if row is None:
            return None
        return PendingWrite(row[0], datetime.fromtimestamp(row[1], UTC), json.loads(row[2]), row[3])
