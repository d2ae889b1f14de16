"""(internal) Record writes on SQLite: ``put_many`` and ``delete`` in the store's transaction (a SQLiteStore mixin)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from tiermem.errors import ConflictError
from tiermem.store.base import StoredItem, same_vectors
from tiermem.store.row_values import row_of
from tiermem.store.sqlite.maintenance import Connected
from tiermem.store.sqlite.rows import chunks, ts
from tiermem.store.sqlite.sql import scope_sql
from tiermem.store.sqlite.vectors import index_row
from tiermem.store.vector_index import IndexRow, pack_vectors
from tiermem.types import Scope

__all__ = ["SQLiteRecordWritesMixin"]


class SQLiteRecordWritesMixin(Connected):
    """Records, their vectors and their scopes' generations written in one transaction."""

    if TYPE_CHECKING:  # provided by SQLiteStore and SQLiteVectorMixin

        def transaction(self) -> AbstractContextManager[None]: ...

        def _bump(
            self,
            deltas: dict[tuple[str, str], int],
            upserts: dict[tuple[str, str], list[IndexRow]],
            removals: dict[tuple[str, str], list[int]],
        ) -> None: ...

    def put_many(self, items: Sequence[StoredItem]) -> None:
        if not items:
            return
        with self.transaction():
            existing = self._check_ids(items)
            self._check_fingerprints(items)
            deltas: dict[tuple[str, str], int] = {}
            upserts: dict[tuple[str, str], list[IndexRow]] = {}
            removals: dict[tuple[str, str], list[int]] = {}
            for item in items:
                rowid = self._put_one(item, item.record.id not in existing)
                key = (item.record.scope.tenant, item.record.scope.user or "")
                deltas[key] = deltas.get(key, 0) + (item.record.id not in existing)
                existing.add(item.record.id)
                if item.keep_vector:
                    upserts.setdefault(key, []).append(index_row(rowid, item))
                elif item.vector is None:
                    removals.setdefault(key, []).append(rowid)
                else:
                    upserts.setdefault(key, []).append(index_row(rowid, item))
            self._bump(deltas, upserts, removals)

    def _check_ids(self, items: Sequence[StoredItem]) -> set[str]:
        """Ids of ``items`` already stored; a ConflictError if one belongs to another scope."""
        ids = [i.record.id for i in items]
        wanted = {i.record.id: (i.record.scope.tenant, i.record.scope.user or "") for i in items}
        found: set[str] = set()
        for chunk in chunks(ids):
            rows = self._conn.execute(
                f"SELECT id, tenant, user_key FROM records WHERE id IN ({','.join('?' * len(chunk))})", chunk
            )
            for rid, tenant, user_key in rows:
                if wanted[rid] != (tenant, user_key):
                    raise ConflictError(f"record id {rid} already belongs to another scope")
                found.add(rid)
        return found

    def _check_fingerprints(self, items: Sequence[StoredItem]) -> None:
        seen: dict[tuple[str, str], tuple[str, int]] = {}
        for item in items:
            if item.vector is None:
                continue
            rec = item.record
            key = (rec.scope.tenant, rec.scope.user or "")
            mine = item.vector_kind
            if key not in seen:
                row = self._conn.execute(
                    "SELECT model, dim FROM vectors WHERE tenant = ? AND user_key = ? LIMIT 1", key
                ).fetchone()
                seen[key] = (row[0], row[1]) if row else mine
            same_vectors(rec, seen[key], mine)

    def _put_one(self, item: StoredItem, fresh: bool) -> int:
        r = item.record
        values = row_of(r, ts, json.dumps)
        cur = self._conn.execute(
            "INSERT INTO records (tenant, id, user_key, agent, session, type, content, source, source_kind, trust,"
            " created_at, updated_at, valid_from, valid_to, expires_at, content_hash, embedding_model, tags,"
            " supersedes, metadata, version, context) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT (id) DO UPDATE SET agent=excluded.agent, session=excluded.session, type=excluded.type,"
            " content=excluded.content, source=excluded.source, source_kind=excluded.source_kind,"
            " trust=excluded.trust, updated_at=excluded.updated_at, valid_from=excluded.valid_from,"
            " valid_to=excluded.valid_to, expires_at=excluded.expires_at, content_hash=excluded.content_hash,"
            " embedding_model=excluded.embedding_model, tags=excluded.tags, supersedes=excluded.supersedes,"
            " metadata=excluded.metadata, version=excluded.version, context=excluded.context RETURNING rowid",
            values,
        )
        rowid = int(cur.fetchone()[0])
        if item.keep_vector:
            return rowid
        if item.vector is None:
            if not fresh:  # a new record has no vector row: deleting a record deletes its vector (a trigger)
                self._conn.execute("DELETE FROM vectors WHERE record_rowid = ?", (rowid,))
            return rowid
        dim, blob = pack_vectors(item.vector, item.passages)
        self._conn.execute(
            "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?, ?)",
            (rowid, r.scope.tenant, r.scope.user or "", r.embedding_model, dim, blob),
        )
        return rowid

    def delete(self, scope: Scope, record_ids: Sequence[str]) -> int:
        where, params = scope_sql(scope, "records", by_key=True)
        rowids: list[int] = []
        with self.transaction():
            for chunk in chunks(list(record_ids)):
                rows = self._conn.execute(
                    f"DELETE FROM records WHERE id IN ({','.join('?' * len(chunk))}) AND {where} RETURNING rowid",
                    chunk + params,
                ).fetchall()
                rowids += [r[0] for r in rows]
            if rowids:
                key = (scope.tenant, scope.user or "")
                self._bump({key: -len(rowids)}, {}, {key: rowids})
        return len(rowids)
