"""Export everything held about a user as JSON, and import such a file into an empty scope.

Records go through ``MemoryRecord.to_json`` (every record: live, expired and superseded). The other tables of
the scope are exported row by row with every column but ``tenant``, ``user_key`` and a rowid alias, so a
column added by a later migration travels without a change here. Times become ISO 8601 strings and JSON
columns nested JSON. Vectors are not exported: import embeds the records again with the importing store's
embedder, so an export, an import with the same embedder and a second export are equal but for
``exported_at``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from tiermem.embed import Embedder
from tiermem.errors import ConflictError, StoreError, ValidationError
from tiermem.lifecycle.erase import require_sqlite, run_sql, scoped_tables
from tiermem.lifecycle.history import record_from_json
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import Store, StoredItem
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import MemoryRecord, Scope

__all__ = ["FORMAT", "NOT_EXPORTED", "SECTIONS", "ImportReport", "export_user", "import_user"]

FORMAT = "tiermem-export/1"
# Export key -> table. Records are exported separately, as records.
SECTIONS = MappingProxyType(
    {
        "core_blocks": "core_blocks",
        "core_block_edits": "core_block_edits",
        "context_windows": "context_windows",
        "audit": "audit_log",
        "pending": "pending_writes",
    }
)
# Scoped tables deliberately left out, and why (a test fails when a new scoped table is in neither list).
NOT_EXPORTED = MappingProxyType(
    {"vectors": "made again from the records by the importing store", "scope_generations": "cache bookkeeping"}
)
_JSON_COLUMNS = {("audit_log", "before"), ("audit_log", "after"), ("pending_writes", "record")}
_JSON_COLUMNS |= {("context_windows", "message_ids")}
_SCOPE_COLUMNS = ("tenant", "user_key")


@dataclass(frozen=True, slots=True)
class ImportReport:
    """Rows restored per export section."""

    tenant: str
    user: str | None
    restored: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)


@dataclass(frozen=True, slots=True)
class _Column:
    name: str
    is_time: bool
    is_json: bool


def export_user(store: Store, scope: Scope, *, now: datetime) -> dict[str, Any]:
    """Everything held about ``scope``'s (tenant, user) as JSON-ready data; agent and session are ignored."""
    sqlite = require_sqlite(store)
    whole = Scope(scope.tenant, scope.user)
    key = [scope.tenant, scope.user or ""]
    ids = [rid for (rid,) in run_sql(sqlite, "SELECT id FROM records WHERE tenant = ? AND user_key = ?", key)]
    records = sorted(sqlite.get_many(whole, ids).values(), key=lambda r: (r.created_at, r.id))
    data: dict[str, Any] = {
        "format": FORMAT,
        "tenant": scope.tenant,
        "user": scope.user,
        "exported_at": now.isoformat(),
        "records": [r.to_json() for r in records],
    }
    for section, table in SECTIONS.items():
        data[section] = _export_rows(sqlite, table, key)
    return data


def import_user(store: Store, embedder: Embedder | None, data: Mapping[str, Any]) -> ImportReport:
    """Restore an export into its (tenant, user), which must be empty; all or nothing, in one transaction.

    Records are embedded again with ``embedder`` (and take its fingerprint); without one they get no vector.
    """
    sqlite = require_sqlite(store)
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        given = data.get("format") if isinstance(data, Mapping) else type(data).__name__
        raise ValidationError("format", f"must be '{FORMAT}' (a file written by tiermem export)", given=given)
    scope = _scope_of(data)
    records = _records(data, scope)
    sections = {s: _list(data, s) for s in SECTIONS}
    _require_empty(sqlite, scope)  # before embedding, which may take a while
    items = _embedded(records, embedder)
    restored = {"records": len(records)}
    with sqlite.transaction():
        _require_empty(sqlite, scope)  # again under the write lock: another writer may have come first
        sqlite.put_many(items)
        for section, rows in sections.items():
            restored[section] = _import_rows(sqlite, SECTIONS[section], section, rows, scope)
    return ImportReport(scope.tenant, scope.user, MappingProxyType(restored))


# -- export ---------------------------------------------------------------------------------------------------


def _columns(store: SQLiteStore, table: str) -> tuple[list[_Column], str]:
    """The columns that travel (not the scope, not an INTEGER PRIMARY KEY: the target assigns that rowid),
    and the primary key to order rows by, so an export does not depend on insertion order."""
    info = run_sql(store, f"PRAGMA table_info({table})")  # cid, name, type, notnull, default, pk
    pks = sorted((row for row in info if row[5]), key=lambda row: int(row[5]))
    rowid_alias = pks[0][1] if len(pks) == 1 and str(pks[0][2]).upper() == "INTEGER" else None
    columns = [
        _Column(name, name == "at" or name.endswith("_at"), (table, name) in _JSON_COLUMNS)
        for _, name, *_ in info
        if name not in _SCOPE_COLUMNS and name != rowid_alias
    ]
    return columns, ", ".join(row[1] for row in pks) or "rowid"


def _export_rows(store: SQLiteStore, table: str, key: list[str]) -> list[dict[str, Any]]:
    columns, order = _columns(store, table)
    rows = run_sql(
        store,
        f"SELECT {', '.join(c.name for c in columns)} FROM {table} WHERE tenant = ? AND user_key = ? ORDER BY {order}",
        key,
    )
    return [{c.name: _out(table, c, v) for c, v in zip(columns, row, strict=True)} for row in rows]


def _out(table: str, column: _Column, value: Any) -> Any:
    if value is None:
        return None
    if column.is_time and isinstance(value, int | float):
        return datetime.fromtimestamp(value, UTC).isoformat()
    if column.is_json:
        try:
            return json.loads(value)
        except ValueError as exc:
            raise StoreError(f"{table}.{column.name} holds text that is not JSON: {exc}") from exc
    return value


# -- import ---------------------------------------------------------------------------------------------------


def _scope_of(data: Mapping[str, Any]) -> Scope:
    tenant, user = data.get("tenant"), data.get("user")
    if not isinstance(tenant, str) or not (user is None or isinstance(user, str)):
        raise ValidationError("tenant", "and user must be strings (user may be null)", given=(tenant, user))
    return Scope(tenant, user)


def _list(data: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValidationError(key, "must be a list of objects", given=type(value).__name__)
    return value


def _records(data: Mapping[str, Any], scope: Scope) -> list[MemoryRecord]:
    out: list[MemoryRecord] = []
    for i, item in enumerate(_list(data, "records")):
        try:
            record = record_from_json(item)
        except ValidationError as exc:
            raise ValidationError(f"records[{i}].{exc.field}", exc.problem, given=exc.given, limit=exc.limit) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValidationError(f"records[{i}]", f"is not a valid record ({exc!r})", given=item.get("id")) from None
        if (record.scope.tenant, record.scope.user) != (scope.tenant, scope.user):
            raise ValidationError(f"records[{i}]", f"belongs to {record.scope}, not to {scope}", given=record.id)
        out.append(record)
    return out


def _require_empty(store: SQLiteStore, scope: Scope) -> None:
    # The audit log may hold entries of an earlier erase; history is append-only, so it does not count.
    held = {}
    for table in scoped_tables(store):
        if table in ("audit_log", *NOT_EXPORTED):
            continue
        sql = f"SELECT COUNT(*) FROM {table} WHERE tenant = ? AND user_key = ?"
        n = int(run_sql(store, sql, [scope.tenant, scope.user or ""])[0][0])
        if n:
            held[table] = n
    if held:
        counts = ", ".join(f"{t} {n}" for t, n in held.items())
        raise ConflictError(f"scope {scope} is not empty ({counts}); import restores into an empty scope only")


def _embedded(records: Sequence[MemoryRecord], embedder: Embedder | None) -> list[StoredItem]:
    """The records with vectors made by ``embedder`` (for those that had one), outside any transaction."""
    wanted = [i for i, r in enumerate(records) if r.embedding_model is not None and embedder is not None]
    items = [StoredItem(replace(r, embedding_model=None), None) for r in records]
    if embedder is not None and wanted:
        vectors, passages = embed_with_passages(embedder, [records[i].content for i in wanted])
        for row, i in enumerate(wanted):
            record = replace(records[i], embedding_model=embedder.fingerprint)
            items[i] = StoredItem(record, vectors[row], passages=passages[row])
    return items


def _import_rows(store: SQLiteStore, table: str, section: str, rows: Sequence[dict[str, Any]], scope: Scope) -> int:
    columns = {c.name: c for c in _columns(store, table)[0]}
    for i, row in enumerate(rows):
        unknown = sorted(set(row) - set(columns))
        if unknown:
            raise ValidationError(f"{section}[{i}]", f"has fields this store does not know: {', '.join(unknown)}")
        names = list(row)
        values = [_in(columns[n], row[n], f"{section}[{i}].{n}") for n in names]
        cols = ", ".join([*_SCOPE_COLUMNS, *names])
        try:
            store.execute(
                f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * (len(names) + 2))})",
                [scope.tenant, scope.user or "", *values],
            )
        except sqlite3.IntegrityError as exc:
            # The transaction rolls back: a failed import writes nothing.
            if "NOT NULL" in str(exc):
                raise ValidationError(f"{section}[{i}]", f"misses a required field ({exc})") from None
            raise ConflictError(f"cannot restore {section}[{i}]: {exc}; nothing was written") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"cannot restore {section}[{i}]: {exc}") from exc
    return len(rows)


def _in(column: _Column, value: Any, where: str) -> Any:
    if value is None:
        return None
    if column.is_json:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if column.is_time and isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise ValidationError(where, "must be an ISO 8601 time", given=value) from None
        if parsed.tzinfo is None:
            raise ValidationError(where, "must include a timezone offset", given=value)
        return parsed.timestamp()
    if not isinstance(value, str | int | float):
        raise ValidationError(where, "must be a string, a number or null", given=value)
    return value
