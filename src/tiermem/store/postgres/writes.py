"""(internal) Record writes on PostgreSQL: ``put_many`` and ``delete`` with their full-text upkeep."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg

from tiermem.errors import ConflictError
from tiermem.store.base import StoredItem, same_vectors
from tiermem.store.postgres.bulk import BulkState
from tiermem.store.postgres.postings import INDEXED_COLUMNS, Indexed, indexed_row, reindex, text_digest
from tiermem.store.postgres.rows import STAGE_FROM, write_records, write_vectors
from tiermem.store.postgres.sql import as_is, scope_sql
from tiermem.store.postgres.terms import tokenize_many
from tiermem.store.postgres.vectors import HNSW_MAX_DIM
from tiermem.store.row_values import row_of
from tiermem.types import MemoryRecord, Scope

__all__ = ["PgRecordWritesMixin"]


class PgRecordWritesMixin:
    """Records, their vectors and their full-text postings written in one transaction per tenant."""

    _bulk: BulkState | None

    if TYPE_CHECKING:  # provided by PostgresStore, PgBulkMixin and PgVectorMixin

        def transaction(self) -> AbstractContextManager[None]: ...

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def _bulk_write(self, conn: psycopg.Connection[Any], tenant: str, user_keys: set[str]) -> None: ...

        def _index_flags(self, conn: psycopg.Connection[Any], tenant: str, user_keys: list[str]) -> dict[str, bool]: ...

    def put_many(self, items: Sequence[StoredItem]) -> None:
        if not items:
            return
        by_tenant: dict[str, list[StoredItem]] = {}
        for item in items:
            by_tenant.setdefault(item.record.scope.tenant, []).append(item)
        with self.transaction():
            for tenant, group in by_tenant.items():
                with self._tenant(tenant) as conn:
                    self._bulk_write(conn, tenant, {i.record.scope.user or "" for i in group})
                    stored = self._stored(conn, tenant, group)
                    self._check_fingerprints(conn, tenant, group)
                    self._insert_records(conn, tenant, group, stored)
                    self._write_vectors(conn, group)

    def _stored(self, conn: psycopg.Connection[Any], tenant: str, items: Sequence[StoredItem]) -> dict[str, Indexed]:
        """What the records of ``items`` that exist already hold in the full-text tables; ConflictError for an id
        of another scope."""
        wanted = {i.record.id: i.record.scope.user or "" for i in items}
        rows = conn.execute(
            f"SELECT {INDEXED_COLUMNS} FROM records r WHERE r.tenant = %s AND r.id = ANY(%s)", [tenant, list(wanted)]
        ).fetchall()
        stored = dict(indexed_row(row) for row in rows)
        for rid, was in stored.items():
            if wanted[rid] != was.user_key:
                raise ConflictError(f"record id {rid} already belongs to another scope")
        return stored

    def _check_fingerprints(self, conn: psycopg.Connection[Any], tenant: str, items: Sequence[StoredItem]) -> None:
        users = sorted({i.record.scope.user or "" for i in items if i.vector is not None})
        if not users:
            return
        # Each scope's first stored vector, all scopes in one query (a batch may span many users).
        rows = conn.execute(
            "SELECT u, v.model, v.dim FROM unnest(%s::text[]) u, LATERAL"
            " (SELECT model, dim FROM vectors WHERE tenant = %s AND user_key = u LIMIT 1) v",
            [users, tenant],
        ).fetchall()
        seen: dict[str, tuple[str, int]] = {str(u): (str(m), int(d)) for u, m, d in rows}
        for item in items:
            if item.vector is None:
                continue
            mine = item.vector_kind
            same_vectors(item.record, seen.setdefault(item.record.scope.user or "", mine), mine)

    def _insert_records(
        self, conn: psycopg.Connection[Any], tenant: str, items: Sequence[StoredItem], stored: dict[str, Indexed]
    ) -> None:
        tokens = tokenize_many([(i.record.content, i.record.context) for i in items])
        # Only records that are new or whose text changed move anything in the full-text tables.
        changed = [
            (i.record, t)
            for i, t in zip(items, tokens, strict=True)
            if (was := stored.get(i.record.id)) is None or was.digest != text_digest(i.record.content, i.record.context)
        ]
        rows = [_record_row(i.record, t.tsvector, t.length) for i, t in zip(items, tokens, strict=True)]
        # A few rows and their full-text upkeep go in one round trip; COPY (many rows) cannot join a pipeline.
        with conn.pipeline() if len(rows) < STAGE_FROM else nullcontext():
            write_records(conn, rows)
            reindex(
                conn,
                tenant,
                [stored[r.id] for r, _ in changed if r.id in stored],
                [r.id for r, _ in changed],
                [(r.scope.user or "", t.length, t.terms) for r, t in changed],
                count_terms=self._bulk is None,
            )

    def _write_vectors(self, conn: psycopg.Connection[Any], items: Sequence[StoredItem]) -> None:
        replaced = [i.record.id for i in items if not i.keep_vector]
        if replaced:
            conn.execute(
                "DELETE FROM vectors WHERE tenant = %s AND record_id = ANY(%s)",
                [items[0].record.scope.tenant, replaced],
            )
        rows: list[tuple[Any, ...]] = []
        tenant = items[0].record.scope.tenant
        flags = self._index_flags(conn, tenant, sorted({i.record.scope.user or "" for i in items}))
        for item in items:
            if item.keep_vector or item.vector is None:
                continue
            r = item.record
            own = np.asarray(item.vector, dtype=np.float32).reshape(-1)
            parts = [own]
            if item.passages is not None and len(item.passages):
                parts += list(np.asarray(item.passages, dtype=np.float32).reshape(-1, own.shape[0]))
            for n, vec in enumerate(parts):
                indexed = flags.get(r.scope.user or "", False)
                rows.append((tenant, r.id, n, r.scope.user or "", r.embedding_model, own.shape[0], vec, indexed))
        if self._bulk is not None:  # indexes dropped for the load, or new: made at its end
            self._bulk.dims |= {int(row[5]) for row in rows if row[7] and row[5] <= HNSW_MAX_DIM}
        write_vectors(conn, rows)

    def delete(self, scope: Scope, record_ids: Sequence[str]) -> int:
        if not record_ids:
            return 0
        where, params = scope_sql(scope)
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                f"DELETE FROM records r WHERE r.id = ANY(%s) AND {where} RETURNING {INDEXED_COLUMNS}",
                [list(record_ids), *params],
            ).fetchall()
            reindex(conn, scope.tenant, [indexed_row(row)[1] for row in rows], [], [], count_terms=self._bulk is None)
        return len(rows)


def _record_row(r: MemoryRecord, tsvector: str, length: int) -> tuple[Any, ...]:
    return (*row_of(r, as_is, list), tsvector, length)
