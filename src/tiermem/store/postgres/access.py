"""(internal) AccessStore on PostgreSQL: API keys and session bindings (migration 0004_access.sql).

A key is found by its id alone: authentication happens before anyone knows the tenant, so ``find_key``,
``revoke_key`` and ``list_keys()`` of every tenant go through the schema's functions that run as its owner
(migration 0009), like the store-wide maintenance reads. Everything that names a tenant runs as that tenant,
walled in by row-level security. The primary key is (tenant, id) so the table distributes by tenant; that an id
is unique across tenants too is checked by ``add_key`` under an advisory lock on the id.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.errors import ConflictError
from tiermem.store.access_base import KEY_COLUMNS, ApiKey, key_of, key_row
from tiermem.store.postgres.sql import as_is

__all__ = ["PgAccessMixin"]


class PgAccessMixin:
    """AccessStore's methods on the PostgresStore's pool; writes join the caller's transaction."""

    if TYPE_CHECKING:  # provided by PostgresStore

        def transaction(self) -> AbstractContextManager[None]: ...

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _anywhere(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def add_key(self, key: ApiKey) -> None:
        with self.transaction():
            with self._anywhere() as conn:
                # Two processes adding the same id at once: the second waits here, then sees the first's row.
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"tiermem-key-{key.id}"])
                if conn.execute("SELECT 1 FROM tiermem_find_key(%s)", [key.id]).fetchone() is not None:
                    raise ConflictError(f"an API key with id {key.id} exists already")
            with self._tenant(key.tenant) as conn:
                conn.execute(
                    f"INSERT INTO api_keys ({KEY_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    key_row(key, as_is),
                )

    def find_key(self, key_id: str) -> ApiKey | None:
        with self._anywhere() as conn:
            row = conn.execute(f"SELECT {KEY_COLUMNS} FROM tiermem_find_key(%s)", [key_id]).fetchone()
        return None if row is None else key_of(row, as_is)

    def list_keys(self, tenant: str | None = None) -> list[ApiKey]:
        if tenant is None:
            with self._anywhere() as conn:
                rows = conn.execute(f"SELECT {KEY_COLUMNS} FROM tiermem_list_keys()").fetchall()
        else:
            with self._tenant(tenant) as conn:
                rows = conn.execute(
                    f"SELECT {KEY_COLUMNS} FROM api_keys WHERE tenant = %s ORDER BY created_at, id", [tenant]
                ).fetchall()
        return [key_of(row, as_is) for row in rows]

    def revoke_key(self, key_id: str, *, at: datetime) -> bool:
        with self._anywhere() as conn:
            row = conn.execute("SELECT tiermem_revoke_key(%s, %s)", [key_id, at]).fetchone()
        return bool(row and row[0])

    def bind_session(self, tenant: str, session: str, user: str | None, *, at: datetime) -> str | None:
        with self._tenant(tenant) as conn:
            # A racing insert of the same (tenant, session) waits for the first to commit, then does nothing;
            # the SELECT (a new snapshot under READ COMMITTED) then reads the winner.
            conn.execute(
                "INSERT INTO session_bindings (tenant, session, user_key, bound_at) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (tenant, session) DO NOTHING",
                [tenant, session, user or "", at],
            )
            row = conn.execute(
                "SELECT user_key FROM session_bindings WHERE tenant = %s AND session = %s", [tenant, session]
            ).fetchone()
        assert row is not None  # inserted above or by the transaction that won
        return str(row[0]) or None
