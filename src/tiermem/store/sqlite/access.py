"""(internal) AccessStore on SQLite: API keys and session bindings (migration 0005_access.sql)."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING

from tiermem.errors import ConflictError
from tiermem.store.access_base import KEY_COLUMNS, ApiKey, key_of, key_row
from tiermem.store.sqlite.maintenance import Connected
from tiermem.store.sqlite.rows import at_utc, ts

__all__ = ["SQLiteAccessMixin"]


class SQLiteAccessMixin(Connected):
    """AccessStore's methods on the SQLiteStore's connection; writes join the store's transactions."""

    if TYPE_CHECKING:  # provided by SQLiteStore

        def transaction(self) -> AbstractContextManager[None]: ...

    def add_key(self, key: ApiKey) -> None:
        with self.transaction():
            try:
                self._conn.execute(
                    f"INSERT INTO api_keys ({KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    key_row(key, datetime.timestamp),
                )
            except sqlite3.IntegrityError:
                raise ConflictError(f"an API key with id {key.id} exists already") from None

    def find_key(self, key_id: str) -> ApiKey | None:
        with self._lock:
            row = self._conn.execute(f"SELECT {KEY_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        return None if row is None else key_of(row, at_utc)

    def list_keys(self, tenant: str | None = None) -> list[ApiKey]:
        where, params = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {KEY_COLUMNS} FROM api_keys {where} ORDER BY created_at, id", params
            ).fetchall()
        return [key_of(row, at_utc) for row in rows]

    def revoke_key(self, key_id: str, *, at: datetime) -> bool:
        with self.transaction():
            cur = self._conn.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?", (ts(at), key_id)
            )
            return cur.rowcount > 0

    def bind_session(self, tenant: str, session: str, user: str | None, *, at: datetime) -> str | None:
        with self.transaction():  # BEGIN IMMEDIATE: insert-or-read is one step for every process
            self._conn.execute(
                "INSERT INTO session_bindings (tenant, session, user_key, bound_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (tenant, session) DO NOTHING",
                (tenant, session, user or "", ts(at)),
            )
            (owner,) = self._conn.execute(
                "SELECT user_key FROM session_bindings WHERE tenant = ? AND session = ?", (tenant, session)
            ).fetchone()
        return str(owner) or None
