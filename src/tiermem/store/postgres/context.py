"""(internal) ContextStore on PostgreSQL: core blocks, their edits and context windows (a mixin of PostgresStore)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from tiermem.errors import ConflictError
from tiermem.store.context_base import (
    ANY_REVISION,
    BlockEdit,
    CoreBlock,
    WindowState,
    block_key,
    check_revision,
    check_stored,
    check_version,
    window_key,
)
from tiermem.store.context_rows import ContextRowsMixin
from tiermem.store.idempotency_base import Executes
from tiermem.types import Scope, new_id

__all__ = ["PgContextMixin"]


class PgContextMixin(ContextRowsMixin):
    """Core blocks, their edits and context windows in the store's transactions."""

    LOCK_ROW = " FOR UPDATE"

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def context_reads(self, tenant: str) -> AbstractContextManager[Executes]:
        return self._tenant(tenant)

    def context_writes(self, tenant: str) -> AbstractContextManager[Executes]:
        return self._tenant(tenant)

    def read_time(self, stored: datetime) -> datetime:
        return stored

    def read_ids(self, stored: list[str]) -> list[str]:
        return stored

    def save_core_block(self, scope: Scope, block: CoreBlock, *, expected_version: int, edit: BlockEdit) -> None:
        check_version(block, expected_version)
        key = block_key(scope)
        with self._tenant(scope.tenant) as conn:
            # FOR UPDATE: a concurrent writer of the same block waits here, then sees the version it wrote.
            row = conn.execute(
                "SELECT version FROM core_blocks WHERE tenant = %s AND user_key = %s AND agent = %s AND name = %s"
                " FOR UPDATE",
                [*key, block.name],
            ).fetchone()
            stored = 0 if row is None else int(row[0])
            check_stored(scope, block, stored, expected_version)
            written = conn.execute(
                "INSERT INTO core_blocks (tenant, user_key, agent, name, value, limit_tokens, description, read_only,"
                " version, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (tenant, user_key, agent, name) DO UPDATE SET value = excluded.value,"
                " limit_tokens = excluded.limit_tokens, description = excluded.description,"
                " read_only = excluded.read_only, version = excluded.version, updated_at = excluded.updated_at"
                " WHERE core_blocks.version = %s",
                [*key, block.name, block.value, block.limit, block.description, int(block.read_only), block.version,
                 block.updated_at or edit.at, expected_version],
            ).rowcount  # fmt: skip
            if not written:  # created meanwhile by a concurrent first save: that one won
                raise ConflictError(
                    f"core block '{block.name}' of {scope}: the edit expected version {expected_version} but another"
                    " writer saved it first; reload the block and retry"
                )
            conn.execute(
                "INSERT INTO core_block_edits (tenant, id, user_key, agent, name, actor, at, op, before, after,"
                " version)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [scope.tenant, edit.id, *key[1:], block.name, edit.actor, edit.at, edit.op, edit.before, edit.after,
                 block.version],
            )  # fmt: skip

    def save_context_window(self, scope: Scope, state: WindowState, *, expected: str | None = ANY_REVISION) -> None:
        key = window_key(scope)
        with self._tenant(scope.tenant) as conn:
            if expected != ANY_REVISION:
                # FOR UPDATE: a concurrent save of the same window waits here, then sees the revision it wrote.
                row = conn.execute(
                    "SELECT revision FROM context_windows"
                    " WHERE tenant = %s AND user_key = %s AND agent = %s AND session = %s FOR UPDATE",
                    key,
                ).fetchone()
                check_revision(scope, None if row is None else row[0], expected)
            written = conn.execute(
                "INSERT INTO context_windows (tenant, user_key, agent, session, message_ids, summary_through,"
                " updated_at, revision) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (tenant, user_key, agent, session) DO UPDATE SET message_ids = excluded.message_ids,"
                " summary_through = excluded.summary_through, updated_at = excluded.updated_at,"
                " revision = excluded.revision WHERE %s::boolean OR context_windows.revision = %s::text",
                [*key, Jsonb(list(state.message_ids)), state.summary_through, state.updated_at or datetime.now(UTC),
                 state.revision or new_id(), expected == ANY_REVISION, ANY_REVISION if expected is None else expected],
            ).rowcount  # fmt: skip
            if not written:  # saved meanwhile by a concurrent first save: no row was there to lock above
                check_revision(scope, "", expected)

    def renew_windows_holding(self, scope: Scope, record_ids: Sequence[str]) -> int:
        with self._tenant(scope.tenant) as conn:
            return conn.execute(
                "UPDATE context_windows SET revision = %s"
                " WHERE tenant = %s AND user_key = %s AND jsonb_exists_any(message_ids, %s::text[])",
                [new_id(), scope.tenant, scope.user or "", list(record_ids)],
            ).rowcount
