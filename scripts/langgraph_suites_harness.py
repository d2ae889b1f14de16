"""LangGraph's stores as its own test suites build them, each a ``TiermemStore`` on a fresh tiermem database.

``scripts/langgraph_suites.py`` swaps these in for ``InMemoryStore``, ``SqliteStore`` and ``AsyncSqliteStore``
in copies of LangGraph's store tests: the construction is all that changes. Without an ``index`` the database has
no embedder, as LangGraph's stores then have no vector search; with one, its ``embed`` indexes the items.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from tiermem import Memory
from tiermem.integrations.langgraph import AsyncTiermemStore, TiermemStore


def _memory(conn_string: str) -> Memory:
    """A fresh tiermem database: in memory, or in the (new, empty) file the suite names."""
    return Memory.open(conn_string if conn_string == ":memory:" else Path(conn_string), embedder=None)


class InMemoryStore(TiermemStore):
    """``InMemoryStore(index=..., ttl=...)``."""

    def __init__(self, *, index: Mapping[str, Any] | None = None, ttl: Mapping[str, Any] | None = None) -> None:
        super().__init__(_memory(":memory:"), index=index, ttl=ttl)


class SqliteStore(TiermemStore):
    """``SqliteStore.from_conn_string(conn, index=..., ttl=...)`` and its ``setup()``."""

    @classmethod
    @contextmanager
    def from_conn_string(
        cls, conn_string: str, *, index: Mapping[str, Any] | None = None, ttl: Mapping[str, Any] | None = None
    ) -> Iterator[SqliteStore]:
        memory = _memory(conn_string)
        store = cls(memory, index=index, ttl=ttl)
        try:
            yield store
        finally:
            store.stop_ttl_sweeper()
            memory.close()

    def setup(self) -> None:
        """Nothing to do: tiermem migrates a database when it opens it."""


class AsyncSqliteStore(AsyncTiermemStore):
    """``AsyncSqliteStore.from_conn_string(conn, index=..., ttl=...)`` and its ``setup()``."""

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str, *, index: Mapping[str, Any] | None = None, ttl: Mapping[str, Any] | None = None
    ) -> AsyncIterator[AsyncSqliteStore]:
        memory = _memory(conn_string)
        store = cls(memory, index=index, ttl=ttl)
        try:
            yield store
        finally:
            await store.stop_ttl_sweeper()
            memory.close()

    async def setup(self) -> None:
        """Nothing to do: tiermem migrates a database when it opens it."""
