"""(internal) ContextStore on SQLite: a mixin for SQLiteStore over the tables of migration 0002_context.sql."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from tiermem.errors import StoreError
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
from tiermem.store.sqlite.maintenance import Connected, secure_delete
from tiermem.store.sqlite.rows import at_utc
from tiermem.types import Scope, new_id

__all__ = ["SQLiteContextMixin"]


_CHUNK = 500  # ids per statement: under SQLite's limit of bound parameters


class SQLiteContextMixin(Connected, ContextRowsMixin):
    """Core blocks, their edits and context windows in the SQLiteStore's connection and transactions."""

    LOCK_ROW = ""  # a write transaction (BEGIN IMMEDIATE) holds off every other writer

    if TYPE_CHECKING:  # provided by SQLiteStore

        def transaction(self) -> AbstractContextManager[None]: ...

    @contextmanager
    def context_reads(self, tenant: str) -> Iterator[Executes]:
        with self._lock:
            yield self._conn

    @contextmanager
    def context_writes(self, tenant: str) -> Iterator[Executes]:
        with self.transaction():
            yield self._conn

    def read_time(self, stored: float) -> datetime:
        return at_utc(stored)

    def read_ids(self, stored: str) -> list[str]:
        return list(json.loads(stored))

    def texts_scrubbed(self) -> AbstractContextManager[None]:
        return secure_delete(self)

    def save_core_block(self, scope: Scope, block: CoreBlock, *, expected_version: int, edit: BlockEdit) -> None:
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

    def save_context_window(self, scope: Scope, state: WindowState, *, expected: str | None = ANY_REVISION) -> None:
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

    def renew_windows_holding(self, scope: Scope, record_ids: Sequence[str]) -> int:
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


# Printable ASCII but the two characters JSON escapes inside a string.
_PLAIN_BYTES = bytes(c for c in range(0x20, 0x7F) if c not in b'"\\')


def _json_ids(ids: Sequence[str]) -> str:
    """A JSON array of ``ids``; record ids need no escaping, and json.dumps costs 0.3 ms per 1,000 of them."""
    plain = "".join(ids)
    # isascii is O(1); deleting every plain byte leaves nothing when no character needs escaping.
    if plain.isascii() and not plain.encode("ascii").translate(None, _PLAIN_BYTES):
        return '["' + '","'.join(ids) + '"]' if ids else "[]"
    return json.dumps(list(ids))
