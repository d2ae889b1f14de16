"""The PostgreSQL store passes the AccessStore contract (keys and session bindings), on a real server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from access_contract import AccessContract, key
from pg_contract import OnServer
from pg_fixtures import PgServer
from tiermem.errors import ConflictError
from tiermem.store.postgres import PostgresStore


class TestPostgresAccess(OnServer, AccessContract):
    def make_store(self) -> PostgresStore:
        return OnServer.make_store(self)


@pytest.fixture
def pg(pg_server: PgServer) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_server.schema_url("access"))
    yield store
    store.close()


def test_a_key_id_is_unique_across_tenants_though_the_primary_key_leads_with_the_tenant(pg: PostgresStore) -> None:
    pg.add_key(key("k1", tenant="acme"))
    with pytest.raises(ConflictError, match="k1"):
        pg.add_key(key("k1", tenant="globex"))
    found = pg.find_key("k1")
    assert found is not None and found.tenant == "acme"


def test_access_rows_are_walled_in_by_the_tenant_policy(pg: PostgresStore) -> None:
    pg.add_key(key("ka", tenant="acme"))
    pg.add_key(key("kg", tenant="globex"))
    pg.bind_session("globex", "s1", "bob", at=key("x").created_at)
    # No WHERE: the policy alone keeps globex's key and session out of an acme transaction.
    assert pg.execute("SELECT id FROM api_keys", tenant="acme") == [("ka",)]
    assert pg.execute("SELECT count(*) FROM session_bindings", tenant="acme") == [(0,)]
    with pytest.raises(Exception, match="row-level security"):
        pg.execute(
            "INSERT INTO session_bindings (tenant, session, user_key, bound_at) VALUES ('globex', 's2', 'eve', now())",
            tenant="acme",
        )


def test_the_store_reports_the_bytes_of_its_tables(pg: PostgresStore) -> None:
    pg.add_key(key("k1"))
    assert pg.stored_bytes() > 8192
