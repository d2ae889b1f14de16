"""(internal) Reaching a PostgreSQL server: the store URL, the connection pool, migrations and driver errors."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from tiermem.errors import ConfigError, MigrationError, StoreError
from tiermem.store.postgres.terms import refill_index_text
from tiermem.store.urls import display_url

__all__ = ["UNREACHABLE", "PgTarget", "apply_migrations", "driver_error", "parse_url", "with_connect_timeout"]

UNREACHABLE = "the database server cannot be reached"

_SCHEMA = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def _refill(conn: psycopg.Connection[Any]) -> None:
    refill_index_text(conn)


# Migrations whose work SQL cannot do: run after the version's SQL, in its transaction.
_PYTHON_STEPS: dict[int, Callable[[psycopg.Connection[Any]], None]] = {3: _refill}


@dataclass(frozen=True, slots=True)
class PgTarget:
    """Where the store lives: the libpq connection string, the schema of its tables, and a printable name."""

    conninfo: str
    schema: str
    display: str


def parse_url(url: str) -> PgTarget:
    """A ``postgresql://`` (or ``postgres://``) URL; ``?schema=name`` (default public) is ours, the rest libpq's."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ConfigError(f"not a PostgreSQL URL: {display_url(url)!r} (expected postgresql://user@host/dbname)")
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in query if k == "schema"), "public")
    if not _SCHEMA.fullmatch(schema):
        raise ConfigError(
            f"schema={schema!r} in the store URL: must be a lower-case SQL name (letters, digits, _; up to 63)"
        )
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    conninfo = urlunsplit((parts.scheme, parts.netloc, parts.path, rest, ""))
    return PgTarget(conninfo, schema, display_url(url))


def with_connect_timeout(conninfo: str, seconds: int) -> str:
    """``conninfo`` with libpq's ``connect_timeout`` set to ``seconds`` unless the URL sets its own."""
    parts = urlsplit(conninfo)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any(k == "connect_timeout" for k, _ in query):
        return conninfo
    query.append(("connect_timeout", str(seconds)))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def driver_error(action: str, where: str, exc: psycopg.Error) -> StoreError:
    """A StoreError that says what failed on which server, and what the driver's message means; its ``public``
    part says the meaning alone (a client of the service is told no role, host, socket or schema)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    # Before OperationalError: psycopg files a deadlock and a serialisation failure under it too.
    if isinstance(exc, psycopg.errors.SerializationFailure | psycopg.errors.DeadlockDetected):
        meaning = "another transaction wrote the same rows; retry"
        public = "a concurrent write got in the way"  # the service adds "; retry"
    elif isinstance(exc, psycopg.OperationalError):
        meaning = "the server cannot be reached or closed the connection; check the URL and that it runs"
        public = UNREACHABLE
    elif isinstance(exc, psycopg.errors.InsufficientPrivilege):
        meaning = "the database role lacks a privilege (or a row-level security policy refused the row)"
        public = "the database refused the operation"
    else:
        meaning = "the database driver failed"
        public = "the database failed"
    return StoreError(f"cannot {action} {where}: {meaning} (PostgreSQL: {text})", public=public)


def _applied(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> set[int] | None:
    """The versions recorded in ``schema`` (None: no migration record there yet), read without any DDL."""
    found = conn.execute("SELECT to_regclass(format('%%I.schema_migrations', %s::text))", [schema]).fetchone()
    if found is None or found[0] is None:
        return None
    query = sql.SQL("SELECT version FROM {}.schema_migrations").format(sql.Identifier(schema))
    return {int(str(v)) for (v,) in conn.execute(query).fetchall()}


def apply_migrations(conn: psycopg.Connection[tuple[object, ...]], schema: str, where: str) -> int:
    """Apply the packaged migrations not yet recorded in ``schema``, in one transaction; the latest version.

    A schema that is up to date is only read (the runtime role may do that); one that is not needs the role that
    owns it (or may create it), and anyone else is told to run ``tiermem init`` as that role."""
    folder = resources.files("tiermem.store.postgres") / "migrations"
    scripts = sorted((f.name, f) for f in folder.iterdir() if f.name.endswith(".sql"))
    versions = {int(name.split("_", 1)[0]) for name, _ in scripts}
    done = _applied(conn, schema)
    if done is not None and versions <= done:
        return max(done, default=0)
    ident = sql.Identifier(schema)
    try:
        with conn.transaction():
            # Two processes opening a new database at once: the second waits, then finds the work done.
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"tiermem-migrate-{schema}"])
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(ident))
            conn.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(ident))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL)"
            )
            done = {int(v) for (v,) in conn.execute("SELECT version FROM schema_migrations").fetchall()}  # type: ignore[call-overload]
            for name, file in scripts:
                version = int(name.split("_", 1)[0])
                if version in done:
                    continue
                _apply(conn, name, file.read_text(encoding="utf-8"), where)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, %s)", [version, name, datetime.now(UTC)])
                done.add(version)
    except psycopg.errors.InsufficientPrivilege as exc:
        pending = sorted(versions - (done or set()))
        raise MigrationError(
            f"{where} needs migrations {', '.join(map(str, pending))}, which this role may not run ({exc});"
            " run `tiermem init --db <the owner's URL>` as the role that owns the schema (docs/postgres.md,"
            ' "Two roles")'
        ) from exc
    return max(done, default=0)


def _apply(conn: psycopg.Connection[tuple[object, ...]], name: str, script: str, where: str) -> None:
    version = int(name.split("_", 1)[0])
    try:
        with conn.transaction():
            conn.execute(script.encode())
            step = _PYTHON_STEPS.get(version)
            if step is not None:
                step(conn)
    except psycopg.errors.InsufficientPrivilege as exc:
        raise MigrationError(
            f"migration {name} on {where} needs a privilege the role lacks ({exc}); an administrator may run"
            " `CREATE EXTENSION vector; CREATE EXTENSION btree_gin;` in the database first, and the schema's"
            " owner runs `tiermem init`"
        ) from exc
    except psycopg.Error as exc:
        raise MigrationError(f"migration {name} on {where} failed: {exc}") from exc
