"""The contract suites on the session's PostgreSQL server, every statement their stores send checked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg_fixtures import PgServer
from tenant_filter import StatementLog, capturing
from tiermem.store.postgres import PostgresStore


class OnServer:
    """A contract suite on the session's server, with every statement its stores send checked (tenant_filter):
    each one names its tenant, or is a call of the schema's store-wide functions, and none is DDL on a tenant table.
    A new query without its tenant fails the test that runs it."""

    server: PgServer
    log: StatementLog
    tenant_tables: frozenset[str] = frozenset()

    @pytest.fixture(autouse=True)
    def _server(self, pg_server: PgServer) -> Iterator[None]:
        type(self).server = pg_server
        if not self.tenant_tables:
            url = pg_server.schema_url("tables")
            rows = pg_server.owner_execute(
                url,
                "SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
                " AND column_name = 'tenant'",
            )
            type(self).tenant_tables = frozenset(str(name) for (name,) in rows)
        log = StatementLog(self.tenant_tables)
        type(self).log = log
        with capturing(log):
            yield
        log.dump()
        assert log.bad() == []

    def make_store(self) -> PostgresStore:
        with self.log.paused():  # the owner's schema set-up and the store's opening are not requests
            return PostgresStore(self.server.schema_url())
