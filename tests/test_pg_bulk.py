"""Bulk writes on PostgreSQL: large batches through COPY, bulk loads that build HNSW once, custom plans."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from pg_fixtures import PgServer
from store_fixtures import ALICE, BOB, EMB, NOW, OTHER_TENANT_ALICE, item, make_record
from tiermem.errors import StoreError
from tiermem.store import StoredItem
from tiermem.store.postgres import PostgresStore
from tiermem.store.postgres import vectors as pg_vectors
from tiermem.store.postgres.rows import STAGE_FROM
from tiermem.types import Filter, Scope

WORDS = "harbour lantern copper meadow violin orchard pebble glacier saddle thimble".split()
BIG = Scope("acme", "big")


@pytest.fixture
def stores(pg_server: PgServer) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    # A bulk load is the owner's work (an initial load, a migration): it drops and builds the HNSW indexes.
    first, second = PostgresStore(pg_server.owner_schema_url()), PostgresStore(pg_server.owner_schema_url())
    yield first, second
    first.close()
    second.close()


def _items(scope: Scope, n: int, start: int = 0) -> list[StoredItem]:
    out = []
    for i in range(start, start + n):
        text = f"{WORDS[i % 10]} {WORDS[(i * 3) % 10]} {WORDS[(i * 7) % 10]} note {i}"
        record = make_record(
            scope, text, context=f"about {WORDS[(i + 1) % 10]}" if i % 3 == 0 else None,
            tags=("a", "b") if i % 2 else (), metadata={"n": i}, expires_at=NOW + timedelta(days=i + 1),
        )  # fmt: skip
        out.append(item(record))
    return out


def _table(store: PostgresStore, statement: str) -> list[tuple[object, ...]]:
    return sorted(store.execute(statement))


def _terms(store: PostgresStore) -> list[tuple[object, ...]]:
    return _table(store, "SELECT tenant, user_key, term, df FROM fts_terms")


def _hnsw(store: PostgresStore) -> list[str]:
    rows = store.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'vectors_hnsw%'"
    )
    return [str(name) for (name,) in rows]


def test_a_batch_copied_through_staging_stores_what_small_batches_store(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    bulk, small = stores
    items = _items(ALICE, STAGE_FROM) + _items(BOB, 30) + _items(OTHER_TENANT_ALICE, 30)
    bulk.put_many(items)  # one call: the COPY path, three scopes and two tenants
    for start in range(0, len(items), 10):
        small.put_many(items[start : start + 10])  # the multi-row INSERT path
    for scope in (ALICE, BOB, OTHER_TENANT_ALICE):
        wanted = [i.record.id for i in items if i.record.scope == scope]
        assert bulk.get_many(scope, wanted) == small.get_many(scope, wanted)
        got, expected = bulk.vectors_of(scope, wanted), small.vectors_of(scope, wanted)
        assert all(np.array_equal(got[rid], expected[rid]) for rid in wanted) and len(got) == len(wanted)
        found = bulk.keyword_candidates(scope, ["lantern"], Filter(), now=NOW, limit=5)
        assert found == small.keyword_candidates(scope, ["lantern"], Filter(), now=NOW, limit=5) and found
    for statement in (
        "SELECT tenant, user_key, docs, tokens FROM scope_stats",
        "SELECT tenant, user_key, term, df FROM fts_terms",
    ):
        assert _table(bulk, statement) == _table(small, statement)


def test_a_copied_batch_replaces_records_by_id_and_their_terms(stores: tuple[PostgresStore, PostgresStore]) -> None:
    store, _ = stores
    items = _items(ALICE, STAGE_FROM)
    store.put_many(items)
    changed = [
        StoredItem(replace(i.record, content="a kettle on the stove", context=None), EMB.embed_batch(["kettle"])[0])
        for i in items
    ]
    store.put_many(changed)
    assert store.count(ALICE) == STAGE_FROM
    assert store.get(ALICE, items[0].record.id).content == "a kettle on the stove"  # type: ignore[union-attr]
    assert store.keyword_candidates(ALICE, ["harbour"], Filter(), now=NOW, limit=5) == []
    assert len(store.keyword_candidates(ALICE, ["kettle"], Filter(), now=NOW, limit=500)) == STAGE_FROM


def test_no_write_makes_an_index_and_a_bulk_load_builds_them_once_at_its_end(
    stores: tuple[PostgresStore, PostgresStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = stores
    monkeypatch.setattr(pg_vectors, "EXACT_UP_TO", 20)  # a scope past 20 records goes through HNSW
    items = _items(BIG, 80)
    store.put_many(items[:30])
    store.put_many(items[30:40])  # the scope has grown past 20: its vectors are flagged for the index
    assert _hnsw(store) == ["vectors_hnsw_384"]  # migration 0010's; no write made one of 64 dimensions
    assert store.execute("SELECT count(*) FROM vectors WHERE NOT indexed", tenant=BIG.tenant) == [(0,)]
    target = items[35]
    found = store.vector_candidates(BIG, target.vector, EMB.fingerprint, Filter(), now=NOW, limit=3)  # type: ignore[arg-type]
    assert found[0].id == target.record.id  # searched exactly meanwhile
    with store.bulk_load() as report:
        assert _hnsw(store) == []  # dropped for the load
        for start in range(40, 80, 10):
            store.put_many(items[start : start + 10])
        assert _hnsw(store) == []  # no vector went into an index one by one
    assert sorted(report.indexes) == sorted(["vectors_hnsw_384", f"vectors_hnsw_{EMB.dim}"])
    assert report.index_build_s > 0 and sorted(_hnsw(store)) == sorted(report.indexes)
    assert store.execute("SELECT count(*) FROM vectors WHERE NOT indexed", tenant=BIG.tenant) == [(0,)]
    target = items[65]
    found = store.vector_candidates(BIG, target.vector, EMB.fingerprint, Filter(), now=NOW, limit=3)  # type: ignore[arg-type]
    assert found[0].id == target.record.id


def test_the_owner_opening_the_store_makes_the_index_of_flagged_vectors(
    stores: tuple[PostgresStore, PostgresStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = stores
    monkeypatch.setattr(pg_vectors, "EXACT_UP_TO", 20)
    store.put_many(_items(BIG, 30))
    assert _hnsw(store) == ["vectors_hnsw_384"]
    again = PostgresStore(store.url)  # as `tiermem init` opens it: the owner, at start, never a request
    try:
        assert sorted(_hnsw(again)) == sorted(["vectors_hnsw_384", f"vectors_hnsw_{EMB.dim}"])
    finally:
        again.close()


def test_a_bulk_load_counts_term_frequencies_as_the_triggers_keep_them(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    loaded, written = stores
    items = _items(ALICE, 40) + _items(BOB, 40)
    gone = [i.record.id for i in items[:5]]
    with loaded.bulk_load():
        for start in range(0, len(items), 20):
            loaded.put_many(items[start : start + 20])
        loaded.delete(ALICE, gone)
    written.put_many(items)
    written.delete(ALICE, gone)
    assert _terms(loaded) == _terms(written) and _terms(loaded)


def test_bulk_loads_do_not_nest(stores: tuple[PostgresStore, PostgresStore]) -> None:
    store, _ = stores
    with store.bulk_load(), pytest.raises(StoreError, match="bulk_load"), store.bulk_load():
        pass


def test_statements_are_never_prepared_so_each_is_planned_for_its_scope(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    store, _ = stores
    store.put_many(_items(ALICE, 3))
    for _ in range(8):  # past psycopg's default threshold of 5 runs
        store.keyword_candidates(ALICE, ["lantern"], Filter(), now=NOW, limit=5)
    assert store.execute("SELECT count(*) FROM pg_prepared_statements") == [(0,)]
