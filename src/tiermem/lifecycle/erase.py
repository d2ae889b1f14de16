"""Forget one record, erase a user or a tenant, and scrub the database file so deleted text is really gone.

Deleting a row is not enough to remove its text from a SQLite file: the freed page keeps the bytes, the WAL
keeps earlier page images, the full-text index keeps the tokens in older segments until they are merged,
and the audit log keeps every version of the record as JSON. So every deletion here runs with
``PRAGMA secure_delete`` (freed content is overwritten with zeros) and redacts the audit entries of what it
deleted; ``scrub`` then merges (or rebuilds) the full-text index, optionally VACUUMs, and checkpoints and
truncates the WAL. ``find_bytes`` checks the result on disk.

Erase finds its tables generically: every table with ``tenant`` and ``user_key`` columns is emptied for the
erased scope, so a table added by a later migration is covered without touching this module. Two are
special: ``audit_log`` is redacted (the fact that something happened stays, its content goes) and
``scope_generations`` is reset so every vector cache reloads.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tiermem.errors import ConfigError, NotFoundError, StoreError, ValidationError
from tiermem.store.base import AuditEntry, Store
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import Scope

__all__ = [
    "EraseReport",
    "erase",
    "find_bytes",
    "forget",
    "redact_audit",
    "require_sqlite",
    "run_sql",
    "scoped_tables",
    "scrub",
    "secure_delete",
]

# Tables with tenant and user_key columns that erase does not simply empty.
_REDACTED = "audit_log"
_GENERATIONS = "scope_generations"
# The source kind without its ':<detail>' part: a URL or tool name may itself be personal data.
_ACTOR_KIND = "CASE WHEN instr(actor, ':') > 0 THEN substr(actor, 1, instr(actor, ':') - 1) ELSE actor END"
_CHUNK = 900  # below SQLite's host-parameter limit
_ID_LENGTH = 36  # a record id is a UUID string


@dataclass(frozen=True, slots=True)
class EraseReport:
    """What an erase removed, per table, and whether the file was scrubbed."""

    tenant: str
    user: str | None  # None: the whole tenant (every user and the shared memory)
    removed: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    audit_redacted: int = 0
    scrubbed: bool = False  # False: another connection kept the WAL from being truncated; run erase again


def require_sqlite(store: Store) -> SQLiteStore:
    """The store as a SQLiteStore, or a ConfigError: these jobs work on the SQLite file itself."""
    if not isinstance(store, SQLiteStore):
        raise ConfigError(f"sweep, erase, export and import need the SQLite store, not {type(store).__name__}")
    return store


def run_sql(store: SQLiteStore, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """One statement on the store's connection; driver errors become StoreError."""
    try:
        return store.execute(sql, params)
    except sqlite3.Error as exc:
        raise StoreError(f"{sql.split()[0]} failed: {exc}") from exc


def scoped_tables(store: SQLiteStore) -> tuple[str, ...]:
    """Every ordinary table with ``tenant`` and ``user_key`` columns, ``records`` first."""
    names = [
        name
        for (name,) in run_sql(
            store,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
        )
    ]
    scoped = [n for n in names if {"tenant", "user_key"} <= {c[1] for c in run_sql(store, f"PRAGMA table_info({n})")}]
    # records first: its delete trigger needs the old row to remove the full-text entry and the vector.
    return tuple(sorted(scoped, key=lambda n: (n != "records", n)))


@contextmanager
def secure_delete(store: SQLiteStore) -> Iterator[None]:
    """Overwrite deleted content with zeros while inside; the connection's previous setting is restored."""
    (previous,) = run_sql(store, "PRAGMA secure_delete")[0]
    run_sql(store, "PRAGMA secure_delete = ON")
    try:
        yield
    finally:
        run_sql(store, f"PRAGMA secure_delete = {int(previous)}")


def scrub(store: SQLiteStore, *, full: bool) -> bool:
    """Remove the bytes deleted rows left behind; True if the WAL was checkpointed and truncated.

    Merging the full-text index drops the tokens of deleted rows from its segments; ``full`` also rebuilds it
    from the records and VACUUMs (a new file holding only live pages). Must run outside a transaction.
    """
    with secure_delete(store):
        with store.transaction():
            if full:
                run_sql(store, "INSERT INTO records_fts (records_fts) VALUES ('rebuild')")
            run_sql(store, "INSERT INTO records_fts (records_fts) VALUES ('optimize')")
        if full:
            try:
                store.execute("VACUUM")
            except sqlite3.Error as exc:
                raise StoreError(f"VACUUM failed: {exc} (erase and scrub cannot run inside a transaction)") from exc
        busy, _, _ = run_sql(store, "PRAGMA wal_checkpoint(TRUNCATE)")[0]
    return int(busy) == 0


def redact_audit(store: SQLiteStore, scope: Scope, record_ids: Sequence[str], reason: str) -> int:
    """Drop the content (before, after, detail, actor detail) of these records' audit entries; returns how many.

    Also blanks the detail of the entries of older records these ones superseded: a supersession's reason may
    quote the newer record's values ("new value: 555-0199"); the older record's own history stays.
    """
    redacted = 0
    with store.transaction():
        for start in range(0, len(record_ids), _CHUNK):
            chunk = list(record_ids[start : start + _CHUNK])
            marks = ",".join("?" * len(chunk))
            rows = run_sql(
                store,
                f"UPDATE audit_log SET before = NULL, after = NULL, detail = ?, actor = {_ACTOR_KIND}"
                f" WHERE record_id IN ({marks}) RETURNING seq",
                [reason, *chunk],
            )
            redacted += len(rows)
            # write.py ends a supersession's detail with "; by <id of the newer record>".
            run_sql(
                store,
                "UPDATE audit_log SET detail = 'superseded by a record since deleted' WHERE tenant = ?"
                f" AND user_key = ? AND op = 'supersede' AND substr(detail, -{_ID_LENGTH}) IN ({marks})",
                [scope.tenant, scope.user or "", *chunk],
            )
    return redacted


def forget(
    store: Store, scope: Scope, record_id: str, *, now: datetime, actor: str = "user", scrub_file: bool = False
) -> None:
    """Delete one record with its index and vector rows and redact its audit trail; NotFoundError if absent.

    The freed bytes are zeroed at once; the full-text index and the WAL keep traces until the next sweep or
    erase scrubs the file, or at once with ``scrub_file``.
    """
    sqlite = require_sqlite(store)
    with secure_delete(sqlite):
        with sqlite.transaction():
            record = sqlite.get(scope, record_id)
            if record is None:
                raise NotFoundError(f"no record {record_id} in scope {scope}")
            sqlite.delete(scope, [record_id])
            redact_audit(sqlite, scope, [record_id], "redacted by forget")
            entry = AuditEntry(record_id, now, actor, "forget", record.version, None, None, "")
            sqlite.append_audit(record.scope, [entry])
        if scrub_file:
            scrub(sqlite, full=False)


def erase(store: Store, tenant: str, user: str | None = None, *, now: datetime, actor: str = "system") -> EraseReport:
    """Remove every trace of a user (or, with ``user`` None, of the whole tenant) and scrub the file."""
    sqlite = require_sqlite(store)
    scope = Scope(tenant, user)  # validates the names before anything is touched
    where, params = _scope_where(tenant, user)
    tables = [t for t in scoped_tables(sqlite) if t not in (_REDACTED, _GENERATIONS)]
    with secure_delete(sqlite):
        with sqlite.transaction():
            # Counted first: the records trigger deletes the vectors, so counting them afterwards says 0.
            removed = _count_rows(sqlite, tables, tenant, user)
            for table in tables:
                run_sql(sqlite, f"DELETE FROM {table} WHERE {where}", params)
            redacted = run_sql(
                sqlite,
                f"UPDATE audit_log SET before = NULL, after = NULL, detail = 'redacted by erase',"
                f" actor = {_ACTOR_KIND} WHERE {where} AND op != 'erase' RETURNING seq",
                params,
            )
            # Bumped, not deleted: a generation number never repeats, so no cache anywhere can match it again.
            run_sql(sqlite, f"UPDATE {_GENERATIONS} SET gen = gen + 1, n = 0 WHERE {where}", params)
            whom = "the whole tenant" if user is None else "one user"
            counts = ", ".join(f"{t} {n}" for t, n in removed.items() if n) or "nothing"
            sqlite.append_audit(scope, [AuditEntry("", now, actor, "erase", 0, None, None, f"{whom}: {counts}")])
            # Erased data should not outlive the erase in this process's vector cache either.
            sqlite.drop_cached_vectors(tenant, user)
        scrubbed = scrub(sqlite, full=True)
    return EraseReport(tenant, user, MappingProxyType(removed), len(redacted), scrubbed)


def _count_rows(store: SQLiteStore, tables: Sequence[str], tenant: str, user: str | None) -> dict[str, int]:
    """Rows of the scope per table, and its full-text entries as ``records_fts``."""
    where, params = _scope_where(tenant, user)
    counts: dict[str, int] = {}
    for table in tables:
        counts[table] = int(run_sql(store, f"SELECT COUNT(*) FROM {table} WHERE {where}", params)[0][0])
        if table == "records":
            joined, _ = _scope_where(tenant, user, "r.")
            fts = "SELECT COUNT(*) FROM records_fts_docsize d JOIN records r ON r.rowid = d.id WHERE "
            counts["records_fts"] = int(run_sql(store, fts + joined, params)[0][0])
    return counts


def _scope_where(tenant: str, user: str | None, prefix: str = "") -> tuple[str, list[str]]:
    if user is None:
        return f"{prefix}tenant = ?", [tenant]
    return f"{prefix}tenant = ? AND {prefix}user_key = ?", [tenant, user]


def find_bytes(db_path: str | Path, needle: str | bytes) -> list[str]:
    """The files of the database (main, -wal, -journal, -shm) whose bytes contain ``needle`` (UTF-8)."""
    pattern = needle.encode("utf-8") if isinstance(needle, str) else needle
    if not pattern:
        raise ValidationError("needle", "must not be empty")
    base = Path(db_path)
    found: list[str] = []
    for path in (base, *(base.with_name(base.name + s) for s in ("-wal", "-journal", "-shm"))):
        if path.is_file() and _file_contains(path, pattern):
            found.append(str(path))
    return found


def _file_contains(path: Path, pattern: bytes, block: int = 1 << 20) -> bool:
    tail = b""
    with path.open("rb") as fh:
        while chunk := fh.read(block):
            if pattern in tail + chunk:
                return True
            tail = (tail + chunk)[-(len(pattern) - 1) :] if len(pattern) > 1 else b""
    return False
