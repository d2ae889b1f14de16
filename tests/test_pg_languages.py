"""Keyword search beyond English on PostgreSQL: the same index text as SQLite, and old rows re-tokenized."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg_fixtures import PgServer
from tiermem.memory import Memory
from tiermem.store.postgres import PostgresStore
from tiermem.types import Scope

SCOPE = Scope("t", "u")
NOTES = (
    "Die Brille liegt auf dem Schreibtisch neben der Lampe.",  # German: the glasses are on the desk
    "我的自行车停在车库里。",  # Chinese: my bicycle is parked in the garage
    "私の犬の名前はポチです。",  # Japanese: my dog's name is Pochi
    "Ζεστός καφές στην κουζίνα.",  # Greek: hot coffee in the kitchen
    "The umbrella is behind the door.",
)
QUERIES = ("名前", "犬", "自行车", "车库", "καφες", "ΚΑΦΈΣ", "schreibtisch", "BRILLE", "umbrella")


def _found(memory: Memory, query: str) -> list[str]:
    return sorted(hit.record.content for hit in memory.recall(SCOPE, query, k=10))


@pytest.fixture
def both(pg_server: PgServer) -> Iterator[tuple[Memory, Memory]]:
    with Memory.open(":memory:", embedder=None) as lite, Memory.open(pg_server.schema_url(), embedder=None) as pg:
        for note in NOTES:
            lite.remember(SCOPE, note)
            pg.remember(SCOPE, note)
        yield lite, pg


@pytest.mark.parametrize("query", QUERIES)
def test_both_stores_find_the_same_notes_for_cjk_and_accented_queries(both: tuple[Memory, Memory], query: str) -> None:
    lite, pg = both
    found = _found(pg, query)
    assert found, query
    assert found == _found(lite, query)


def test_rows_written_before_migration_3_are_re_tokenized_when_the_store_opens(pg_server: PgServer) -> None:
    url = pg_server.owner_schema_url()  # the owner migrates
    with Memory.open(url, embedder=None) as memory:
        for note in NOTES:
            memory.remember(SCOPE, note)
        store = memory.store
        assert isinstance(store, PostgresStore)
        # As rows written before migration 3: their terms are not the index text (here: none at all), and the
        # full-text tables hold what those terms put there (nothing).
        store.execute("UPDATE records SET fts = ''::tsvector, fts_len = 0")
        store.execute("DELETE FROM fts_postings")
        store.execute("DELETE FROM fts_terms")
        store.execute("UPDATE scope_stats SET tokens = 0")
        store.execute("DELETE FROM schema_migrations WHERE version = 3")
        assert _found(memory, "名前") == []
    with Memory.open(url, embedder=None) as memory:
        store = memory.store
        assert isinstance(store, PostgresStore) and store.schema_version() >= 3
        assert _found(memory, "名前") == [NOTES[2]]
        assert _found(memory, "καφες") == [NOTES[3]]
        # The ASCII note keeps the terms it had (here: none), as its text indexes the same either way.
        assert _found(memory, "umbrella") == []
        assert store.execute("SELECT df FROM fts_terms WHERE term = '名前'") == [(1,)]
