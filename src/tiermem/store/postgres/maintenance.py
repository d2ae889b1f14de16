"""(internal) Erasure, retention queries and compaction on PostgreSQL (the maintenance part of PostgresStore).

A deleted row's text stays in its dead tuple (and in index pages) until VACUUM reclaims it; ``compact`` runs
VACUUM, and with ``full`` VACUUM FULL, which writes every table and index anew with live rows only. Erase finds its
tables generically: every table of the schema with ``tenant`` and ``user_key`` columns is emptied for the erased
scope (``records`` first: its vectors go with it, and its triggers keep the term statistics right), so a table
added by a later migration is covered without touching this module; ``audit_log`` is redacted instead.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from tiermem.errors import StoreError
from tiermem.store.maintenance_base import ROW_COUNTS, ErasedScope, Orphans, RecordRef
from tiermem.types import MemoryType, Scope

__all__ = ["INTERNAL_TABLES", "PgMaintenanceMixin", "scoped_tables"]

_AUDIT = "audit_log"
_ID_LENGTH = 36  # a record id is a UUID string
# Index bookkeeping kept by triggers: emptied by erase, never counted as data a scope holds.
INTERNAL_TABLES = ("scope_stats", "fts_terms", "fts_postings")
_ACTOR_KIND = "split_part(actor, ':', 1)"  # the source kind only: a URL or tool name may be personal data


def scoped_tables(conn: psycopg.Connection[Any]) -> tuple[str, ...]:
    """Every table of the current schema with ``tenant`` and ``user_key`` columns, ``records`` first."""
    rows = conn.execute(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND column_name IN ('tenant', 'user_key') GROUP BY table_name HAVING count(*) = 2"
    ).fetchall()
    return tuple(sorted((r[0] for r in rows), key=lambda n: (n != "records", n)))


def _scope_where(tenant: str, user: str | None) -> tuple[str, list[str]]:
    if user is None:
        return "tenant = %s", [tenant]
    return "tenant = %s AND user_key = %s", [tenant, user]


class PgMaintenanceMixin:
    """MaintenanceStore's erase, retention and compaction methods."""

    _local: threading.local
    where: str

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _anywhere(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def delete(self, scope: Scope, record_ids: Sequence[str]) -> int: ...

        @property
        def _pool(self) -> Any: ...

    def purge(self, scope: Scope, record_ids: Sequence[str]) -> int:
        return self.delete(scope, record_ids)  # the dead tuples' text goes at the next compact (VACUUM)

    def redact_audit(self, scope: Scope, record_ids: Sequence[str], *, detail: str, mention_detail: str) -> int:
        if not record_ids:
            return 0
        key = [scope.tenant, scope.user or ""]
        with self._tenant(scope.tenant) as conn:
            redacted = conn.execute(
                f"UPDATE audit_log SET before = NULL, after = NULL, detail = %s, actor = {_ACTOR_KIND}"
                " WHERE tenant = %s AND user_key = %s AND record_id = ANY(%s)",
                [detail, *key, list(record_ids)],
            ).rowcount
            # The write path ends a supersession's detail with "; by <id of the newer record>".
            conn.execute(
                "UPDATE audit_log SET detail = %s WHERE tenant = %s AND user_key = %s AND op = 'supersede'"
                f" AND right(detail, {_ID_LENGTH}) = ANY(%s)",
                [mention_detail, *key, list(record_ids)],
            )
        return redacted

    def erase_scope(
        self, tenant: str, user: str | None, *, audit_detail: str, keep_ops: Collection[str] = ()
    ) -> ErasedScope:
        where, params = _scope_where(tenant, user)
        with self._tenant(tenant) as conn:
            tables = [t for t in scoped_tables(conn) if t != _AUDIT]
            removed = _count_rows(conn, [t for t in tables if t not in INTERNAL_TABLES], tenant, user)
            for table in tables:
                conn.execute(sql.SQL("DELETE FROM {} WHERE ").format(sql.Identifier(table)) + sql.SQL(where), params)
            redacted = conn.execute(
                f"UPDATE audit_log SET before = NULL, after = NULL, detail = %s, actor = {_ACTOR_KIND}"
                f" WHERE {where} AND NOT (op = ANY(%s))",
                [audit_detail, *params, sorted(keep_ops)],
            ).rowcount
        return ErasedScope(MappingProxyType(removed), redacted)

    def residue(self, needles: Sequence[bytes]) -> list[bytes] | None:
        return None  # the server's files are not the client's to read: held_rows and VACUUM FULL stand for it

    def compact(self, *, full: bool) -> bool:
        if getattr(self._local, "conn", None) is not None:
            if full:
                raise StoreError(f"VACUUM FULL of {self.where} cannot run inside a transaction; compact outside it")
            return False  # VACUUM never runs inside a transaction: nothing done, run again later
        try:
            with self._pool.connection() as conn:
                tables = [*scoped_tables(conn)]
                for table in tables:
                    verb = sql.SQL("VACUUM (FULL, ANALYZE) {}" if full else "VACUUM (ANALYZE) {}")
                    conn.execute(verb.format(sql.Identifier(table)))
        except psycopg.errors.InsufficientPrivilege:
            # Only the tables' owner (or a role granted MAINTAIN) may VACUUM: the deletes stand, the scrubbing is
            # left to autovacuum or an administrator, and the caller hears it was not done.
            return False
        except psycopg.Error as exc:
            raise StoreError(f"VACUUM of {self.where} failed: {exc}") from exc
        return True

    def expired_records(self, now: datetime, scope: Scope | None = None) -> list[RecordRef]:
        if scope is None:
            with self._anywhere() as conn:
                rows = conn.execute("SELECT tenant, user_key, id, version FROM tiermem_expired(%s)", [now]).fetchall()
        else:
            with self._tenant(scope.tenant) as conn:
                rows = conn.execute(
                    "SELECT tenant, user_key, id, version FROM records WHERE expires_at <= %s"
                    " AND tenant = %s AND user_key = %s ORDER BY seq",
                    [now, *_key(scope)],
                ).fetchall()
        return [RecordRef(Scope(t, u or None), rid, version) for t, u, rid, version in rows]

    def over_limit_records(
        self, type_: MemoryType, keep_last: int, now: datetime, scope: Scope | None = None
    ) -> list[RecordRef]:
        if scope is None:
            with self._anywhere() as conn:
                rows = conn.execute(
                    "SELECT tenant, user_key, id, version FROM tiermem_over_limit(%s, %s, %s)",
                    [type_.value, keep_last, now],
                ).fetchall()
        else:
            with self._tenant(scope.tenant) as conn:
                rows = conn.execute(
                    "SELECT tenant, user_key, id, version FROM (SELECT tenant, user_key, id, version, ROW_NUMBER()"
                    " OVER (ORDER BY valid_from DESC, seq DESC) AS rank FROM records WHERE tenant = %s"
                    " AND user_key = %s AND type = %s AND (expires_at IS NULL OR expires_at > %s)) ranked"
                    " WHERE rank > %s ORDER BY rank",
                    [*_key(scope), type_.value, now, keep_last],
                ).fetchall()
        return [RecordRef(Scope(t, u or None), rid, version) for t, u, rid, version in rows]

    def row_counts(self) -> Mapping[str, int]:
        with self._anywhere() as conn:
            row = conn.execute("SELECT records, vectors, audit_log FROM tiermem_row_counts()").fetchone()
        records, vectors, audit = (int(n) for n in row) if row else (0, 0, 0)
        # Each record's terms are a column of its row: records_fts counts as many.
        counts = {"records": records, "records_fts": records, "vectors": vectors, "audit_log": audit}
        return MappingProxyType({name: counts[name] for name in ROW_COUNTS})

    def orphans(self) -> Orphans:
        with self._anywhere() as conn:
            row = conn.execute("SELECT terms, vectors FROM tiermem_orphans()").fetchone()
        return Orphans(int(row[0]), int(row[1])) if row else Orphans(0, 0)

    def stored_bytes(self) -> int:
        """Bytes on disk of the schema's tables with their indexes and TOAST (what the service reports)."""
        with self._anywhere() as conn:
            row = conn.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                " WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'"
            ).fetchone()
        return int(row[0]) if row else 0

    def held_rows(self, scope: Scope) -> Mapping[str, int]:
        with self._tenant(scope.tenant) as conn:
            tables = [t for t in scoped_tables(conn) if t != _AUDIT and t not in INTERNAL_TABLES]
            counts = _count_rows(conn, tables, scope.tenant, scope.user or "")
        return MappingProxyType(counts)


def _count_rows(conn: psycopg.Connection[Any], tables: Sequence[str], tenant: str, user: str | None) -> dict[str, int]:
    """Rows of the scope per table (vectors: one per record, as the SQLite store counts them), and its full-text
    entries as ``records_fts`` (after ``records``)."""
    where, params = _scope_where(tenant, user)
    counts: dict[str, int] = {}
    for table in tables:
        extra = " AND part = 0" if table == "vectors" else ""
        query = sql.SQL("SELECT count(*) FROM {} WHERE ").format(sql.Identifier(table)) + sql.SQL(where + extra)
        row = conn.execute(query, params).fetchone()
        counts[table] = int(row[0]) if row else 0
        if table == "records":
            counts["records_fts"] = counts["records"]
    return counts


def _key(scope: Scope) -> list[str]:
    return [scope.tenant, scope.user or ""]
