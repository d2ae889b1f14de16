"""(internal) The rows of an export and an import on SQLite: every record of a user, and the other scoped tables' rows.

Fields are read from the table definitions (PRAGMA table_info), so a column added by a later migration travels
without a change here: every column but ``tenant``, ``user_key`` and a rowid alias (the target assigns that).
Times are stored as epoch seconds and handed out as aware datetimes; the columns listed in ``_JSON_COLUMNS``
hold JSON text and are handed out decoded.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from tiermem.errors import ConflictError, StoreError, ValidationError
from tiermem.store.maintenance_base import HELD_TABLES, FieldKind, RecordVectors, RowField, refuse_unknown_fields
from tiermem.store.sqlite.maintenance import Connected, run_sql, run_sql_in, scoped_tables
from tiermem.store.sqlite.rows import COLUMNS, row_to_record
from tiermem.store.vector_index import unpack_vectors
from tiermem.types import MemoryRecord, Scope

__all__ = ["SQLiteTransferMixin"]

_JSON_COLUMNS = frozenset(
    {
        ("audit_log", "before"),
        ("audit_log", "after"),
        ("pending_writes", "record"),
        ("context_windows", "message_ids"),
    }
)
_SCOPE_COLUMNS = ("tenant", "user_key")
_NUMERIC = ("INT", "REAL", "FLOA", "DOUB", "NUMERIC")  # SQLite's type affinity rules, by substring


class SQLiteTransferMixin(Connected):
    """MaintenanceStore's export and import methods on the store's connection."""

    if TYPE_CHECKING:  # provided by SQLiteStore

        def transaction(self) -> AbstractContextManager[None]: ...

    def scope_records(self, scope: Scope) -> list[MemoryRecord]:
        rows = run_sql(
            self,
            f"SELECT {COLUMNS} FROM records r WHERE r.tenant = ? AND r.user_key = ? ORDER BY r.rowid",
            [scope.tenant, scope.user or ""],
        )
        return [row_to_record(row) for row in rows]

    def held_scopes(self) -> list[Scope]:
        tables = [t for t in ("records", *HELD_TABLES) if t in scoped_tables(self)]
        union = " UNION ".join(f"SELECT tenant, user_key FROM {t}" for t in tables)
        return [Scope(t, u or None) for t, u in sorted(run_sql(self, union))]  # by code point, as on any store

    def stored_vectors(self, scope: Scope, ids: Sequence[str]) -> RecordVectors:
        out: RecordVectors = {}
        rows = run_sql_in(
            self,
            "SELECT r.id, v.vec, v.dim FROM records r JOIN vectors v ON v.record_rowid = r.rowid WHERE r.tenant = ?"
            " AND r.user_key = ? AND r.id IN",
            [scope.tenant, scope.user or ""],
            ids,
        )
        for rid, blob, dim in rows:
            own, parts = unpack_vectors(blob, dim)
            out[rid] = (np.array(own), None if parts is None else np.array(parts))
        return out

    def row_fields(self, table: str) -> tuple[RowField, ...]:
        return self._fields(table)[0]

    def export_rows(self, scope: Scope, table: str) -> list[dict[str, Any]]:
        fields, order = self._fields(table)
        rows = run_sql(
            self,
            f"SELECT {', '.join(f.name for f in fields)} FROM {table} WHERE tenant = ? AND user_key = ?"
            f" ORDER BY {order}",
            [scope.tenant, scope.user or ""],
        )
        return [{f.name: _out(table, f, v) for f, v in zip(fields, row, strict=True)} for row in rows]

    def import_rows(self, scope: Scope, table: str, rows: Sequence[Mapping[str, Any]]) -> int:
        fields = {f.name: f for f in self._fields(table)[0]}
        with self.transaction():
            for i, row in enumerate(rows):
                refuse_unknown_fields(f"{table}[{i}]", row, fields)
                names = list(row)
                values = [_in(fields[n], row[n]) for n in names]
                try:
                    self._conn.execute(
                        f"INSERT INTO {table} ({', '.join([*_SCOPE_COLUMNS, *names])})"
                        f" VALUES ({', '.join('?' * (len(names) + 2))})",
                        [scope.tenant, scope.user or "", *values],
                    )
                except sqlite3.IntegrityError as exc:
                    if "NOT NULL" in str(exc):
                        raise ValidationError(f"{table}[{i}]", f"misses a required field ({exc})") from None
                    raise ConflictError(f"{table}[{i}] clashes with a stored row: {exc}") from exc
                except sqlite3.Error as exc:
                    raise StoreError(f"cannot insert {table}[{i}]: {exc}") from exc
        return len(rows)

    def _fields(self, table: str) -> tuple[tuple[RowField, ...], str]:
        """The fields that travel, and the primary key to order rows by (an export must not depend on the
        order rows were inserted in)."""
        if table not in scoped_tables(self):
            raise ValidationError("table", "must be a table of scoped rows this store holds", given=table)
        info = run_sql(self, f"PRAGMA table_info({table})")  # cid, name, type, notnull, default, pk
        pks = sorted((row for row in info if row[5]), key=lambda row: int(row[5]))
        rowid_alias = pks[0][1] if len(pks) == 1 and str(pks[0][2]).upper() == "INTEGER" else None
        fields = tuple(
            RowField(name, _kind(table, name, str(declared)), bool(notnull) and default is None)
            for _, name, declared, notnull, default, _ in info
            if name not in _SCOPE_COLUMNS and name != rowid_alias
        )
        return fields, ", ".join(row[1] for row in pks) or "rowid"


def _kind(table: str, name: str, declared: str) -> FieldKind:
    if name == "at" or name.endswith("_at"):
        return FieldKind.TIME
    if (table, name) in _JSON_COLUMNS:
        return FieldKind.JSON
    return FieldKind.NUMBER if any(t in declared.upper() for t in _NUMERIC) else FieldKind.TEXT


def _out(table: str, field: RowField, value: Any) -> Any:
    if value is None:
        return None
    if field.kind is FieldKind.TIME and isinstance(value, int | float):
        return datetime.fromtimestamp(value, UTC)
    if field.kind is FieldKind.JSON:
        try:
            return json.loads(value)
        except ValueError as exc:
            raise StoreError(f"{table}.{field.name} holds text that is not JSON: {exc}") from exc
    return value


def _in(field: RowField, value: Any) -> Any:
    if value is None:
        return None
    if field.kind is FieldKind.JSON:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, datetime):
        return value.timestamp()
    return value
