"""What the LangGraph adapter's tests share: a memory on each backend, and a LangChain ``Embeddings`` of words."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from langchain_core.embeddings import Embeddings

from pg_fixtures import PgServer
from tiermem import Memory
from tiermem.embed import HashingEmbedder
from tiermem.store.options import PoolOptions
from tiermem.store.postgres import PostgresStore
from tiermem.store.postgres.connect import parse_url

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="module")
def pg_url(pg_server: PgServer) -> str:
    """One schema per test module; each test empties it (a new schema per test would cost its migrations)."""
    return pg_server.schema_url("lg")


def open_memory(request: pytest.FixtureRequest, backend: str) -> Memory:
    """An empty memory with a hashing embedder on ``backend``."""
    if backend == "sqlite":
        return Memory.open(":memory:", embedder=HashingEmbedder())
    url = request.getfixturevalue("pg_url")
    server: PgServer = request.getfixturevalue("pg_server")
    with psycopg.connect(_libpq(server.as_owner(url)), autocommit=True) as conn:  # the runtime role may not
        schema = url.rsplit("schema=", 1)[1]
        tables = [t for (t,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", [schema])]
        names = ", ".join(f'"{schema}"."{t}"' for t in tables if t != "schema_migrations")
        conn.execute(f"TRUNCATE {names} RESTART IDENTITY")
    return Memory(PostgresStore(url, pool=PoolOptions(size=2)), HashingEmbedder())


def _libpq(url: str) -> str:
    """The URL without tiermem's own ``schema`` parameter."""
    return parse_url(url).conninfo


@pytest.fixture(params=BACKENDS)
def memory(request: pytest.FixtureRequest) -> Iterator[Memory]:
    """An empty memory on each backend in turn."""
    with open_memory(request, request.param) as mem:
        yield mem


class WordEmbeddings(Embeddings):
    """A LangChain ``Embeddings`` of hashed words; queries come back unnormalised, as some models' do."""

    def __init__(self, dims: int = 64) -> None:
        self.dims = dims
        self.inner = HashingEmbedder(dims)
        self.calls: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append("documents")
        return [[float(x) for x in row] for row in self.inner.embed_batch(texts)]

    def embed_query(self, text: str) -> list[float]:
        self.calls.append("query")
        return [3.0 * float(x) for x in self.inner.embed_batch([text])[0]]
