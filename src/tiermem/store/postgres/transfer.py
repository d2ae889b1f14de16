"""(internal) The rows of an export and an import on PostgreSQL: every record of a user, and the other scoped rows.

Fields are read from the table definitions (information_schema), so a column added by a later migration travels
without a change here: every column but ``tenant``, ``user_key`` and identity columns (the target assigns those).
``timestamptz`` columns are TIME, ``jsonb`` columns JSON, numeric ones NUMBER, the rest TEXT.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from tiermem.embed import Vectors
from tiermem.errors import ConflictError, StoreError, ValidationError
from tiermem.store.maintenance_base import FieldKind, RecordVectors, RowField, refuse_unknown_fields
from tiermem.store.postgres.maintenance import INTERNAL_TABLES, scoped_tables
from tiermem.store.postgres.sql import COLUMNS, row_to_record
from tiermem.types import MemoryRecord, Scope

__all__ = ["PgTransferMixin"]

_SCOPE_COLUMNS = ("tenant", "user_key")
# Records travel as records (``scope_records``); their vectors are made again by the importing store.
_NOT_ROWS = ("records", "vectors", *INTERNAL_TABLES)
_NUMERIC = ("integer", "bigint", "smallint", "double precision", "real", "numeric")


class PgTransferMixin:
    """MaintenanceStore's export and import methods."""

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _anywhere(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def scope_records(self, scope: Scope) -> list[MemoryRecord]:
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                f"SELECT {COLUMNS} FROM records r WHERE r.tenant = %s AND r.user_key = %s ORDER BY r.seq",
                [scope.tenant, scope.user or ""],
            ).fetchall()
        return [row_to_record(row) for row in rows]

    def held_scopes(self) -> list[Scope]:
        with self._anywhere() as conn:  # across tenants: the schema's function that runs as its owner
            rows = conn.execute("SELECT tenant, user_key FROM tiermem_held_scopes()").fetchall()
        return [Scope(t, u or None) for t, u in sorted(rows)]  # by code point, not the server's collation

    def stored_vectors(self, scope: Scope, ids: Sequence[str]) -> RecordVectors:
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                "SELECT record_id, part, vec FROM vectors WHERE tenant = %s AND user_key = %s AND record_id = ANY(%s)"
                " ORDER BY record_id, part",
                [scope.tenant, scope.user or "", list(ids)],
            ).fetchall()
        grouped: dict[str, list[Vectors]] = {}
        for rid, _, vec in rows:
            grouped.setdefault(rid, []).append(np.asarray(vec.to_numpy(), dtype=np.float32))
        return {rid: (v[0], np.stack(v[1:]) if len(v) > 1 else None) for rid, v in grouped.items()}

    def row_fields(self, table: str) -> tuple[RowField, ...]:
        with self._anywhere() as conn:  # the catalog only
            return _fields(conn, table)[0]

    def export_rows(self, scope: Scope, table: str) -> list[dict[str, Any]]:
        with self._tenant(scope.tenant) as conn:
            fields, order = _fields(conn, table)
            query = sql.SQL("SELECT {} FROM {} WHERE tenant = %s AND user_key = %s ORDER BY {}").format(
                sql.SQL(", ").join(sql.Identifier(f.name) for f in fields),
                sql.Identifier(table),
                sql.SQL(", ").join(sql.Identifier(c) for c in order),
            )
            rows = conn.execute(query, [scope.tenant, scope.user or ""]).fetchall()
        return [dict(zip((f.name for f in fields), row, strict=True)) for row in rows]

    def import_rows(self, scope: Scope, table: str, rows: Sequence[Mapping[str, Any]]) -> int:
        with self._tenant(scope.tenant) as conn:
            fields = {f.name: f for f in _fields(conn, table)[0]}
            for i, row in enumerate(rows):
                refuse_unknown_fields(f"{table}[{i}]", row, fields)
                names = list(row)
                values = [Jsonb(row[n]) if fields[n].kind is FieldKind.JSON and row[n] is not None else row[n]
                          for n in names]  # fmt: skip
                query = sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
                    sql.Identifier(table),
                    sql.SQL(", ").join(sql.Identifier(n) for n in [*_SCOPE_COLUMNS, *names]),
                    sql.SQL(", ").join(sql.Placeholder() * (len(names) + 2)),
                )
                try:
                    with conn.transaction():  # a savepoint: the error below is reported, not a broken transaction
                        conn.execute(query, [scope.tenant, scope.user or "", *values])
                except psycopg.errors.NotNullViolation as exc:
                    raise ValidationError(f"{table}[{i}]", f"misses a required field ({exc})") from None
                except psycopg.errors.UniqueViolation as exc:
                    raise ConflictError(f"{table}[{i}] clashes with a stored row: {exc}") from exc
                except psycopg.Error as exc:
                    raise StoreError(f"cannot insert {table}[{i}]: {exc}") from exc
        return len(rows)


def _fields(conn: psycopg.Connection[Any], table: str) -> tuple[tuple[RowField, ...], list[str]]:
    """The fields that travel, and the primary key columns to order rows by (tenant aside)."""
    if table in _NOT_ROWS or table not in scoped_tables(conn):
        raise ValidationError("table", "must be a table of scoped rows this store holds", given=table)
    info = conn.execute(
        "SELECT column_name, data_type, is_nullable, column_default, is_identity FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position",
        [table],
    ).fetchall()
    fields = tuple(
        RowField(name, _kind(str(kind)), nullable == "NO" and default is None)
        for name, kind, nullable, default, identity in info
        if name not in _SCOPE_COLUMNS and identity != "YES"
    )
    keys = conn.execute(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
        " WHERE i.indrelid = %s::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)",
        [table],
    ).fetchall()
    return fields, [k[0] for k in keys if k[0] != "tenant"]


def _kind(data_type: str) -> FieldKind:
    if data_type.startswith("timestamp"):
        return FieldKind.TIME
    if data_type in ("jsonb", "json"):
        return FieldKind.JSON
    return FieldKind.NUMBER if data_type in _NUMERIC else FieldKind.TEXT
