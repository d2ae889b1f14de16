"""(internal) The PostgreSQL store: psycopg 3 with a pool, BM25 from per-scope statistics, pgvector HNSW.

Every statement runs in a transaction whose ``tiermem.tenant`` setting names the tenant it works on, so the
row-level security policies (migration 0009) hold even where a query forgot its own scope filter; the few
store-wide reads go through the schema's functions that run as its owner.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool, PoolTimeout

from tiermem.embed import Vectors
from tiermem.errors import StoreError
from tiermem.store.lease_base import TurnLeaseMixin
from tiermem.store.options import PoolOptions
from tiermem.store.postgres.access import PgAccessMixin
from tiermem.store.postgres.audit import PgAuditMixin
from tiermem.store.postgres.bulk import BulkState, PgBulkMixin
from tiermem.store.postgres.connect import UNREACHABLE, apply_migrations, driver_error, parse_url, with_connect_timeout
from tiermem.store.postgres.context import PgContextMixin
from tiermem.store.postgres.fulltext import PgFullTextMixin
from tiermem.store.postgres.idempotency import PgIdempotencyMixin
from tiermem.store.postgres.maintenance import PgMaintenanceMixin
from tiermem.store.postgres.order import PgWriteOrderMixin
from tiermem.store.postgres.outage import Outage
from tiermem.store.postgres.quotes import PgQuotesMixin
from tiermem.store.postgres.recall import PgRecallMixin
from tiermem.store.postgres.roles import bypass_reason, grant_runtime
from tiermem.store.postgres.sql import COLUMNS, DIALECT, row_to_record, scope_sql, set_tenant
from tiermem.store.postgres.summary import PgSummaryMixin
from tiermem.store.postgres.transfer import PgTransferMixin
from tiermem.store.postgres.unindexed import PgUnindexedMixin
from tiermem.store.postgres.vectors import PgVectorMixin, as_array, build_missing_hnsw
from tiermem.store.postgres.writes import PgRecordWritesMixin
from tiermem.store.sql_where import ListingMixin
from tiermem.types import MemoryRecord, MemoryType, Scope

__all__ = ["PostgresStore"]


class PostgresStore(
    PgRecordWritesMixin,
    PgBulkMixin,
    PgFullTextMixin,
    PgRecallMixin,
    PgVectorMixin,
    PgAuditMixin,
    PgContextMixin,
    PgMaintenanceMixin,
    PgSummaryMixin,
    PgQuotesMixin,
    PgTransferMixin,
    PgAccessMixin,
    PgIdempotencyMixin,
    TurnLeaseMixin,
    PgUnindexedMixin,
    PgWriteOrderMixin,
    ListingMixin,
):
    """Store on a PostgreSQL database (with pgvector); safe to share between threads of one process."""

    DIALECT = DIALECT
    LISTED_COLUMNS = COLUMNS
    INSERTION_ORDER = "r.seq"

    def __init__(self, url: str, *, pool: PoolOptions | None = None, create: bool = True) -> None:
        target = parse_url(url)
        self.url = url
        self.where = target.display
        self.schema = target.schema
        self.pool_options = pool if pool is not None else PoolOptions.from_env()
        self._conninfo = with_connect_timeout(target.conninfo, self.pool_options.connect_timeout)
        self._local = threading.local()
        self._bulk: BulkState | None = None
        try:
            with psycopg.connect(self._conninfo, autocommit=True) as conn:
                self._schema_version = apply_migrations(conn, target.schema, target.display)
                # A superuser, a BYPASSRLS role or the tables' owner is not walled in by row-level security: the
                # store still scopes every query itself, but the second wall is down (the service refuses to run
                # so unless told; docs/postgres.md, "Two roles").
                self.rls_bypass = bypass_reason(conn, target.schema)
                conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(target.schema)))
                self._dims = build_missing_hnsw(conn)
        except psycopg.Error as exc:
            raise driver_error("open", target.display, exc) from exc
        del create  # a server database is never created by opening it; the tables are, by the migrations
        self._pool_lock = threading.Lock()
        self._pool = self._new_pool()
        self.outage = Outage(self._probe, self._renew_pool)
        try:
            self._pool.open(wait=True, timeout=self.pool_options.connect_timeout + 1)
        except PoolTimeout as exc:  # the server refused every connection
            self._pool.close()
            raise StoreError(
                f"cannot open {self.where}: no connection within {self.pool_options.connect_timeout + 1} s ({exc})",
                public="the database server cannot be reached",
            ) from exc

    def _new_pool(self) -> ConnectionPool[psycopg.Connection[Any]]:
        search_path = sql.SQL("SET search_path TO {}, public").format(sql.Identifier(self.schema))

        def configure(conn: psycopg.Connection[Any]) -> None:
            from pgvector.psycopg import register_vector

            conn.execute(search_path)
            conn.execute("SET timezone TO 'UTC'")
            # psycopg prepares a statement on its 5th run, and PostgreSQL then settles on a generic plan, blind to
            # the tenant and user: with one scope of 100,000 records among thousands of 20, the generic plan of the
            # vector query scored the big scope exactly instead of walking HNSW (docs/postgres.md has the figures).
            # So statements are planned for the values at hand (one exception, asked for by name: a recall's second
            # statement where every vector is scored anyway, in recall.py). Not with plan_cache_mode: that re-plans the
            # server's own cached plans too, the foreign-key check of every inserted vector among them.
            conn.prepare_threshold = None
            register_vector(conn)

        return ConnectionPool(
            self._conninfo,
            min_size=1,
            max_size=self.pool_options.size,
            kwargs={"autocommit": True},
            configure=configure,
            timeout=self.pool_options.wait,
            open=False,
        )

    def _probe(self) -> None:
        """Connect afresh, outside the pool: StoreError when the server cannot be reached."""
        try:
            psycopg.connect(self._conninfo, autocommit=True).close()
        except psycopg.Error as exc:
            raise driver_error("reach", self.where, exc) from exc

    def _renew_pool(self) -> None:
        """The server is back: a fresh pool replaces the one whose reconnection attempts are backing off."""
        fresh = self._new_pool()
        fresh.open(wait=False)
        with self._pool_lock:
            old, self._pool = self._pool, fresh
        old.close(timeout=0)  # connections still lent out are closed as they come back

    @property
    def row_security(self) -> bool:
        """Whether row-level security binds this store's role (it does for the runtime role)."""
        return self.rls_bypass is None

    def schema_version(self) -> int:
        """The highest applied migration."""
        return self._schema_version

    def grant_runtime(self, role: str) -> None:
        """Give ``role`` the privileges the service needs on this schema (the store must be opened as its owner)."""
        try:
            with self._pool.connection() as conn:
                grant_runtime(conn, self.schema, role)
        except psycopg.Error as exc:
            raise driver_error(f"grant {role} the use of", self.where, exc) from exc

    # -- transactions -------------------------------------------------------------------------------------

    def pinned(self, scope: Scope) -> AbstractContextManager[None]:
        """A recall here reads in one transaction already (``recall_reads``): nothing more to pin."""
        return nullcontext()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One database transaction on this thread's connection; nested calls join it."""
        local = self._local
        if getattr(local, "conn", None) is not None:
            yield
            return
        pool, conn = self._connection()
        local.conn, local.tenant = conn, None
        try:
            with conn.transaction():
                yield
        except psycopg.Error as exc:
            raise self._failed(conn, "write to", exc) from exc
        finally:
            local.conn = None
            pool.putconn(conn)

    def _failed(self, conn: psycopg.Connection[Any], action: str, exc: psycopg.Error) -> StoreError:
        """The error a transaction's driver failure raises; a broken connection has the outage watch probe."""
        if conn.broken:
            self.outage.suspect()
        return driver_error(action, self.where, exc)

    def _connection(self) -> tuple[ConnectionPool[psycopg.Connection[Any]], psycopg.Connection[Any]]:
        """A connection from the pool, and that pool; refused at once while the server is away."""
        away = self.outage.away
        if away is not None:
            raise StoreError(
                f"cannot reach {self.where}: the server has not answered for {self.outage.away_for():.0f} s ({away})",
                public=UNREACHABLE,
            )
        with self._pool_lock:
            pool = self._pool
        try:
            return pool, pool.getconn()
        except PoolTimeout as exc:
            self.outage.suspect()
            raise StoreError(
                f"no connection to {self.where} came free within {self.pool_options.wait:g} s (the pool of"
                f" {self.pool_options.size} is busy, or the server is away): {exc}",
                public="the database is busy or cannot be reached",
            ) from exc
        except psycopg.Error as exc:
            raise driver_error("connect to", self.where, exc) from exc

    @contextmanager
    def _tenant(self, tenant: str) -> Iterator[psycopg.Connection[Any]]:
        """This thread's transaction with ``tiermem.tenant`` set to ``tenant`` (restored afterwards)."""
        with self.transaction():
            local = self._local
            conn: psycopg.Connection[Any] = local.conn
            before = local.tenant
            if before != tenant:
                conn.execute(set_tenant(tenant))
                local.tenant = tenant
            try:
                yield conn
            finally:
                if before is not None and before != tenant and conn.info.transaction_status.name != "INERROR":
                    conn.execute(set_tenant(before))
                    local.tenant = before

    @contextmanager
    def _anywhere(self) -> Iterator[psycopg.Connection[Any]]:
        """This thread's transaction as it is: for the catalog and the store-wide functions (migration 0009),
        which need no tenant."""
        with self.transaction():
            yield self._local.conn

    def serialise(self, scope: Scope, *, whole_tenant: bool = False) -> None:
        if getattr(self._local, "conn", None) is None:
            raise StoreError("serialise() needs a transaction: call it inside store.transaction()")
        # Transaction-scoped advisory locks, released by COMMIT or ROLLBACK and taken again by a nested call at no
        # cost: one per (schema, tenant), which a user's writer holds shared and an erase of the whole tenant
        # exclusive (a user it does not hold yet is covered too), then one per (schema, tenant, user). The tenant's
        # comes first, in its own statement, so every transaction takes them in one order (``scope_writes`` sorts
        # its users). Two users whose keys collide only wait for each other.
        tenant = f"tiermem\x1f{self.schema}\x1f{scope.tenant}"
        with self._tenant(scope.tenant) as conn:
            if whole_tenant:
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [tenant])
                return
            conn.execute("SELECT pg_advisory_xact_lock_shared(hashtextextended(%s, 0))", [tenant])
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"{tenant}\x1f{scope.user or ''}"])

    # -- reads --------------------------------------------------------------------------------------------

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        return self.get_many(scope, [record_id]).get(record_id)

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        rows = self._rows_by(scope, f"SELECT {COLUMNS} FROM records r WHERE r.id", record_ids)
        return {row[0]: row_to_record(row) for row in rows}

    def _rows_by(self, scope: Scope, select: str, record_ids: Sequence[str], order: str = "") -> list[Any]:
        """The rows of ``select`` whose column it ends with is one of ``record_ids``, in ``scope``, then ``order``."""
        if not record_ids:
            return []
        where, params = scope_sql(scope)
        with self._tenant(scope.tenant) as conn:
            return conn.execute(f"{select} = ANY(%s) AND {where}{order}", [list(record_ids), *params]).fetchall()

    def find_by_hash(
        self, scope: Scope, type_: MemoryType, hashes: Sequence[str], *, now: datetime
    ) -> dict[str, MemoryRecord]:
        if not hashes:
            return {}
        scoped = [scope.tenant, scope.user or "", scope.agent or "", scope.session or "", type_.value]
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                f"SELECT {COLUMNS} FROM records r WHERE r.tenant = %s AND r.user_key = %s AND r.agent = %s"
                " AND r.session = %s AND r.type = %s AND r.content_hash = ANY(%s)"
                " AND r.valid_to IS NULL AND (r.expires_at IS NULL OR r.expires_at > %s) ORDER BY r.seq",
                [*scoped, list(hashes), now],
            ).fetchall()
        out: dict[str, MemoryRecord] = {}
        for row in rows:
            rec = row_to_record(row)
            out.setdefault(rec.content_hash, rec)
        return out

    def listed_rows(self, tenant: str, statement: str, params: list[Any]) -> list[Any]:
        with self._tenant(tenant) as conn:
            return conn.execute(statement, params).fetchall()

    def listed_record(self, row: Any) -> MemoryRecord:
        return row_to_record(row)

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        rows = self._rows_by(
            scope,
            "SELECT r.id, v.vec FROM records r JOIN vectors v ON v.tenant = r.tenant AND v.record_id = r.id"
            " AND v.part = 0 WHERE r.id",
            record_ids,
        )
        return {rid: as_array(vec) for rid, vec in rows}

    def successors(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, list[MemoryRecord]]:
        select = f"SELECT {COLUMNS} FROM records r WHERE r.supersedes"
        rows = self._rows_by(scope, select, record_ids, " ORDER BY r.valid_from, r.seq")
        out: dict[str, list[MemoryRecord]] = {}
        for row in rows:
            record = row_to_record(row)
            out.setdefault(str(record.supersedes), []).append(record)
        return out

    def count(self, scope: Scope | None = None) -> int:
        if scope is None:
            with self._anywhere() as conn:
                row = conn.execute("SELECT records FROM tiermem_row_counts()").fetchone()
        else:
            where, params = scope_sql(scope)
            with self._tenant(scope.tenant) as conn:
                row = conn.execute(f"SELECT COUNT(*) FROM records r WHERE {where}", params).fetchone()
        return int(row[0]) if row else 0

    def iter_scopes(self) -> Iterator[Scope]:
        with self._anywhere() as conn:
            rows = conn.execute("SELECT tenant, user_key FROM tiermem_scopes()").fetchall()
        for tenant, user_key in rows:
            yield Scope(tenant, user_key or None)

    def close(self) -> None:
        self.outage.close()
        with self._pool_lock:
            self._pool.close()

    # For tests and diagnostics that need raw SQL; lifecycle jobs go through the maintenance methods.
    def execute(
        self, statement: str, params: Sequence[Any] = (), *, tenant: str | None = None
    ) -> list[tuple[Any, ...]]:
        """Run one SQL statement as ``tenant`` (None: no tenant, which reads no row of a table but the catalog's)
        and return its rows (none: [])."""
        with self._tenant(tenant) if tenant is not None else self._anywhere() as conn:
            cur = conn.execute(statement.encode() if not params else statement, params or None)
            return cur.fetchall() if cur.description else []
