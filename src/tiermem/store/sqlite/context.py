"""(internal) ContextStore on SQLite: a mixin for SQLiteStore over the tables of migration 0002_context.sql."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Protocol

from tiermem.errors import StoreError, ValidationError
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
from tiermem.store.sqlite.rows import at_utc
from tiermem.types import Scope, new_id

__all__ = ["SQLiteContextMixin"]


class _SQLiteHost(Protocol):
    """What the mixin needs of the class it is mixed into (SQLiteStore)."""

    _conn: sqlite3.Connection

    @property
    def _lock(self) -> AbstractContextManager[Any]: ...

    def transaction(self) -> AbstractContextManager[None]: ...


_CHUNK = 500  # ids per statement: under SQLite's limit of bound parameters


class SQLiteContextMixin:
    """Core blocks, their edits and context windows in the SQLiteStore's connection and transactions."""

    def load_core_blocks(self: _SQLiteHost, scope: Scope) -> list[CoreBlock]:
        """The blocks of the scope's (tenant, user, agent), by name."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT name, limit_tokens, value, description, read_only, version, updated_at FROM core_blocks"
                " WHERE tenant = ? AND user_key = ? AND agent = ? ORDER BY name",
                block_key(scope),
            ).fetchall()
        return [
            CoreBlock(name, limit, value, description, bool(read_only), version, at_utc(updated))
            for name, limit, value, description, read_only, version, updated in rows
        ]

    def save_core_block(
        self: _SQLiteHost, scope: Scope, block: CoreBlock, *, expected_version: int, edit: BlockEdit
    ) -> None:
        """Store ``block`` and its edit atomically; ConflictError unless the stored version is ``expected_version``."""
        check_version(block, expected_version)
        key = block_key(scope)
        updated = (block.updated_at or edit.at).timestamp()
        try:
            with self.transaction():
                row = self._conn.execute(
                    "SELECT version FROM core_blocks WHERE tenant = ? AND user_key = ? AND agent = ? AND name = ?",
                    (*key, block.name),
                ).fetchone()
                stored = 0 if row is None else int(row[0])
                check_stored(scope, block, stored, expected_version)
                self._conn.execute(
                    "INSERT INTO core_blocks (tenant, user_key, agent, name, value, limit_tokens, description,"
                    " read_only, version, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)"
                    " ON CONFLICT (tenant, user_key, agent, name) DO UPDATE SET value = excluded.value,"
                    " limit_tokens = excluded.limit_tokens, description = excluded.description,"
                    " read_only = excluded.read_only, version = excluded.version, updated_at = excluded.updated_at",
                    (
                        *key,
                        block.name,
                        block.value,
                        block.limit,
                        block.description,
                        int(block.read_only),
                        block.version,
                        updated,
                    ),
                )
                self._conn.execute(
                    "INSERT INTO core_block_edits (id, tenant, user_key, agent, name, actor, at, op, before, after,"
                    " version) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        edit.id,
                        *key,
                        block.name,
                        edit.actor,
                        edit.at.timestamp(),
                        edit.op,
                        edit.before,
                        edit.after,
                        block.version,
                    ),
                )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save core block '{block.name}': {exc}") from exc

    def core_block_edits(self: _SQLiteHost, scope: Scope, name: str, *, limit: int = 100) -> list[BlockEdit]:
        """The most recent edits of one block, newest first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_EDITS:
            raise ValidationError("limit", f"must be an integer from 1 to {MAX_EDITS}", given=limit, limit=MAX_EDITS)
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, name, actor, at, op, before, after, version FROM core_block_edits"
                " WHERE tenant = ? AND user_key = ? AND agent = ? AND name = ? ORDER BY version DESC, at DESC LIMIT ?",
                (*block_key(scope), name, limit),
            ).fetchall()
        return [
            BlockEdit(i, n, actor, at_utc(at), op, before, after, v) for i, n, actor, at, op, before, after, v in rows
        ]

    def load_context_window(self: _SQLiteHost, scope: Scope) -> WindowState | None:
        """The scope's saved window, or None if none was saved."""
        with self._lock:
            row = self._conn.execute(
                "SELECT message_ids, summary_through, updated_at, revision FROM context_windows"
                " WHERE tenant = ? AND user_key = ? AND agent = ? AND session = ?",
                window_key(scope),
            ).fetchone()
        if row is None:
            return None
        ids, through, updated, revision = row
        return WindowState(tuple(json.loads(ids)), through, at_utc(updated), revision)

    def save_context_window(
        self: _SQLiteHost, scope: Scope, state: WindowState, *, expected: str | None = ANY_REVISION
    ) -> None:
        """Replace the scope's saved window; ConflictError unless the stored revision is ``expected``."""
        updated = (state.updated_at or datetime.now(UTC)).timestamp()
        key = window_key(scope)
        try:
            # BEGIN IMMEDIATE: no other process writes between the revision read here and the save.
            with self.transaction():
                if expected != ANY_REVISION:
                    row = self._conn.execute(
                        "SELECT revision FROM context_windows"
                        " WHERE tenant = ? AND user_key = ? AND agent = ? AND session = ?",
                        key,
                    ).fetchone()
                    check_revision(scope, None if row is None else row[0], expected)
                self._conn.execute(
                    "INSERT INTO context_windows (tenant, user_key, agent, session, message_ids, summary_through,"
                    " updated_at, revision) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (tenant, user_key, agent, session)"
                    " DO UPDATE SET message_ids = excluded.message_ids, summary_through = excluded.summary_through,"
                    " updated_at = excluded.updated_at, revision = excluded.revision",
                    (*key, _json_ids(state.message_ids), state.summary_through, updated, state.revision or new_id()),
                )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save the context window of {scope}: {exc}") from exc

    def renew_windows_holding(self: _SQLiteHost, scope: Scope, record_ids: Sequence[str]) -> int:
        """Give each window of the scope's user that holds one of ``record_ids`` a new revision; how many."""
        renewed = 0
        with self.transaction():
            for start in range(0, len(record_ids), _CHUNK):
                chunk = list(record_ids[start : start + _CHUNK])
                renewed += self._conn.execute(
                    "UPDATE context_windows SET revision = ? WHERE tenant = ? AND user_key = ? AND EXISTS"
                    f" (SELECT 1 FROM json_each(message_ids) WHERE value IN ({','.join('?' * len(chunk))}))",
                    [new_id(), scope.tenant, scope.user or "", *chunk],
                ).rowcount
        return renewed

    def delete_context(self: _SQLiteHost, scope: Scope) -> int:
        """Delete the scope's windows, and its blocks and edits unless a session is named; returns rows removed."""
        windows_where, windows_params = scope_where(scope, "?", with_session=True)
        removed = 0
        with self.transaction():
            removed += self._conn.execute(f"DELETE FROM context_windows WHERE {windows_where}", windows_params).rowcount
            # Core memory is shared by the agent's sessions, so deleting one session leaves it alone.
            if scope.session is None:
                where, params = scope_where(scope, "?", with_session=False)
                for table in ("core_blocks", "core_block_edits"):
                    removed += self._conn.execute(f"DELETE FROM {table} WHERE {where}", params).rowcount
        return removed


# Printable ASCII but the two characters JSON escapes inside a string.
_PLAIN_BYTES = bytes(c for c in range(0x20, 0x7F) if c not in b'"\\')


def _json_ids(ids: Sequence[str]) -> str:
    """A JSON array of ``ids``; record ids need no escaping, and json.dumps costs 0.3 ms per 1,000 of them."""
    plain = "".join(ids)
    # isascii is O(1); deleting every plain byte leaves nothing when no character needs escaping.
    if plain.isascii() and not plain.encode("ascii").translate(None, _PLAIN_BYTES):
        return '["' + '","'.join(ids) + '"]' if ids else "[]"
    return json.dumps(list(ids))
