"""(internal) Taking a deleted record's lines out of the contexts that quote it: the steps both backends share.

A record's context, a held write's context and the audit trail's snapshots of them may quote a record that is
forgotten or swept; ``drop_context_lines`` and ``drop_held_context_lines`` find those copies and write them
again without the lines. A backend gives the transaction and the statements (the hooks below).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tiermem.store.base import StoredItem
from tiermem.store.maintenance_base import changed_contexts, held_without_lines, snapshots_without_lines
from tiermem.types import MemoryRecord, Scope

__all__ = ["QuotesBase"]

Snapshot = dict[str, Any] | None


class QuotesBase:
    """``drop_context_lines`` and ``drop_held_context_lines`` over a backend's hooks."""

    if TYPE_CHECKING:  # provided by the store

        def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]: ...

        def put_many(self, items: Sequence[StoredItem]) -> None: ...

    def drop_context_lines(self, scope: Scope, lines: Collection[str]) -> int:
        wanted = frozenset(line for line in lines if line)
        if not wanted:
            return 0
        with self._quotes_transaction(scope) as conn:
            changed = changed_contexts(self._quoting_records(conn, scope, wanted), wanted)
            if not changed:
                return 0
            records = self.get_many(scope, list(changed)).values()
            # keep_vector: the context is full-text indexed only, so the vectors stay as they are.
            self.put_many([StoredItem(replace(r, context=changed[r.id]), None, keep_vector=True) for r in records])
            for seq, before, after in self._audit_snapshots(conn, scope, list(changed)):
                snapshots = snapshots_without_lines(before, after, wanted)
                if snapshots is not None:
                    self._set_audit_snapshots(conn, scope, seq, *snapshots)
        return len(changed)

    def drop_held_context_lines(self, scope: Scope, lines: Collection[str]) -> int:
        wanted = frozenset(line for line in lines if line)
        if not wanted:
            return 0
        with self._quotes_transaction(scope) as conn:
            changed = held_without_lines(self._quoting_held(conn, scope, wanted), wanted)
            for pending_id, record in changed.items():
                self._set_held(conn, scope, pending_id, record)
        return len(changed)

    def _quotes_transaction(self, scope: Scope) -> AbstractContextManager[Any]:
        """A write transaction of the scope's tenant, giving the connection the hooks below take."""
        raise NotImplementedError

    def _quoting_records(self, conn: Any, scope: Scope, wanted: frozenset[str]) -> Iterable[tuple[str, str]]:
        """(id, context) of the scope's records whose context may hold one of ``wanted``; a superset."""
        raise NotImplementedError

    def _audit_snapshots(self, conn: Any, scope: Scope, ids: list[str]) -> Iterable[tuple[Any, Snapshot, Snapshot]]:
        """(seq, before, after) of the audit entries of these records of the scope."""
        raise NotImplementedError

    def _set_audit_snapshots(self, conn: Any, scope: Scope, seq: Any, before: Snapshot, after: Snapshot) -> None:
        """Write an audit entry's snapshots again."""
        raise NotImplementedError

    def _quoting_held(self, conn: Any, scope: Scope, wanted: frozenset[str]) -> Iterable[tuple[str, dict[str, Any]]]:
        """(id, serialised record) of the scope's held writes whose context may hold one of ``wanted``."""
        raise NotImplementedError

    def _set_held(self, conn: Any, scope: Scope, pending_id: str, record: dict[str, Any]) -> None:
        """Write a held write's serialised record again."""
        raise NotImplementedError
