"""The statement check the PostgreSQL contract suites run under (tenant_filter): what passes, what fails."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg_fixtures import PgServer
from store_fixtures import ALICE, item, make_record
from tenant_filter import StatementLog, capturing, classify
from tiermem.store.postgres import PostgresStore

TABLES = frozenset({"records", "vectors", "fts_postings", "audit_log", "scope_stats"})


def _kinds(statement: str) -> list[str]:
    return [v.kind for v in classify(statement, TABLES)]


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT r.id FROM records r WHERE r.tenant = $1 AND r.user_key = $2",
        "SELECT v.record_id FROM vectors v JOIN records r ON r.tenant = v.tenant AND r.id = v.record_id"
        " WHERE v.tenant = $1",
        "SELECT u, v.dim FROM unnest($1::text[]) u, LATERAL (SELECT dim FROM vectors WHERE tenant = $2 LIMIT 1) v",
        "INSERT INTO records (tenant, id) VALUES ($1, $2) ON CONFLICT (tenant, id) DO NOTHING",
        "DELETE FROM fts_postings p USING unnest($1::text[]) o(u) WHERE p.tenant = $2 AND p.user_key = o.u",
        "UPDATE audit_log SET detail = $1 WHERE tenant = $2 AND seq = $3",
        "SELECT r.id FROM records r WHERE r.tenant = $1 AND EXISTS"
        " (SELECT 1 FROM vectors v WHERE v.tenant = r.tenant AND v.record_id = r.id)",
    ],
)
def test_a_statement_pinned_to_one_tenant_passes(statement: str) -> None:
    assert _kinds(statement) == ["tenant"]


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT id FROM records",
        "SELECT id FROM records WHERE tenant = $1 OR user_key = $2",
        "SELECT id FROM records WHERE tenant = ANY($1)",
        "UPDATE audit_log SET before = $1 WHERE seq = $2",
        "SELECT r.id FROM records r WHERE r.tenant = $1 AND r.seq IN (SELECT p.seq FROM fts_postings p)",
        "SELECT v.record_id FROM vectors v JOIN records r ON r.id = v.record_id WHERE v.tenant = $1",
        "INSERT INTO records (id, user_key) VALUES ($1, $2)",
        "CREATE INDEX later ON vectors (dim)",
        "ALTER TABLE records NO FORCE ROW LEVEL SECURITY",
    ],
)
def test_a_statement_that_does_not_name_its_tenant_or_is_ddl_fails(statement: str) -> None:
    assert _kinds(statement) == ["bad"]


def test_store_wide_function_calls_and_staging_are_told_apart() -> None:
    assert _kinds("SELECT tenant, user_key FROM tiermem_scopes()") == ["store-wide"]
    assert _kinds("CREATE TEMP TABLE s ON COMMIT DROP AS SELECT tenant FROM records WITH NO DATA") == ["other"]
    assert _kinds("SELECT set_config('tiermem.tenant', $1, true)") == ["other"]


@pytest.fixture
def pg(pg_server: PgServer) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_server.schema_url("filter"))
    yield store
    store.close()


def test_the_log_catches_what_a_store_sends(pg: PostgresStore) -> None:
    log = StatementLog(TABLES)
    with capturing(log):
        pg.put_many([item(make_record(ALICE, "a note on the log"))])
        pg.execute("SELECT count(*) FROM records", tenant="acme")  # a query that forgot its tenant
    assert any(v.kind == "tenant" for _, v in log.seen)
    assert [text for text, _ in log.bad()] == ["SELECT count(*) FROM records"]
