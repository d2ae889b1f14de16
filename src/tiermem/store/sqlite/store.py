"""The embedded default store: one SQLite file, WAL, FTS5 full text, float32 vectors searched in numpy."""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from tiermem.embed import Vectors
from tiermem.errors import ConflictError, EmbeddingMismatchError, MigrationError
from tiermem.store.base import Candidate, Page, StoredItem
from tiermem.store.sqlite.audit import SQLiteAuditMixin
from tiermem.store.sqlite.connect import connect, driver_error
from tiermem.store.sqlite.context import SQLiteContextMixin
from tiermem.store.sqlite.fts import SQLiteFullTextMixin
from tiermem.store.sqlite.sql import filter_sql, scope_sql
from tiermem.store.vector_index import (
    NEIGHBOUR_SHORTLIST,
    SHORTLIST_FROM,
    SHORTLIST_MIN,
    IndexRow,
    ScopeVectors,
    VectorCache,
    best,
    nearest,
    pack_vectors,
    rows_from_sql,
    unpack_vectors,
)
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope, Source

__all__ = ["DEFAULT_CACHE_BYTES", "SQLiteStore"]

DEFAULT_CACHE_BYTES = 1 << 30  # 1 GiB of cached vectors: ~680k 384-d records

_COLUMNS = (
    "id, tenant, user_key, agent, session, type, content, source, trust, created_at, updated_at, "
    "valid_from, valid_to, expires_at, content_hash, embedding_model, tags, supersedes, metadata, version, context"
)
_SQL_VARS = 900  # stay under SQLite's host-parameter limit when expanding IN (...)


def _ts(t: datetime | None) -> float | None:
    return None if t is None else t.timestamp()


def _dt(x: float | None) -> datetime | None:
    return None if x is None else datetime.fromtimestamp(x, UTC)


@functools.lru_cache(maxsize=4096)
def _scope(tenant: str, user_key: str, agent: str, session: str) -> Scope:
    return Scope(tenant, user_key or None, agent or None, session or None)


@functools.lru_cache(maxsize=4096)
def _source(text: str) -> Source:
    return Source.parse(text)


def _row_to_record(row: sqlite3.Row | tuple[Any, ...]) -> MemoryRecord:
    (
        rid,
        tenant,
        user_key,
        agent,
        session,
        type_,
        content,
        source,
        trust,
        created,
        updated,
        vfrom,
        vto,
        expires,
        chash,
        model,
        tags,
        supersedes,
        metadata,
        version,
        context,
    ) = row
    return MemoryRecord(
        id=rid,
        scope=_scope(tenant, user_key, agent, session),
        type=MemoryType(type_),
        content=content,
        source=_source(source),
        trust=trust,
        created_at=datetime.fromtimestamp(created, UTC),
        updated_at=_dt(updated),
        valid_from=datetime.fromtimestamp(vfrom, UTC),
        valid_to=_dt(vto),
        expires_at=_dt(expires),
        content_hash=chash,
        embedding_model=model,
        tags=tuple(json.loads(tags)),
        supersedes=supersedes,
        metadata=MappingProxyType(json.loads(metadata)),
        version=version,
        context=context,
    )


class SQLiteStore(SQLiteFullTextMixin, SQLiteAuditMixin, SQLiteContextMixin):
    """Store on one SQLite file (or ``:memory:``); safe to share between threads of one process."""

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        shortlist_from: int | None = SHORTLIST_FROM,
        shortlist_size: int = SHORTLIST_MIN,
        neighbour_shortlist: int = NEIGHBOUR_SHORTLIST,
    ) -> None:
        self.path = str(path)
        self.cache_bytes = cache_bytes
        # Scopes with this many live vectors or more are searched through a sign-bit shortlist of (at least)
        # ``shortlist_size`` rows scored exactly; None: every search exact.
        self.shortlist_from = shortlist_from
        self.shortlist_size = shortlist_size
        self.neighbour_shortlist = neighbour_shortlist  # the same for batched lookups (the write path's)
        self._conn = connect(self.path, create=create)
        self._lock = threading.RLock()
        self._depth = 0
        # Least recently searched last out: scopes' vectors in memory, bounded by ``cache_bytes``.
        self._vectors = VectorCache()
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA busy_timeout=5000")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            self._init_full_text()
        except BaseException as exc:
            self._conn.close()
            if isinstance(exc, sqlite3.Error):
                raise driver_error("open", self.path, exc) from exc
            raise

    # -- schema ---------------------------------------------------------------------------------------------

    def _migrate(self) -> None:
        folder = resources.files("tiermem.store.sqlite") / "migrations"
        scripts = sorted((f.name, f) for f in folder.iterdir() if f.name.endswith(".sql"))
        with self.transaction():
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at REAL NOT NULL)"
            )
            done = {v for (v,) in self._conn.execute("SELECT version FROM schema_migrations")}
            for name, file in scripts:
                version = int(name.split("_", 1)[0])
                if version in done:
                    continue
                try:
                    for statement in _split_sql(file.read_text(encoding="utf-8")):
                        self._conn.execute(statement)
                except sqlite3.Error as exc:
                    raise MigrationError(f"migration {name} failed: {exc}") from exc
                self._conn.execute(
                    "INSERT INTO schema_migrations VALUES (?, ?, ?)",
                    (version, name, datetime.now(UTC).timestamp()),
                )

    def schema_version(self) -> int:
        """The highest applied migration."""
        (v,) = self._conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
        return int(v)

    # -- transactions -------------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE at the outermost level; nested calls join it."""
        with self._lock:
            outer = self._depth == 0
            if outer:
                try:
                    self._conn.execute("BEGIN IMMEDIATE")
                except sqlite3.Error as exc:
                    raise driver_error("write to", self.path, exc) from exc
            self._depth += 1
            try:
                yield
            except BaseException as exc:
                self._depth -= 1
                if outer:
                    if self._conn.in_transaction:  # some driver errors (a full disk) have rolled back already
                        self._conn.execute("ROLLBACK")
                    self._vectors.clear()  # a rolled-back write may have refreshed a cache entry
                    # Driver errors leave the store here, at the outermost transaction: inner code may still
                    # catch a specific one (an import's IntegrityError) and say what it means.
                    if isinstance(exc, sqlite3.Error):
                        raise driver_error("write to", self.path, exc) from exc
                raise
            self._depth -= 1
            if outer:
                try:
                    self._conn.execute("COMMIT")
                except sqlite3.Error as exc:
                    raise driver_error("commit to", self.path, exc) from exc

    def _bump(
        self,
        deltas: dict[tuple[str, str], int],
        upserts: dict[tuple[str, str], list[IndexRow]],
        removals: dict[tuple[str, str], list[int]],
    ) -> None:
        """Mark scopes changed, adjust their record counts, and carry the change into cached vector indexes."""
        for key, delta in deltas.items():
            (gen,) = self._conn.execute(
                "INSERT INTO scope_generations VALUES (?, ?, 1, ?) "
                "ON CONFLICT (tenant, user_key) DO UPDATE SET gen = gen + 1, n = n + excluded.n RETURNING gen",
                (*key, delta),
            ).fetchone()
            cached = self._vectors.get(key)
            if cached is None:
                continue
            if cached.gen != gen - 1:  # another process wrote in between: rebuild on the next search
                del self._vectors[key]
                continue
            cached.remove(removals.get(key, ()))
            fresh = upserts.get(key, [])
            new_vec = next((r.vector for r in fresh if r.vector is not None), None)
            if new_vec is not None and (cached.dim != len(new_vec) or cached.fingerprint is None):
                if len(cached):
                    del self._vectors[key]
                    continue
                cached = self._vectors[key] = ScopeVectors(cached.gen, None, len(new_vec))
            cached.upsert(fresh)
            self._vectors.resized(key)
            if new_vec is not None:
                cached.fingerprint = cached.fingerprint or self._fingerprint_of(key)
            cached.gen = gen

    # -- writes -------------------------------------------------------------------------------------------

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
                rowid = self._put_one(item)
                key = (item.record.scope.tenant, item.record.scope.user or "")
                deltas[key] = deltas.get(key, 0) + (item.record.id not in existing)
                existing.add(item.record.id)
                if item.keep_vector:
                    upserts.setdefault(key, []).append(_index_row(rowid, item))
                elif item.vector is None:
                    removals.setdefault(key, []).append(rowid)
                else:
                    upserts.setdefault(key, []).append(_index_row(rowid, item))
            self._bump(deltas, upserts, removals)

    def _check_ids(self, items: Sequence[StoredItem]) -> set[str]:
        """Ids of ``items`` already stored; a ConflictError if one belongs to another scope."""
        ids = [i.record.id for i in items]
        wanted = {i.record.id: (i.record.scope.tenant, i.record.scope.user or "") for i in items}
        found: set[str] = set()
        for chunk in _chunks(ids):
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
            if rec.embedding_model is None:
                raise EmbeddingMismatchError(f"record {rec.id} has a vector but no embedding_model fingerprint")
            mine = (rec.embedding_model, int(item.vector.shape[-1]))
            if key not in seen:
                row = self._conn.execute(
                    "SELECT model, dim FROM vectors WHERE tenant = ? AND user_key = ? LIMIT 1", key
                ).fetchone()
                seen[key] = (row[0], row[1]) if row else mine
            if seen[key] != mine:
                have_model, have_dim = seen[key]
                raise EmbeddingMismatchError(
                    f"scope {rec.scope.tenant}/{rec.scope.user or ''} holds {have_dim}-d vectors of "
                    f"'{have_model}'; refusing a {mine[1]}-d vector of '{mine[0]}' (re-embed the scope to switch)"
                )

    def _put_one(self, item: StoredItem) -> int:
        r = item.record
        values = (
            r.id,
            r.scope.tenant,
            r.scope.user or "",
            r.scope.agent or "",
            r.scope.session or "",
            r.type.value,
            r.content,
            str(r.source),
            r.source.kind.value,
            r.trust,
            _ts(r.created_at),
            _ts(r.updated_at),
            _ts(r.valid_from),
            _ts(r.valid_to),
            _ts(r.expires_at),
            r.content_hash,
            r.embedding_model,
            json.dumps(list(r.tags)),
            r.supersedes,
            json.dumps(dict(r.metadata)),
            r.version,
            r.context,
        )
        cur = self._conn.execute(
            "INSERT INTO records (id, tenant, user_key, agent, session, type, content, source, source_kind, trust,"
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
            for chunk in _chunks(list(record_ids)):
                rows = self._conn.execute(
                    f"DELETE FROM records WHERE id IN ({','.join('?' * len(chunk))}) AND {where} RETURNING rowid",
                    chunk + params,
                ).fetchall()
                rowids += [r[0] for r in rows]
            if rowids:
                key = (scope.tenant, scope.user or "")
                self._bump({key: -len(rowids)}, {}, {key: rowids})
        return len(rowids)

    # -- reads --------------------------------------------------------------------------------------------

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        return self.get_many(scope, [record_id]).get(record_id)

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        where, params = scope_sql(scope, by_key=True)
        out: dict[str, MemoryRecord] = {}
        with self._lock:
            for chunk in _chunks(list(record_ids)):
                rows = self._conn.execute(
                    f"SELECT {_COLUMNS} FROM records r WHERE r.id IN ({','.join('?' * len(chunk))}) AND {where}",
                    chunk + params,
                )
                out.update((row[0], _row_to_record(row)) for row in rows)
        return out

    def find_by_hash(self, scope: Scope, type_: MemoryType, hashes: Sequence[str]) -> dict[str, MemoryRecord]:
        out: dict[str, MemoryRecord] = {}
        params0: list[Any] = [scope.tenant, scope.user or "", scope.agent or "", scope.session or "", type_.value]
        with self._lock:
            for chunk in _chunks(list(hashes)):
                rows = self._conn.execute(
                    f"SELECT {_COLUMNS} FROM records r WHERE r.tenant = ? AND r.user_key = ? AND r.agent = ?"
                    f" AND r.session = ? AND r.type = ? AND r.content_hash IN ({','.join('?' * len(chunk))})"
                    " ORDER BY r.rowid",
                    params0 + chunk,
                )
                for row in rows:
                    rec = _row_to_record(row)
                    out.setdefault(rec.content_hash, rec)
        return out

    def list_records(self, scope: Scope, filter_: Filter, *, now: datetime, limit: int, cursor: str | None) -> Page:
        where, params = scope_sql(scope)
        fwhere, fparams = filter_sql(filter_, now)
        after = ""
        if cursor is not None:
            after = " AND r.rowid < ?"
            fparams = [*fparams, int(cursor)]
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_COLUMNS}, r.rowid FROM records r WHERE {where} AND {fwhere}{after}"
                " ORDER BY r.rowid DESC LIMIT ?",
                [*params, *fparams, limit + 1],
            ).fetchall()
        more = len(rows) > limit
        rows = rows[:limit]
        records = tuple(_row_to_record(row[:-1]) for row in rows)
        return Page(records, str(rows[-1][-1]) if more and rows else None)

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        where, params = scope_sql(scope, by_key=True)
        out: dict[str, Vectors] = {}
        with self._lock:
            for chunk in _chunks(list(record_ids)):
                rows = self._conn.execute(
                    f"SELECT r.id, v.vec, v.dim FROM records r JOIN vectors v ON v.record_rowid = r.rowid"
                    f" WHERE r.id IN ({','.join('?' * len(chunk))}) AND {where}",
                    chunk + params,
                )
                out.update((rid, unpack_vectors(vec, dim)[0]) for rid, vec, dim in rows)
        return out

    def successors(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, list[MemoryRecord]]:
        where, params = scope_sql(scope)
        out: dict[str, list[MemoryRecord]] = {}
        with self._lock:
            for chunk in _chunks(list(record_ids)):
                rows = self._conn.execute(
                    f"SELECT {_COLUMNS} FROM records r WHERE r.supersedes IN ({','.join('?' * len(chunk))})"
                    f" AND {where} ORDER BY r.valid_from, r.rowid",
                    chunk + params,
                ).fetchall()
                for row in rows:
                    record = _row_to_record(row)
                    out.setdefault(str(record.supersedes), []).append(record)
        return out

    def count(self, scope: Scope | None = None) -> int:
        with self._lock:
            if scope is None:
                (n,) = self._conn.execute("SELECT COUNT(*) FROM records").fetchone()
            else:
                where, params = scope_sql(scope)
                (n,) = self._conn.execute(f"SELECT COUNT(*) FROM records r WHERE {where}", params).fetchone()
        return int(n)

    def iter_scopes(self) -> Iterator[Scope]:
        with self._lock:
            rows = self._conn.execute("SELECT DISTINCT tenant, user_key FROM records ORDER BY 1, 2").fetchall()
        for tenant, user_key in rows:
            yield Scope(tenant, user_key or None)

    def vector_fingerprint(self, scope: Scope) -> str | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT model FROM vectors WHERE tenant = ? AND user_key = ? LIMIT 1", (scope.tenant, scope.user or "")
            ).fetchone()
        return None if row is None else str(row[0])

    def vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        return self.vector_search(scope, vector, fingerprint, filter_, now=now, limit=limit)()

    def vector_candidates_many(
        self, scope: Scope, vectors: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[list[Candidate]]:
        with self._lock:
            index = self._scope_vectors(scope)
            if not len(index) or index.fingerprint != fingerprint or not len(vectors):
                return [[] for _ in range(len(vectors))]
            mask = self._mask(index, scope, filter_, now)
            matrix, ids = index.view("matrix"), index.view("ids")
            codes = self._codes(scope, index)
        queries = np.asarray(vectors, dtype=np.float32)
        allowed = np.flatnonzero(mask)
        size = self.neighbour_shortlist
        if codes is not None and allowed.size > size:
            return [nearest(matrix, codes, q, mask, ids, limit, shortlist=size) for q in queries]
        # One matrix-matrix product over the allowed rows: compute-bound BLAS, not one memory-bound scan each.
        scores = queries @ (matrix if allowed.size == len(mask) else matrix[allowed]).T
        return [best(row, allowed, ids, limit) for row in scores]

    def vector_search(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> Callable[[], list[Candidate]]:
        # Everything touching the database happens here, in the caller's thread (which may hold the write
        # lock); the returned scan is pure numpy and may run on any thread.
        with self._lock:
            index = self._scope_vectors(scope)
            if not len(index) or index.fingerprint != fingerprint:
                return list
            query = np.asarray(vector, dtype=np.float32).reshape(-1)
            if query.shape[0] != index.dim:
                raise EmbeddingMismatchError(
                    f"query vector has {query.shape[0]} dimensions, the scope's vectors {index.dim}"
                )
            mask = self._mask(index, scope, filter_, now)
            # Views taken now: later in-place writes grow or overwrite, never invalidate them.
            matrix, ids, passages = index.view("matrix"), index.view("ids"), index.passages()
            codes = self._codes(scope, index)
            size = self.shortlist_size
        return lambda: nearest(matrix, codes, query, mask, ids, limit, shortlist=size, passages=passages)

    def _codes(self, scope: Scope, index: ScopeVectors) -> Any:
        """The scope's SimHash codes when it is big enough for the shortlist (made on first use), else None."""
        if self.shortlist_from is None or len(index) < self.shortlist_from:
            return None
        made = index.codes is None
        codes = index.code_view()
        key = (scope.tenant, scope.user or "")
        if made and key in self._vectors:
            self._vectors.resized(key)  # the codes are new bytes in the cache
        return codes

    def _mask(self, ix: ScopeVectors, scope: Scope, filter_: Filter, now: datetime) -> Any:
        at = (filter_.as_of or now).timestamp()
        valid_from = ix.view("valid_from")
        with np.errstate(invalid="ignore"):
            mask = ix.view("alive") & ~(ix.view("expires_at") <= at)
            if not filter_.with_closed:
                mask &= ~(ix.view("valid_to") <= at)
            if filter_.as_of is not None:
                mask &= valid_from <= at
        if scope.agent is not None:
            mask &= ix.matches("agents", [scope.agent])
        if scope.session is not None:
            mask &= ix.matches("sessions", [scope.session])
        if filter_.types:
            mask &= ix.matches("types", [t.value for t in filter_.types])
        if filter_.sources:
            mask &= ix.matches("source_kinds", [s.value for s in filter_.sources])
        if filter_.time_from is not None:
            mask &= valid_from >= filter_.time_from.timestamp()
        if filter_.time_to is not None:
            mask &= valid_from <= filter_.time_to.timestamp()
        if filter_.tags:
            rowids = [
                rowid
                for (rowid,) in self._conn.execute(
                    "SELECT r.rowid FROM records r WHERE r.tenant = ? AND r.user_key = ? AND EXISTS (SELECT 1 FROM"
                    f" json_each(r.tags) WHERE value IN ({','.join('?' * len(filter_.tags))}))",
                    [scope.tenant, scope.user or "", *sorted(filter_.tags)],
                )
            ]
            tagged = np.zeros(ix.n, dtype=bool)
            tagged[ix.positions(rowids)] = True
            mask &= tagged
        return mask

    def _scope_vectors(self, scope: Scope) -> ScopeVectors:
        key = (scope.tenant, scope.user or "")
        with self._lock:
            row = self._conn.execute(
                "SELECT gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key
            ).fetchone()
            gen = int(row[0]) if row else 0
            cached = self._vectors.get(key)
            if cached is not None and cached.gen == gen:
                self._vectors.move_to_end(key)
                return cached
            rows = self._conn.execute(
                "SELECT r.rowid, r.id, r.type, r.source_kind, r.agent, r.session, r.valid_from, r.valid_to,"
                " r.expires_at, v.vec, v.dim FROM vectors v JOIN records r ON r.rowid = v.record_rowid"
                " WHERE v.tenant = ? AND v.user_key = ? ORDER BY v.record_rowid",
                key,
            ).fetchall()
            dim = int(rows[0][10]) if rows else 0
            built = ScopeVectors(gen, self._fingerprint_of(key) if rows else None, dim, capacity=len(rows) + 64)
            indexed = rows_from_sql(rows)
            built.reserve_passages(sum(len(r.passages) for r in indexed if r.passages is not None) + 64)
            built.upsert(indexed)
            self._vectors[key] = built
            self._vectors.move_to_end(key)
            self._vectors.evict(self.cache_bytes, keep=key)
            return built

    def _fingerprint_of(self, key: tuple[str, str]) -> str | None:
        row = self._conn.execute("SELECT model FROM vectors WHERE tenant = ? AND user_key = ? LIMIT 1", key).fetchone()
        return None if row is None else str(row[0])

    def drop_cached_vectors(self, tenant: str, user_key: str | None = None) -> None:
        """Forget the in-memory vectors of a tenant (or of one user of it); the next search reloads them."""
        with self._lock:
            for key in [k for k in self._vectors if k[0] == tenant and (user_key is None or k[1] == user_key)]:
                del self._vectors[key]

    def close(self) -> None:
        with self._lock:
            self._vectors.clear()
            self._conn.close()

    # For lifecycle jobs and tests that need raw SQL (sweep, erase, verification).
    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one SQL statement and return its rows."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()


def _index_row(rowid: int, item: StoredItem) -> IndexRow:
    r = item.record
    return IndexRow(
        rowid,
        r.id,
        r.type.value,
        r.source.kind.value,
        r.scope.agent or "",
        r.scope.session or "",
        r.valid_from.timestamp(),
        _ts(r.valid_to),
        _ts(r.expires_at),
        None if item.vector is None else np.asarray(item.vector, dtype=np.float32),
        None if item.vector is None or item.passages is None else np.asarray(item.passages, dtype=np.float32),
    )


def _chunks(values: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(values), _SQL_VARS):
        yield values[start : start + _SQL_VARS]


def _split_sql(script: str) -> list[str]:
    """Statements of a migration script; triggers keep their inner ';' (complete_statement knows)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and line.strip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
