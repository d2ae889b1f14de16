"""The isolation proofs on the PostgreSQL store (library facade, with the working-context tables), on a real server.

Every example starts from an empty store, as on SQLite, but not from a new schema: one schema per class, its
tables truncated before each example (a fresh schema with its migrations per example would cost seconds each).
"""

from __future__ import annotations

import pytest

from isolation_contract import IsolationContract, IsolationTarget
from pg_fixtures import PgServer
from tiermem.embed import HashingEmbedder
from tiermem.memory import Memory
from tiermem.store.options import PoolOptions
from tiermem.store.postgres import PostgresStore


class TestPostgresIsolation(IsolationContract):
    url: str
    server: PgServer

    @pytest.fixture(autouse=True, scope="class")
    def _schema(self, pg_server: PgServer) -> None:
        type(self).url = pg_server.schema_url("iso")
        type(self).server = pg_server

    def make_target(self) -> IsolationTarget:
        store = PostgresStore(self.url, pool=PoolOptions(size=2))
        tables = [t for (t,) in store.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]
        owned = ", ".join(t for t in tables if t != "schema_migrations")
        self.server.owner_execute(self.url, f"TRUNCATE {owned} RESTART IDENTITY")  # the owner's to do
        return IsolationTarget(Memory(store, HashingEmbedder(dim=64)), context=store)
