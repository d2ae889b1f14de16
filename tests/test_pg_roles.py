"""The two PostgreSQL roles: the runtime role reads one exact tenant at a time and can turn nothing off; the
owner migrates and grants (``tiermem init --grant``); the service refuses to serve as a role row security
does not bind, unless told to, and then says so loudly."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from pg_fixtures import APP_ROLE, OWNER_ROLE, PgServer
from served_process import TIERMEM, env_for
from store_fixtures import ALICE, item, make_record
from tiermem.embed import HashingEmbedder
from tiermem.errors import MigrationError
from tiermem.memory import Memory
from tiermem.store.access_base import ApiKey, KeyRole
from tiermem.store.postgres import PostgresStore
from tiermem.types import Scope, utcnow

GLOBEX = Scope("globex", "gina")
TABLES = ("records", "vectors", "scope_stats", "fts_terms", "fts_postings", "audit_log", "api_keys")


@pytest.fixture
def filled(pg_server: PgServer) -> Iterator[PostgresStore]:
    """A store, as the runtime role, holding rows of two tenants (records, their index rows, an audit entry, keys)."""
    store = PostgresStore(pg_server.schema_url("roles"))

    memory = Memory(store, HashingEmbedder(dim=64))
    memory.remember(ALICE, "acme keeps the spare keys under the mat")
    memory.remember(GLOBEX, "globex moved the server room to the basement")
    for key_id, tenant in (("k-acme", "acme"), ("k-globex", "globex")):
        store.add_key(ApiKey(key_id, tenant, None, KeyRole.ADMIN, "ab" * 32, utcnow()))
    yield store
    store.close()


def _runtime(store: PostgresStore, pg_server: PgServer) -> psycopg.Connection[tuple[object, ...]]:
    """A plain connection of the runtime role in the store's schema, as a compromised service would hold one."""
    conn = psycopg.connect(pg_server.app_url, autocommit=True)
    conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(store.schema)))
    return conn


def _visible(conn: psycopg.Connection[tuple[object, ...]], setting: str | None) -> dict[str, set[str]]:
    with conn.transaction():
        if setting is not None:
            conn.execute("SELECT set_config('tiermem.tenant', %s, true)", [setting])
        return {t: {str(r[0]) for r in conn.execute(f"SELECT tenant FROM {t}".encode()).fetchall()} for t in TABLES}


def test_the_runtime_role_reads_no_row_with_a_wildcard_empty_or_malformed_tenant(
    filled: PostgresStore, pg_server: PgServer
) -> None:
    assert pg_server.owner_execute(filled.url, "SELECT count(DISTINCT tenant) FROM records") == [(2,)]
    with _runtime(filled, pg_server) as conn:
        for setting in (None, "*", "", "%", "acme,globex", "acme' OR '1'='1", "ACME", " acme", "acme*"):
            assert _visible(conn, setting) == {t: set() for t in TABLES}, setting
        with conn.transaction():
            conn.execute("SET LOCAL row_security = off")  # asks to bypass: refused, not silently ignored
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SELECT count(*) FROM records")
        assert _visible(conn, "acme") == {t: {"acme"} for t in TABLES}
        assert _visible(conn, "globex") == {t: {"globex"} for t in TABLES}


def test_the_runtime_role_can_turn_no_wall_off_nor_become_the_owner(filled: PostgresStore, pg_server: PgServer) -> None:
    refused = [
        "ALTER TABLE records NO FORCE ROW LEVEL SECURITY",
        "ALTER TABLE records DISABLE ROW LEVEL SECURITY",
        "DROP POLICY tenant_wall ON records",
        "CREATE POLICY everything ON records USING (true)",
        "ALTER TABLE api_keys OWNER TO tiermem_app",
        "CREATE TABLE stolen AS SELECT 1 AS x",
        f"SET ROLE {OWNER_ROLE}",
        "CREATE OR REPLACE FUNCTION tiermem_find_key(p_id text) RETURNS SETOF api_keys LANGUAGE sql"
        " AS 'SELECT * FROM api_keys'",
        "UPDATE schema_migrations SET version = 0",
        "TRUNCATE records",
    ]
    with _runtime(filled, pg_server) as conn:
        for statement in refused:
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(statement.encode())
    assert pg_server.owner_execute(
        filled.url, "SELECT relrowsecurity FROM pg_class WHERE oid = 'records'::regclass"
    ) == [(True,)]


def test_the_store_wide_functions_return_keys_by_id_and_record_ids_never_text(
    filled: PostgresStore, pg_server: PgServer
) -> None:
    with _runtime(filled, pg_server) as conn:
        found = conn.execute("SELECT tenant FROM tiermem_find_key('k-globex')").fetchall()
        assert found == [("globex",)]
        scopes = conn.execute("SELECT * FROM tiermem_scopes()").fetchall()
        assert scopes == [("acme", "alice"), ("globex", "gina")]
        columns = {
            name
            for (name,) in conn.execute(
                "SELECT unnest(proargnames) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace"
                " AND prosecdef"
            ).fetchall()
        }
        assert not columns & {"content", "context", "before", "after", "value", "record", "fts"}
    # No other role may call them: EXECUTE is the runtime role's alone.
    rows = pg_server.owner_execute(
        filled.url,
        "SELECT p.proname FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace AND p.prosecdef"
        " AND has_function_privilege('public', p.oid, 'EXECUTE')",
    )
    assert rows == []


def test_a_runtime_role_that_cannot_migrate_is_told_to_run_tiermem_init(pg_server: PgServer) -> None:
    url = pg_server.owner_schema_url("late")
    app_url = url.replace(f"{OWNER_ROLE}@", f"{APP_ROLE}@")
    with pytest.raises(MigrationError, match="tiermem init"):
        PostgresStore(app_url)


def test_the_documented_operator_commands_set_the_roles_up(pg_server: PgServer, tmp_path: Path) -> None:
    owner_url = pg_server.owner_schema_url("ops")
    app_url = owner_url.replace(f"{OWNER_ROLE}@", f"{APP_ROLE}@")
    env = env_for(tmp_path / "unused.db")
    init = subprocess.run(
        [*TIERMEM, "init", "--db", owner_url, "--grant", APP_ROLE], env=env, capture_output=True, text=True
    )
    assert init.returncode == 0 and f"{APP_ROLE} may serve it" in init.stdout, init.stderr
    again = subprocess.run(
        [*TIERMEM, "init", "--db", owner_url, "--grant", APP_ROLE], env=env, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stderr  # idempotent: after an upgrade, run it again
    key = subprocess.run(
        [*TIERMEM, "keys", "create", "--db", app_url, "--tenant", "acme", "--user", "alice"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert key.returncode == 0 and key.stdout.startswith("tmk_"), key.stderr
    store = PostgresStore(app_url)
    try:
        assert store.row_security and store.rls_bypass is None
        store.put_many([item(make_record(ALICE, "written by the runtime role"))])
        assert store.count(ALICE) == 1
    finally:
        store.close()


def _serve_fails(url: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [*TIERMEM, "serve", "--db", url, "--embedder", "hash", "--port", "0", *args]
    return subprocess.run(command, env=env_for(tmp_path / "unused.db"), capture_output=True, text=True, timeout=120)


def test_serving_as_a_superuser_or_the_owner_is_refused(pg_server: PgServer, tmp_path: Path) -> None:
    app_url = pg_server.schema_url("who")
    superuser = pg_server.as_superuser(app_url)
    for url, why in ((superuser, "is a superuser"), (pg_server.as_owner(app_url), "owns the tables")):
        done = _serve_fails(url, tmp_path)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert done.returncode == 1 and len(lines) == 1 and why in lines[0], done.stderr
        assert "--allow-rls-bypass" in lines[0] and "Traceback" not in done.stderr


def test_serving_as_a_superuser_when_allowed_warns_loudly(pg_server: PgServer, tmp_path: Path) -> None:
    app_url = pg_server.schema_url("who")
    superuser = pg_server.as_superuser(app_url)
    command = [*TIERMEM, "serve", "--db", superuser, "--embedder", "hash", "--port", "0", "--allow-rls-bypass"]
    proc = subprocess.Popen(command, env=env_for(tmp_path / "unused.db"), stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        lines = [proc.stderr.readline() for _ in range(2)]
        assert lines[0].startswith("WARNING: ") and "is a superuser" in lines[0], lines
        assert "serving anyway" in lines[0] and "tiermem serving" in lines[1], lines
    finally:
        proc.terminate()
        proc.wait(timeout=30)
