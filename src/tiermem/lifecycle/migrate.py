"""(internal) Copy a whole store into another (SQLite to PostgreSQL, or back): every scope, verified, resumable.

Each (tenant, user) is copied in one transaction of the target: its records with their vectors (passages
included, as stored: nothing is embedded again), then its audit log, held writes, core blocks and their edits and
context windows, in the order the source holds them. A scope the target already holds identically (same counts and
checksum) is skipped, so a run that was interrupted is simply started again; a scope the target holds otherwise is
a ConflictError, since copying over it would mix two histories. After each scope the counts and a checksum of
every row are compared on both sides.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from tiermem.errors import ConflictError, StoreError
from tiermem.lifecycle.export import SECTIONS
from tiermem.store import Store, StoredItem
from tiermem.store.maintenance_base import RecordVectors
from tiermem.types import MemoryRecord, Scope

__all__ = ["MigrationReport", "ScopeCopy", "migrate_store", "scope_checksum"]

TABLES = tuple(SECTIONS.values())  # the scoped tables besides records and their vectors


@dataclass(frozen=True, slots=True)
class ScopeCopy:
    """One scope's outcome: copied or already there (skipped), its rows per table and its checksum."""

    scope: Scope
    skipped: bool
    rows: Mapping[str, int]
    checksum: str


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """Every scope's outcome, and the rows copied per table in this run."""

    scopes: tuple[ScopeCopy, ...] = ()
    copied: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def scope_checksum(store: Store, scope: Scope) -> tuple[dict[str, int], str]:
    """Rows per table and a SHA-256 over every record, vector and row of the scope (store-independent)."""
    digest = hashlib.sha256()
    records = sorted(store.scope_records(scope), key=lambda r: r.id)
    vectors = store.stored_vectors(scope, [r.id for r in records])
    for record in records:
        digest.update(json.dumps(_canonical(record.to_json()), sort_keys=True).encode())
        own, parts = vectors.get(record.id, (None, None))
        for array in (own, parts):
            digest.update(b"-" if array is None else np.asarray(array, dtype="<f4").tobytes())
    counts = {"records": len(records), "vectors": len(vectors)}
    for table in TABLES:
        rows = store.export_rows(scope, table)
        counts[table] = len(rows)
        digest.update(f"{table}:".encode())
        digest.update(json.dumps(_canonical(rows), sort_keys=True).encode())
    return counts, digest.hexdigest()


def _batches(records: list[MemoryRecord], vectors: RecordVectors, size: int) -> Iterator[list[StoredItem]]:
    for start in range(0, len(records), size):
        yield [
            StoredItem(r, vectors[r.id][0], passages=vectors[r.id][1]) if r.id in vectors else StoredItem(r, None)
            for r in records[start : start + size]
        ]


def migrate_store(
    source: Store,
    target: Store,
    *,
    batch: int = 500,
    on_scope: Callable[[Scope, int], None] | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> MigrationReport:
    """Copy every scope of ``source`` into ``target`` (see the module docstring); ``on_scope(scope, rows)`` is
    called before a scope is copied, ``on_rows(n)`` as its rows are."""
    done: list[ScopeCopy] = []
    copied: dict[str, int] = {}
    for scope in source.held_scopes():
        counts, checksum = scope_checksum(source, scope)
        if on_scope is not None:
            on_scope(scope, sum(counts.values()))
        held = {t: n for t, n in target.held_rows(scope).items() if t in counts or t in TABLES}
        if any(held.values()) or target.audit(scope, limit=1):
            there, there_sum = scope_checksum(target, scope)
            if (there, there_sum) != (counts, checksum):
                raise ConflictError(
                    f"the target already holds other rows of {scope.tenant}/{scope.user or ''} ({there}, the source"
                    f" {counts}); erase them there or pick an empty target"
                )
            done.append(ScopeCopy(scope, True, MappingProxyType(counts), checksum))
            if on_rows is not None:
                on_rows(sum(counts.values()))
            continue
        records = source.scope_records(scope)  # in the source's order of insertion: ties and pages keep it
        vectors = source.stored_vectors(scope, [r.id for r in records])
        with target.transaction():
            for items in _batches(records, vectors, batch):
                target.put_many(items)
                if on_rows is not None:
                    on_rows(len(items))
            for table in TABLES:
                rows = source.export_rows(scope, table)
                if rows:
                    target.import_rows(scope, table, rows)
                if on_rows is not None:
                    on_rows(len(rows))
        after, after_sum = scope_checksum(target, scope)
        if (after, after_sum) != (counts, checksum):
            raise StoreError(
                f"the copy of {scope.tenant}/{scope.user or ''} does not match its source: {after} rows against"
                f" {counts}, checksum {after_sum[:12]} against {checksum[:12]}"
            )
        for table, n in counts.items():
            copied[table] = copied.get(table, 0) + n
        done.append(ScopeCopy(scope, False, MappingProxyType(counts), checksum))
    return MigrationReport(tuple(done), MappingProxyType(copied))
