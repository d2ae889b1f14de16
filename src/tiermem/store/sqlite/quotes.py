"""(internal) Taking a deleted record's words out of the copies other rows hold (a mixin of SQLiteStore).

A turn's search context quotes the turn before it, and a write held for approval carries such a context too;
when the quoted record is forgotten or swept, ``drop_context_lines`` and ``drop_held_context_lines`` take the
words out, with ``PRAGMA secure_delete`` so the old text is overwritten (``rewrite_core_texts``, in
``store.context_rows``, does the same for the core blocks that quote evicted messages).

A forget looks for the records whose context holds its lines through the full-text index (a phrase in the
``context`` column), not by reading every row of the user: the index holds each context as ``index_text``
gives it, so a line that is part of a context is a phrase of that context's entry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any

from tiermem.store.quotes_base import QuotesBase, Snapshot
from tiermem.store.sqlite.audit import audit_json, audit_loads
from tiermem.store.sqlite.fts_syntax import scope_token
from tiermem.store.sqlite.maintenance import Connected, run_sql, run_sql_in, secure_delete
from tiermem.store.sqlite.sql import scope_sql
from tiermem.text_index import index_text
from tiermem.types import Scope

__all__ = ["SQLiteQuotesMixin"]

_FEW_LINES = 32  # a forget's lines are looked up in the full-text index; more (a sweep's) are matched by a scan
# A line the index can find holds a letter or digit: the tokenizer makes tokens of nothing else.
_INDEXABLE = re.compile(r"[^\W_]")


def _phrase(line: str) -> str:
    """``line`` as an FTS5 phrase of the words the index holds for it."""
    return '"' + (index_text(line) or "").replace('"', '""') + '"'


class SQLiteQuotesMixin(Connected, QuotesBase):
    """``drop_context_lines`` and ``drop_held_context_lines`` on the store's connection."""

    if TYPE_CHECKING:  # provided by SQLiteStore

        def transaction(self) -> AbstractContextManager[None]: ...

    @contextmanager
    def _quotes_transaction(self, scope: Scope) -> Iterator[None]:
        with secure_delete(self), self.transaction():
            yield

    def _quoting_records(self, conn: None, scope: Scope, wanted: frozenset[str]) -> list[tuple[str, str]]:
        if len(wanted) <= _FEW_LINES and all(_INDEXABLE.search(line) for line in wanted):
            where, params = scope_sql(scope, "r", by_key=True)
            match = f"scope_tok : {scope_token(scope)} AND {{context}} : ({' OR '.join(map(_phrase, sorted(wanted)))})"
            return run_sql(
                self,
                "SELECT r.id, r.context FROM records r WHERE r.rowid IN"
                f" (SELECT rowid FROM records_fts WHERE records_fts MATCH ?) AND {where} AND r.context IS NOT NULL",
                [match, *params],
            )
        where, params = scope_sql(scope, "records")
        return run_sql(self, f"SELECT id, context FROM records WHERE {where} AND context IS NOT NULL", params)

    def _audit_snapshots(self, conn: None, scope: Scope, ids: list[str]) -> list[tuple[Any, Snapshot, Snapshot]]:
        entries = run_sql_in(
            self,
            "SELECT seq, before, after FROM audit_log WHERE tenant = ? AND user_key = ? AND record_id IN",
            [scope.tenant, scope.user or ""],
            ids,
        )
        return [(seq, audit_loads(before), audit_loads(after)) for seq, before, after in entries]

    def _set_audit_snapshots(self, conn: None, scope: Scope, seq: Any, before: Snapshot, after: Snapshot) -> None:
        run_sql(
            self,
            "UPDATE audit_log SET before = ?, after = ? WHERE seq = ?",
            [audit_json(before), audit_json(after), seq],
        )

    def _quoting_held(self, conn: None, scope: Scope, wanted: frozenset[str]) -> list[tuple[str, dict[str, Any]]]:
        # Only the rows whose context holds a line are decoded: the user's held writes are not indexed.
        rows = run_sql(
            self,
            "SELECT id, record FROM pending_writes WHERE tenant = ? AND user_key = ? AND EXISTS"
            " (SELECT 1 FROM json_each(?) AS line WHERE instr(json_extract(record, '$.context'), line.value) > 0)",
            [scope.tenant, scope.user or "", json.dumps(sorted(wanted))],
        )
        return [(pending_id, json.loads(record)) for pending_id, record in rows]

    def _set_held(self, conn: None, scope: Scope, pending_id: str, record: dict[str, Any]) -> None:
        run_sql(
            self,
            "UPDATE pending_writes SET record = ? WHERE id = ?",
            [json.dumps(record, ensure_ascii=False), pending_id],
        )
