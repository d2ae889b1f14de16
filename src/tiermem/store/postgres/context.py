"""(internal) ContextStore on PostgreSQL: core blocks, their edits and context windows (a mixin of PostgresStore)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from tiermem.errors import ConflictError, ValidationError
from tiermem.store.context_base import (
    ANY_REVISION,
    MAX_EDITS,
    BlockEdit,
    CoreBlock,
    WindowState,
    block_key,
    check_revision,
    check_stored,
    check_version,
    window_key,
)
from tiermem.store.sql_where import scope_where
from tiermem.types import Scope, new_id

__all__ = ["PgContextMixin"]


class PgContextMixin:
    """Core blocks, their edits and context windows in the store's transactions."""

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def load_core_blocks(self, scope: Scope) -> list[CoreBlock]:
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                "SELECT name, limit_tokens, value, description, read_only, version, updated_at FROM core_blocks"
                " WHERE tenant = %s AND user_key = %s AND agent = %s ORDER BY name",
                block_key(scope),
            ).fetchall()
        return [CoreBlock(n, lim, v, d, bool(ro), ver, up) for n, lim, v, d, ro, ver, up in rows]

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

    def core_block_edits(self, scope: Scope, name: str, *, limit: int = 100) -> list[BlockEdit]:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_EDITS:
            raise ValidationError("limit", f"must be an integer from 1 to {MAX_EDITS}", given=limit, limit=MAX_EDITS)
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                "SELECT id, name, actor, at, op, before, after, version FROM core_block_edits WHERE tenant = %s"
                " AND user_key = %s AND agent = %s AND name = %s ORDER BY version DESC, at DESC LIMIT %s",
                [*block_key(scope), name, limit],
            ).fetchall()
        return [BlockEdit(i, n, actor, at, op, before, after, v) for i, n, actor, at, op, before, after, v in rows]

    def load_context_window(self, scope: Scope) -> WindowState | None:
        with self._tenant(scope.tenant) as conn:
            row = conn.execute(
                "SELECT message_ids, summary_through, updated_at, revision FROM context_windows"
                " WHERE tenant = %s AND user_key = %s AND agent = %s AND session = %s",
                window_key(scope),
            ).fetchone()
        return None if row is None else WindowState(tuple(row[0]), row[1], row[2], row[3])

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

    def rewrite_core_texts(self, scope: Scope, rewrite: Callable[[str], str], *, actor: str, at: datetime) -> int:
        key = [scope.tenant, scope.user or ""]
        changed = 0
        with self._tenant(scope.tenant) as conn:
            # FOR UPDATE: an edit saved meanwhile is waited for and rewritten too, never overwritten by a rewrite of
            # the value before it (``save_core_block`` locks the same row).
            blocks = conn.execute(
                "SELECT agent, name, value, version FROM core_blocks WHERE tenant = %s AND user_key = %s FOR UPDATE",
                key,
            ).fetchall()
            for agent, name, value, version in blocks:
                new = rewrite(value)
                if new == value:
                    continue
                changed += 1
                conn.execute(
                    "UPDATE core_blocks SET value = %s, version = %s, updated_at = %s"
                    " WHERE tenant = %s AND user_key = %s AND agent = %s AND name = %s",
                    [new, version + 1, at, *key, agent, name],
                )
                conn.execute(
                    "INSERT INTO core_block_edits (id, tenant, user_key, agent, name, actor, at, op, before, after,"
                    " version) VALUES (%s, %s, %s, %s, %s, %s, %s, 'redact', NULL, %s, %s)",
                    [new_id(), *key, agent, name, actor, at, new, version + 1],
                )
            edits = conn.execute(
                "SELECT id, before, after FROM core_block_edits WHERE tenant = %s AND user_key = %s", key
            ).fetchall()
            for edit_id, before, after in edits:
                texts = [None if t is None else rewrite(t) for t in (before, after)]
                if texts != [before, after]:
                    conn.execute(
                        "UPDATE core_block_edits SET before = %s, after = %s WHERE tenant = %s AND id = %s",
                        [*texts, scope.tenant, edit_id],
                    )
        return changed

    def delete_context(self, scope: Scope) -> int:
        windows, wparams = scope_where(scope, "%s", with_session=True)
        removed = 0
        with self._tenant(scope.tenant) as conn:
            removed += conn.execute(f"DELETE FROM context_windows WHERE {windows}", wparams).rowcount
            if scope.session is None:  # core memory is shared by the agent's sessions
                where, params = scope_where(scope, "%s", with_session=False)
                for table in ("core_blocks", "core_block_edits"):
                    removed += conn.execute(f"DELETE FROM {table} WHERE {where}", params).rowcount
        return removed
