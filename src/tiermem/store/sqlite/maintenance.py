"""(internal) Erasure, retention queries and scrubbing on the SQLite file (the maintenance part of SQLiteStore).

Deleting a row is not enough to remove its text from a SQLite file: the freed page keeps the bytes, the WAL
keeps earlier page images, the full-text index keeps the tokens in older segments until they are merged, and
the audit log keeps every version of a record as JSON. So every deletion and redaction here runs with
``PRAGMA secure_delete`` (freed content is overwritten with zeros), and ``compact`` merges (or rebuilds) the
full-text index, optionally VACUUMs, and checkpoints and truncates the WAL. ``files.find_bytes`` checks the
result on disk.

Erase finds its tables generically: every table with ``tenant`` and ``user_key`` columns is emptied for the
erased scope, so a table added by a later migration is covered without touching this module. Two are special:
``audit_log`` is redacted (the fact that something happened stays, its content goes) and ``scope_generations``
is bumped so every vector cache reloads.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tiermem.errors import StoreError
from tiermem.store.maintenance_base import ROW_COUNTS, ErasedScope, Orphans, RecordRef
from tiermem.store.sqlite import files
from tiermem.store.sqlite.fts_syntax import REFILL_FULL_TEXT
from tiermem.store.sqlite.rows import chunks
from tiermem.types import MemoryType, Scope

__all__ = ["Connected", "SQLiteMaintenanceMixin", "run_sql", "run_sql_in", "scoped_tables", "secure_delete"]

_AUDIT = "audit_log"
_GENERATIONS = "scope_generations"
# The source kind without its ':<detail>' part: a URL or tool name may itself be personal data.
_ACTOR_KIND = "CASE WHEN instr(actor, ':') > 0 THEN substr(actor, 1, instr(actor, ':') - 1) ELSE actor END"
_CHUNK = 900  # below SQLite's host-parameter limit
_ID_LENGTH = 36  # a record id is a UUID string
# records_fts reads through to the records table; its docsize table has one row per indexed record.
_COUNTED_AS = {"records_fts": "records_fts_docsize"}


class Connected:
    """What these helpers need of SQLiteStore: its connection and the lock that guards it."""

    _conn: sqlite3.Connection
    _lock: threading.RLock
    path: str


def run_sql(store: Connected, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """One statement on the store's connection; driver errors become StoreError."""
    with store._lock:
        try:
            return store._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{sql.split()[0]} failed: {exc}") from exc


def run_sql_in(store: Connected, sql: str, params: Sequence[Any], values: Sequence[str]) -> list[tuple[Any, ...]]:
    """``sql``, which ends in ``IN``, run with ``params`` and each chunk of ``values`` as its list; all the rows."""
    rows: list[tuple[Any, ...]] = []
    for chunk in chunks(list(values)):
        rows += run_sql(store, f"{sql} ({','.join('?' * len(chunk))})", [*params, *chunk])
    return rows


def scoped_tables(store: Connected) -> tuple[str, ...]:
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
def secure_delete(store: Connected) -> Iterator[None]:
    """Overwrite deleted content with zeros while inside; the connection's previous setting is restored."""
    with store._lock:
        (previous,) = run_sql(store, "PRAGMA secure_delete")[0]
        run_sql(store, "PRAGMA secure_delete = ON")
        try:
            yield
        finally:
            run_sql(store, f"PRAGMA secure_delete = {int(previous)}")


def _scope_where(tenant: str, user: str | None, prefix: str = "") -> tuple[str, list[str]]:
    """A (tenant, user) as SQL; ``user`` None: the whole tenant."""
    if user is None:
        return f"{prefix}tenant = ?", [tenant]
    return f"{prefix}tenant = ? AND {prefix}user_key = ?", [tenant, user]


class SQLiteMaintenanceMixin(Connected):
    """MaintenanceStore's erase, retention and scrubbing methods on the store's connection."""

    if TYPE_CHECKING:  # provided by SQLiteStore and its vector mixin

        def transaction(self) -> AbstractContextManager[None]: ...

        def delete(self, scope: Scope, record_ids: Sequence[str]) -> int: ...

        def drop_cached_vectors(self, tenant: str, user_key: str | None = None) -> None: ...

    def purge(self, scope: Scope, record_ids: Sequence[str]) -> int:
        with secure_delete(self):
            return self.delete(scope, record_ids)

    def redact_audit(self, scope: Scope, record_ids: Sequence[str], *, detail: str, mention_detail: str) -> int:
        key = [scope.tenant, scope.user or ""]
        redacted = 0
        with secure_delete(self), self.transaction():
            for start in range(0, len(record_ids), _CHUNK):
                chunk = list(record_ids[start : start + _CHUNK])
                marks = ",".join("?" * len(chunk))
                rows = run_sql(
                    self,
                    f"UPDATE audit_log SET before = NULL, after = NULL, detail = ?, actor = {_ACTOR_KIND}"
                    f" WHERE tenant = ? AND user_key = ? AND record_id IN ({marks}) RETURNING seq",
                    [detail, *key, *chunk],
                )
                redacted += len(rows)
                # The write path ends a supersession's detail with "; by <id of the newer record>".
                run_sql(
                    self,
                    "UPDATE audit_log SET detail = ? WHERE tenant = ? AND user_key = ? AND op = 'supersede'"
                    f" AND substr(detail, -{_ID_LENGTH}) IN ({marks})",
                    [mention_detail, *key, *chunk],
                )
        return redacted

    def erase_scope(
        self, tenant: str, user: str | None, *, audit_detail: str, keep_ops: Collection[str] = ()
    ) -> ErasedScope:
        where, params = _scope_where(tenant, user)
        kept = sorted(keep_ops)
        keep_sql = f" AND op NOT IN ({','.join('?' * len(kept))})" if kept else ""
        with secure_delete(self), self.transaction():
            tables = [t for t in scoped_tables(self) if t not in (_AUDIT, _GENERATIONS)]
            # Counted first: the records trigger deletes the vectors, so counting them afterwards says 0.
            removed = self._count_rows(tables, tenant, user)
            for table in tables:
                run_sql(self, f"DELETE FROM {table} WHERE {where}", params)
            redacted = run_sql(
                self,
                f"UPDATE audit_log SET before = NULL, after = NULL, detail = ?, actor = {_ACTOR_KIND}"
                f" WHERE {where}{keep_sql} RETURNING seq",
                [audit_detail, *params, *kept],
            )
            # Bumped, not deleted: a generation number never repeats, so no cache anywhere can match it again.
            run_sql(self, f"UPDATE {_GENERATIONS} SET gen = gen + 1, n = 0 WHERE {where}", params)
            # Erased data should not outlive the erase in this process's vector cache either.
            self.drop_cached_vectors(tenant, user)
        return ErasedScope(MappingProxyType(removed), len(redacted))

    def residue(self, needles: Sequence[bytes]) -> list[bytes] | None:
        if self.path == ":memory:":
            return None
        return files.residue(self.path, needles)

    def stored_bytes(self) -> int | None:
        """The file's bytes with its write-ahead log; None for ``:memory:``."""
        return None if self.path == ":memory:" else files.stored_bytes(self.path)

    @property
    def rls_bypass(self) -> str | None:
        """None: a file has no database roles to wall in."""
        return None

    def compact(self, *, full: bool) -> bool:
        # Merging the full-text index drops the tokens of deleted rows from its segments; ``full`` also rebuilds
        # it from the records and VACUUMs (a new file holding only live pages).
        with secure_delete(self):
            with self.transaction():
                if full:  # not FTS5's 'rebuild': the index holds each record's index_text, not its raw text
                    run_sql(self, "INSERT INTO records_fts (records_fts) VALUES ('delete-all')")
                    run_sql(self, REFILL_FULL_TEXT)
                run_sql(self, "INSERT INTO records_fts (records_fts) VALUES ('optimize')")
            if full:
                try:
                    with self._lock:
                        self._conn.execute("VACUUM")
                except sqlite3.Error as exc:
                    raise StoreError(f"VACUUM failed: {exc} (full compaction cannot run inside a transaction)") from exc
            busy, _, _ = run_sql(self, "PRAGMA wal_checkpoint(TRUNCATE)")[0]
        return int(busy) == 0

    def expired_records(self, now: datetime, scope: Scope | None = None) -> list[RecordRef]:
        where, params = ("", []) if scope is None else (" AND tenant = ? AND user_key = ?", _key(scope))
        rows = run_sql(
            self,
            f"SELECT tenant, user_key, id, version FROM records WHERE expires_at <= ?{where}"
            " ORDER BY tenant, user_key, rowid",
            [now.timestamp(), *params],
        )
        return [RecordRef(Scope(t, u or None), rid, version) for t, u, rid, version in rows]

    def over_limit_records(
        self, type_: MemoryType, keep_last: int, now: datetime, scope: Scope | None = None
    ) -> list[RecordRef]:
        where, params = ("", []) if scope is None else (" AND tenant = ? AND user_key = ?", _key(scope))
        rows = run_sql(
            self,
            "SELECT tenant, user_key, id, version FROM (SELECT tenant, user_key, id, version, ROW_NUMBER() OVER"
            " (PARTITION BY tenant, user_key ORDER BY valid_from DESC, rowid DESC) AS rank FROM records"
            f" WHERE type = ? AND (expires_at IS NULL OR expires_at > ?){where}) WHERE rank > ?"
            " ORDER BY tenant, user_key, rank",
            [type_.value, now.timestamp(), *params, keep_last],
        )
        return [RecordRef(Scope(t, u or None), rid, version) for t, u, rid, version in rows]

    def row_counts(self) -> Mapping[str, int]:
        counts = {name: run_sql(self, f"SELECT COUNT(*) FROM {_COUNTED_AS.get(name, name)}") for name in ROW_COUNTS}
        return MappingProxyType({name: int(rows[0][0]) for name, rows in counts.items()})

    def orphans(self) -> Orphans:
        live = "NOT IN (SELECT rowid FROM records)"
        (fts,) = run_sql(self, f"SELECT COUNT(*) FROM records_fts_docsize WHERE id {live}")[0]
        (vec,) = run_sql(self, f"SELECT COUNT(*) FROM vectors WHERE record_rowid {live}")[0]
        return Orphans(int(fts), int(vec))

    def held_rows(self, scope: Scope) -> Mapping[str, int]:
        tables = [t for t in scoped_tables(self) if t not in (_AUDIT, _GENERATIONS)]
        return MappingProxyType(self._count_rows(tables, scope.tenant, scope.user or ""))

    def _count_rows(self, tables: Sequence[str], tenant: str, user: str | None) -> dict[str, int]:
        """Rows of the scope per table, and its full-text entries as ``records_fts`` (after ``records``)."""
        where, params = _scope_where(tenant, user)
        counts: dict[str, int] = {}
        for table in tables:
            counts[table] = int(run_sql(self, f"SELECT COUNT(*) FROM {table} WHERE {where}", params)[0][0])
            if table == "records":
                joined, _ = _scope_where(tenant, user, "r.")
                fts = "SELECT COUNT(*) FROM records_fts_docsize d JOIN records r ON r.rowid = d.id WHERE "
                counts["records_fts"] = int(run_sql(self, fts + joined, params)[0][0])
        return counts


def _key(scope: Scope) -> list[str]:
    return [scope.tenant, scope.user or ""]
