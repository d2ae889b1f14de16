"""(internal) The embedded default store: one SQLite file, WAL, FTS5 full text, float32 vectors searched in numpy."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from tiermem.embed import Vectors
from tiermem.errors import ConfigError, MigrationError, StoreError
from tiermem.store.lease_base import TurnLeaseMixin
from tiermem.store.sql_where import ListingMixin
from tiermem.store.sqlite.access import SQLiteAccessMixin
from tiermem.store.sqlite.audit import SQLiteAuditMixin
from tiermem.store.sqlite.connect import connect, driver_error, released
from tiermem.store.sqlite.context import SQLiteContextMixin
from tiermem.store.sqlite.fts import SQLiteFullTextMixin
from tiermem.store.sqlite.idempotency import SQLiteIdempotencyMixin
from tiermem.store.sqlite.maintenance import SQLiteMaintenanceMixin
from tiermem.store.sqlite.order import SQLiteWriteOrderMixin
from tiermem.store.sqlite.pin import SQLiteGenerationPin, ThreadPins
from tiermem.store.sqlite.quotes import SQLiteQuotesMixin
from tiermem.store.sqlite.record_cache import MAX_CACHED_RECORDS, MAX_CACHED_VECTORS, ScopeCache, record_in_scope
from tiermem.store.sqlite.rows import COLUMNS, chunks, row_to_record, ts
from tiermem.store.sqlite.sql import DIALECT, scope_sql
from tiermem.store.sqlite.summary import SQLiteSummaryMixin
from tiermem.store.sqlite.transfer import SQLiteTransferMixin
from tiermem.store.sqlite.unindexed import SQLiteUnindexedMixin
from tiermem.store.sqlite.vectors import SQLiteVectorMixin
from tiermem.store.sqlite.writes import SQLiteRecordWritesMixin
from tiermem.store.vector_index import VectorCache, unpack_vectors
from tiermem.store.vector_scan import NEIGHBOUR_SHORTLIST, SHORTLIST_FROM, SHORTLIST_MIN
from tiermem.types import MemoryRecord, MemoryType, Scope

__all__ = ["DEFAULT_CACHE_BYTES", "SQLiteStore"]

DEFAULT_CACHE_BYTES = 1 << 30  # 1 GiB of cached vectors: ~680k 384-d records


# Seconds an open waits for other processes: several starting on one new file at once (an MCP client starting a
# server per project) queue on the switch to WAL and the migrations, and one of them can hold the file for
# longer than a statement's 5 s busy timeout on a loaded machine.
OPEN_WAIT = 60.0

# FTS5 writes each transaction's rows as a new segment of its index and merges segments in proportion to the data
# written; a write of a record or two adds too little for that to keep up, so an index written record by record is
# read through many segments, each looked up for every query term. Asking for a few pages of merging at every write
# keeps it to a handful; with nothing eligible to merge, the command is a no-op.
_MERGE_FULL_TEXT = "INSERT INTO records_fts (records_fts, rank) VALUES ('merge', 16)"


def _locked(exc: BaseException) -> bool:
    text = str(exc)
    return "locked" in text or "busy" in text


class SQLiteStore(
    SQLiteRecordWritesMixin,
    SQLiteFullTextMixin,
    SQLiteVectorMixin,
    SQLiteAuditMixin,
    SQLiteContextMixin,
    SQLiteMaintenanceMixin,
    SQLiteSummaryMixin,
    SQLiteQuotesMixin,
    SQLiteTransferMixin,
    SQLiteAccessMixin,
    SQLiteIdempotencyMixin,
    TurnLeaseMixin,
    SQLiteUnindexedMixin,
    SQLiteWriteOrderMixin,
    SQLiteGenerationPin,
    ListingMixin,
):
    """Store on one SQLite file (or ``:memory:``); safe to share between threads of one process."""

    DIALECT = DIALECT
    LISTED_COLUMNS = COLUMNS
    INSERTION_ORDER = "r.rowid"

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        shortlist_from: int | None = SHORTLIST_FROM,
        shortlist_size: int = SHORTLIST_MIN,
        neighbour_shortlist: int = NEIGHBOUR_SHORTLIST,
        synchronous: str | None = None,
    ) -> None:
        self.path = str(path)
        self.cache_bytes = cache_bytes
        # Scopes with this many live vectors or more are searched through a sign-bit shortlist of (at least)
        # ``shortlist_size`` rows scored exactly; None: every search exact.
        self.shortlist_from = shortlist_from
        self.shortlist_size = shortlist_size
        self.neighbour_shortlist = neighbour_shortlist  # the same for batched lookups (the write path's)
        self._conn = connect(self.path, create=create)
        self._closed = False
        self._lock = threading.RLock()
        self._depth = 0
        # Least recently searched last out: scopes' vectors in memory, bounded by ``cache_bytes``.
        self._vectors = VectorCache()
        # Decoded records and vectors per scope generation (``get_many``, ``vectors_of``).
        self._records = ScopeCache[MemoryRecord](MAX_CACHED_RECORDS)
        self._vector_rows = ScopeCache[Vectors](MAX_CACHED_VECTORS)
        self._successors = ScopeCache[list[MemoryRecord]](MAX_CACHED_VECTORS)
        self._pins = ThreadPins()
        try:
            self._set_up()
            if synchronous is not None:
                self.set_synchronous(synchronous)
        except BaseException as exc:
            self._conn.close()
            released(self.path)
            if isinstance(exc, sqlite3.Error):
                raise driver_error("open", self.path, exc) from exc
            raise

    def _set_up(self) -> None:
        """Pragmas and migrations, tried again while another process holds the file (see ``OPEN_WAIT``)."""
        deadline = time.monotonic() + OPEN_WAIT
        delay = 0.05
        while True:
            try:
                self._conn.execute("PRAGMA busy_timeout=5000")
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.execute("PRAGMA foreign_keys=ON")
                self._migrate()
                self._init_full_text()
                return
            except (sqlite3.OperationalError, StoreError) as exc:
                if not _locked(exc) or time.monotonic() + delay > deadline:
                    raise
            time.sleep(delay)
            delay = min(delay * 2, 1.0)

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

    def set_synchronous(self, level: str) -> None:
        """``PRAGMA synchronous``: NORMAL (the library default) or FULL (each commit synced to disk; the server's)."""
        if level.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ConfigError(f"synchronous must be NORMAL, FULL or EXTRA, not {level!r}")
        with self._lock:
            self._conn.execute(f"PRAGMA synchronous={level.upper()}")

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
            changes = self._conn.total_changes
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
                    # Only after a write: a transaction that wrote nothing (every one on a read-only file) has nothing
                    # to merge, and the merge itself would write.
                    if self._conn.total_changes != changes:
                        self._conn.execute(_MERGE_FULL_TEXT)
                    self._conn.execute("COMMIT")
                except sqlite3.Error as exc:
                    raise driver_error("commit to", self.path, exc) from exc

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """The statements inside read one committed state of the file, whatever other processes commit meanwhile
        (a read transaction; inside a write transaction, that one)."""
        with self._lock:
            if self._depth > 0 or self._conn.in_transaction:
                yield
                return
            self._conn.execute("BEGIN")
            try:
                yield
            finally:
                if self._conn.in_transaction:
                    self._conn.execute("COMMIT")

    def serialise(self, scope: Scope, *, whole_tenant: bool = False) -> None:
        # BEGIN IMMEDIATE already took the file's one write lock: no other writer, in any process, until COMMIT
        # (of any user: a whole tenant needs nothing more).
        if self._depth == 0:
            raise StoreError("serialise() needs a transaction: call it inside store.transaction()")

    # -- reads --------------------------------------------------------------------------------------------

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        return self.get_many(scope, [record_id]).get(record_id)

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        with self._lock:
            pinned = self._pinned_gen(scope)
            return self._records.get_many(self._conn, scope, record_ids, self._fetch_records, record_in_scope, pinned)

    def _fetch_records(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """``get_many`` read from the file, by id within each chunk (the order recall's ties keep)."""
        rows = self._rows_by(scope, f"SELECT {COLUMNS} FROM records r", "r.id", record_ids, " ORDER BY r.id")
        return {row[0]: row_to_record(row) for row in rows}

    def find_by_hash(
        self, scope: Scope, type_: MemoryType, hashes: Sequence[str], *, now: datetime
    ) -> dict[str, MemoryRecord]:
        out: dict[str, MemoryRecord] = {}
        params0: list[Any] = [scope.tenant, scope.user or "", scope.agent or "", scope.session or "", type_.value]
        with self._lock:
            for chunk in chunks(list(hashes)):
                rows = self._conn.execute(
                    f"SELECT {COLUMNS} FROM records r WHERE r.tenant = ? AND r.user_key = ? AND r.agent = ?"
                    f" AND r.session = ? AND r.type = ? AND r.content_hash IN ({','.join('?' * len(chunk))})"
                    " AND r.valid_to IS NULL AND (r.expires_at IS NULL OR r.expires_at > ?) ORDER BY r.rowid",
                    [*params0, *chunk, ts(now)],
                )
                for row in rows:
                    rec = row_to_record(row)
                    out.setdefault(rec.content_hash, rec)
        return out

    def listed_rows(self, tenant: str, statement: str, params: list[Any]) -> list[Any]:
        with self._lock:
            return self._conn.execute(statement, params).fetchall()

    def listed_record(self, row: Any) -> MemoryRecord:
        return row_to_record(row)

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        with self._lock:
            pinned = self._pinned_gen(scope)
            held = self._indexed_vectors(scope, record_ids, pinned)
            if held is not None:
                return held
            return self._vector_rows.get_many(self._conn, scope, record_ids, self._fetch_vectors, None, pinned)

    def _fetch_vectors(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        """``vectors_of`` read from the file: each record's own vector (a read-only copy, not its passages')."""
        select = "SELECT r.id, v.vec, v.dim FROM records r JOIN vectors v ON v.record_rowid = r.rowid"
        rows = self._rows_by(scope, select, "r.id", record_ids)
        return {rid: _own(unpack_vectors(vec, dim)[0]) for rid, vec, dim in rows}

    def successors(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, list[MemoryRecord]]:
        # Kept per scope generation, for the whole (tenant, user) and narrowed here: recall walks the same
        # chains question after question, one query per link.
        narrower = scope.agent is not None or scope.session is not None
        with self._lock:
            whole = Scope(scope.tenant, scope.user) if narrower else scope
            found = self._successors.get_many(
                self._conn, whole, record_ids, self._fetch_successors, None, self._pinned_gen(scope)
            )
        if not narrower:  # copies: the cached lists are shared
            return {rid: list(later) for rid, later in found.items() if later}
        narrowed = {rid: [r for r in later if record_in_scope(r, scope)] for rid, later in found.items()}
        return {rid: later for rid, later in narrowed.items() if later}

    def _fetch_successors(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, list[MemoryRecord]]:
        """``successors`` read from the file, an empty list for a record none names (so that is kept too)."""
        out: dict[str, list[MemoryRecord]] = {rid: [] for rid in record_ids}
        order = " ORDER BY r.valid_from, r.rowid"
        for row in self._rows_by(scope, f"SELECT {COLUMNS} FROM records r", "r.supersedes", record_ids, order):
            record = row_to_record(row)
            out[str(record.supersedes)].append(record)
        return out

    def _rows_by(self, scope: Scope, select: str, column: str, values: Sequence[str], order: str = "") -> Iterator[Any]:
        """The rows of ``select`` in ``scope`` whose ``column`` is one of ``values``; each chunk's by ``order``."""
        # by_key: without it the planner walks the whole scope by (tenant, user) instead of the id or supersedes index.
        where, params = scope_sql(scope, by_key=True)
        for chunk in chunks(list(values)):
            yield from self._conn.execute(
                f"{select} WHERE {column} IN ({','.join('?' * len(chunk))}) AND {where}{order}", chunk + params
            ).fetchall()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._vectors.clear()
            self._records.clear()
            self._vector_rows.clear()
            self._successors.clear()
            self._conn.close()
            released(self.path)

    # For tests and diagnostics that need raw SQL; lifecycle jobs go through the maintenance methods.
    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one SQL statement and return its rows."""
        with self._lock:
            # Raw SQL may change records without bumping their scope's generation.
            self._records.clear()
            self._vector_rows.clear()
            self._successors.clear()
            return self._conn.execute(sql, params).fetchall()


def _own(vector: Vectors) -> Vectors:
    """A read-only copy of a view into a row's blob (the blob holds the passages' vectors too)."""
    out = vector.copy()
    out.flags.writeable = False
    return out


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
