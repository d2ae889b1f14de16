"""(internal) Export everything held about a user as JSON, and import such a file into an empty scope.

Records go through ``MemoryRecord.to_json`` (every record: live, expired and superseded). The other tables of
the scope travel row by row with the fields the store names for them (``Store.row_fields``: every column but
the scope and a store-assigned key), so a column added by a later migration travels without a change here.
Times become ISO 8601 strings and JSON fields nested JSON. Vectors are not exported: import embeds the records
again with the importing store's embedder, so an export, an import with the same embedder and a second export
are equal but for ``exported_at``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from tiermem.embed import Embedder, Vectors
from tiermem.errors import ConflictError, ValidationError
from tiermem.lifecycle.admit import admit_imported, admit_rows
from tiermem.lifecycle.history import record_from_json
from tiermem.recall.passages import embed_with_passages
from tiermem.store.base import Store, StoredItem, scope_writes
from tiermem.store.maintenance_base import FieldKind, RowField, refuse_unknown_fields
from tiermem.types import MemoryRecord, Scope, Source, aware_time, utcnow
from tiermem.write.scan import ScanPolicy, scan_with_vectors

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
    {
        "vectors": "made again from the records by the importing store",
        "scope_generations": "cache bookkeeping",
        "api_keys": "credentials (hashes of secrets): made anew by the operator, never carried in a file",
        "session_bindings": "access bookkeeping of the service: a session is bound again on its first use",
        "idempotency_keys": "the service's answers kept for retries, a day at most",
        "turn_leases": "which turn holds a session while it runs, minutes at most (erased with the user)",
    }
)
# What ``held_rows`` counts that says nothing about whether a scope is empty: the audit log may hold entries
# of an earlier erase (history is append-only), and index rows go with their records.
_NOT_DATA = frozenset({"audit_log", "records_fts", *NOT_EXPORTED})


@dataclass(frozen=True, slots=True)
class ImportReport:
    """Rows restored per export section."""

    tenant: str
    user: str | None
    restored: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)


def export_user(store: Store, scope: Scope, *, now: datetime) -> dict[str, Any]:
    """Everything held about ``scope``'s (tenant, user) as JSON-ready data; agent and session are ignored."""
    whole = Scope(scope.tenant, scope.user)
    records = sorted(store.scope_records(whole), key=lambda r: (r.created_at, r.id))
    data: dict[str, Any] = {
        "format": FORMAT,
        "tenant": scope.tenant,
        "user": scope.user,
        "exported_at": now.isoformat(),
        "records": [r.to_json() for r in records],
    }
    for section, table in SECTIONS.items():
        data[section] = [{k: _out(v) for k, v in row.items()} for row in store.export_rows(whole, table)]
    return data


def import_user(
    store: Store,
    embedder: Embedder | None,
    data: Mapping[str, Any],
    *,
    name: str = "export",
    vouched: bool = False,
    scan: ScanPolicy | None = None,
    now: datetime | None = None,
) -> ImportReport:
    """Restore an export into its (tenant, user), which must be empty; all or nothing, in one transaction.

    The file passes the write gate (``write.gate``): a credential anywhere refuses it whole, and every record is
    scanned again. Its records are stored as from ``import:<name>`` with that source's trust, unless ``vouched``
    (an operator vouches for the file: records keep the source and trust it gives them). Records are embedded
    again with ``embedder`` (and take its fingerprint); without one they get no vector.
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        given = data.get("format") if isinstance(data, Mapping) else type(data).__name__
        raise ValidationError("format", f"must be '{FORMAT}' (a file written by tiermem export)", given=given)
    scope = _scope_of(data)
    at = now or utcnow()
    policy = scan or ScanPolicy()
    source = Source.parse(f"import:{name}")
    records, judged = admit_imported(store, scope, _records(data, scope), source, vouched, policy, at)
    sections = {s: _list(data, s) for s in SECTIONS}
    _require_empty(store, scope)  # before embedding, which may take a while
    rows = {s: _rows_in(store.row_fields(SECTIONS[s]), s, r) for s, r in sections.items()}
    rows = admit_rows(store, scope, rows, source, vouched, policy, at)
    items = _embedded(records, embedder, judged, policy)
    restored = {"records": len(records)}
    with scope_writes(store, scope):
        _require_empty(store, scope)  # again under the write lock: another writer may have come first
        store.put_many(items)
        for section, section_rows in rows.items():
            try:
                restored[section] = store.import_rows(scope, SECTIONS[section], section_rows)
            except ConflictError as exc:
                # The transaction rolls back: a failed import writes nothing.
                raise ConflictError(f"cannot restore {section}: {exc}; nothing was written") from exc
    return ImportReport(scope.tenant, scope.user, MappingProxyType(restored))


# -- export ---------------------------------------------------------------------------------------------------


def _out(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


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
            wrong: ValidationError | None = ValidationError(
                f"records[{i}].{exc.field}", exc.problem, given=exc.given, limit=exc.limit
            )
        except (KeyError, TypeError, ValueError) as exc:
            wrong = ValidationError(f"records[{i}]", f"is not a valid record ({exc!r})", given=item.get("id"))
        else:
            wrong = None
        if wrong is not None:
            raise wrong  # outside the handler: the first error, and what it quotes, is not carried as the context
        if (record.scope.tenant, record.scope.user) != (scope.tenant, scope.user):
            raise ValidationError(f"records[{i}]", f"belongs to {record.scope}, not to {scope}", given=record.id)
        out.append(record)
    return out


def _require_empty(store: Store, scope: Scope) -> None:
    held = {t: n for t, n in store.held_rows(scope).items() if n and t not in _NOT_DATA}
    if held:
        counts = ", ".join(f"{t} {n}" for t, n in held.items())
        raise ConflictError(f"scope {scope} is not empty ({counts}); import restores into an empty scope only")


def _embedded(
    records: list[MemoryRecord], embedder: Embedder | None, judged: Sequence[int], policy: ScanPolicy
) -> list[StoredItem]:
    """The records with vectors made by ``embedder`` (for those that had one), outside any transaction; the
    ``judged`` ones also scored by the learned injection signal on those vectors (``write.scan``)."""
    wanted = [i for i, r in enumerate(records) if r.embedding_model is not None and embedder is not None]
    known: dict[int, tuple[Vectors | None, Vectors | None]] = {}
    if embedder is not None and wanted:
        vectors, passages = embed_with_passages(embedder, [records[i].content for i in wanted])
        known = {i: (vectors[row], passages[row]) for row, i in enumerate(wanted)}
    scan_with_vectors(records, judged, embedder, known, policy)
    items = [StoredItem(replace(r, embedding_model=None), None) for r in records]
    fingerprint = embedder.fingerprint if embedder is not None else None
    for i, (vector, parts) in known.items():
        items[i] = StoredItem(replace(records[i], embedding_model=fingerprint), vector, passages=parts)
    return items


def _rows_in(fields: Sequence[RowField], section: str, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a section as the store takes them, checked against its fields; errors name the row."""
    known = {f.name: f for f in fields}
    out: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        refuse_unknown_fields(f"{section}[{i}]", row, known)
        missing = [f.name for f in fields if f.required and row.get(f.name) is None]
        if missing:
            raise ValidationError(f"{section}[{i}]", f"misses a required field ({', '.join(missing)})")
        out.append({name: _in(known[name], value, f"{section}[{i}].{name}") for name, value in row.items()})
    return out


def _in(field: RowField, value: Any, where: str) -> Any:
    if value is None or field.kind is FieldKind.JSON:
        return value
    if field.kind is FieldKind.TIME and isinstance(value, str):
        return aware_time(where, value)
    if not isinstance(value, str | int | float):
        raise ValidationError(where, "must be a string, a number or null", given=value)
    if field.kind is FieldKind.TIME and not isinstance(value, str):  # epoch seconds
        return datetime.fromtimestamp(value, UTC)
    return value
