"""(internal) ContextStore on SQLite: a mixin for SQLiteStore over the tables of migration 0002_context.sql."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from tiermem.store.context_rows import ContextRowsMixin
from tiermem.store.idempotency_base import Executes
from tiermem.store.sqlite.maintenance import Connected, secure_delete
from tiermem.store.sqlite.rows import at_utc
from tiermem.types import Scope, new_id

__all__ = ["SQLiteContextMixin"]


_CHUNK = 500  # ids per statement: under SQLite's limit of bound parameters
# Printable ASCII but the two characters JSON escapes inside a string.
_PLAIN_BYTES = bytes(c for c in range(0x20, 0x7F) if c not in b'"\\')


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

    def written_ids(self, ids: Sequence[str]) -> str:
        """A JSON array of ``ids``; record ids need no escaping, and json.dumps costs 0.3 ms per 1,000 of them."""
        plain = "".join(ids)
        # isascii is O(1); deleting every plain byte leaves nothing when no character needs escaping.
        if plain.isascii() and not plain.encode("ascii").translate(None, _PLAIN_BYTES):
            return '["' + '","'.join(ids) + '"]' if ids else "[]"
        return json.dumps(list(ids))

    def texts_scrubbed(self) -> AbstractContextManager[None]:
        return secure_delete(self)

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
