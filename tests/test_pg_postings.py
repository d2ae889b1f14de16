"""Full text on PostgreSQL through the postings table: indexed under row-level security, counted as SQLite counts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest

from pg_fixtures import PgServer
from store_contract import ALICE, BOB, NOW, item, make_record
from tiermem.store.base import TermStatistics
from tiermem.store.postgres import PostgresStore
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import Filter, content_hash

NOTES = [
    ("the lighthouse keeper painted the red door", "we talked about the lighthouse"),
    ("a red kite circled over the lighthouse", None),
    ("the keeper's logbook sits by the red door", None),
    ("fresh paint smells strong in the morning", "the lighthouse again"),
    ("morning tea with the keeper", None),
]


@pytest.fixture
def pg(pg_server: PgServer) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_server.schema_url())
    yield store
    store.close()


def _plan(store: PostgresStore, statement: str, params: list[object]) -> str:
    """The plan of ``statement`` as the app role sees it (row security in force), sequential scans discouraged."""
    with store._tenant(ALICE.tenant) as conn:  # the store's own transaction: the tenant setting is made there
        conn.execute("SELECT set_config('enable_seqscan', 'off', true)")
        (plan,) = conn.execute("EXPLAIN (FORMAT JSON) " + statement, params).fetchone() or [None]
    return json.dumps(plan)


def test_the_postings_lookup_runs_through_its_index_with_the_term_under_row_security(pg: PostgresStore) -> None:
    pg.put_many([item(make_record(ALICE, content, context=context)) for content, context in NOTES])
    assert pg.row_security
    plan = _plan(
        pg,
        "SELECT seq, term, at FROM fts_postings WHERE tenant = %s AND user_key = %s AND term = ANY(%s)",
        [ALICE.tenant, ALICE.user, ["red", "keeper"]],
    )
    # The term is an index condition, not a filter applied to every posting of the scope.
    assert '"Index Cond": "((tenant = ' in plan and "term = ANY" in plan.split('"Index Cond"', 1)[1], plan
    records = _plan(
        pg,
        "SELECT id FROM records r WHERE r.tenant = %s AND r.user_key = %s AND r.seq = ANY(%s::bigint[])",
        [ALICE.tenant, ALICE.user, [1, 2]],
    )
    assert "seq = ANY" in records.split('"Index Cond"', 1)[1], records


def test_term_document_counts_equal_the_sqlite_stores(pg: PostgresStore) -> None:
    records = [make_record(ALICE, content, context=context) for content, context in NOTES]
    sqlite = SQLiteStore(":memory:")
    for store in (sqlite, pg):
        store.put_many([item(r) for r in records])
        store.put_many([item(make_record(BOB, "red red lighthouse keeper"))])  # another scope counts nothing
    assert isinstance(pg, TermStatistics) and isinstance(sqlite, TermStatistics)
    # Content only ("lighthouse" in a context does not count), stemmed ("paint" counts for "painted"), phrases
    # as phrases.
    terms = ["lighthouse", "red", "keepers", "painted", "red door", "door red", "tea", "absent"]
    want = sqlite.term_document_counts(ALICE, terms)
    assert pg.term_document_counts(ALICE, terms) == want
    assert want == (5, {"lighthouse": 2, "red": 3, "keepers": 3, "painted": 2, "red door": 2, "door red": 0,
                        "tea": 1, "absent": 0})  # fmt: skip
    sqlite.close()


def test_an_edited_record_is_found_by_its_new_words_only(pg: PostgresStore, pg_server: PgServer) -> None:
    record = make_record(ALICE, "the blue bicycle is in the shed")
    pg.put_many([item(record)])
    edited = "the green scooter is in the garage"
    pg.put_many([item(replace(record, content=edited, content_hash=content_hash(edited)))])
    assert pg.keyword_candidates(ALICE, ["bicycle"], Filter(), now=NOW, limit=5) == []
    assert [c.id for c in pg.keyword_candidates(ALICE, ["scooter"], Filter(), now=NOW, limit=5)] == [record.id]
    assert pg_server.owner_execute(pg.url, "SELECT count(*) FROM fts_postings WHERE term = 'bicycl'") == [(0,)]
    assert pg_server.owner_execute(pg.url, "SELECT count(*) FROM fts_postings WHERE term = 'scooter'") == [(1,)]


def test_rows_written_before_migration_5_get_their_postings_when_the_store_opens(pg_server: PgServer) -> None:
    url = pg_server.owner_schema_url()  # the owner migrates
    records = [make_record(ALICE, content, context=context) for content, context in NOTES]
    store = PostgresStore(url)
    store.put_many([item(r) for r in records])
    want = store.keyword_candidates(ALICE, ["red door", "keeper"], Filter(), now=NOW, limit=5)
    assert want
    # As a store before migration 5: no postings, the function gone, the GIN index there; and the migrations
    # after it (those that run again: 9 and 10, which take its triggers and its policy away again) not applied.
    store.execute("DROP TABLE fts_postings")
    store.execute("DROP FUNCTION tiermem_signed_positions(smallint[], text[])")
    store.execute("CREATE INDEX records_fts ON records USING gin (tenant, user_key, fts)")
    store.execute("DELETE FROM schema_migrations WHERE version = 5 OR version >= 9")
    store.close()
    store = PostgresStore(url)
    assert store.schema_version() >= 5
    assert store.keyword_candidates(ALICE, ["red door", "keeper"], Filter(), now=NOW, limit=5) == want
    assert store.execute("SELECT count(*) FROM pg_indexes WHERE indexname = 'records_fts'") == [(0,)]
    store.close()


def _records_read(store: PostgresStore) -> int:
    """Rows of ``records`` this transaction has read so far, by scans of the table or of its indexes."""
    with store._tenant(ALICE.tenant) as conn:
        row = conn.execute(
            "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables"
            " WHERE schemaname = current_schema() AND relname = 'records'"
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_forgets_context_lookup_reads_the_records_of_the_lines_rarest_term_not_every_context(
    pg: PostgresStore,
) -> None:
    common = "the keeper painted the red door of the lighthouse"
    quoting = make_record(ALICE, "noted", context=f"{common} zephyrine")
    others = [make_record(ALICE, f"reply {i}", context=f"{common} again {i}") for i in range(60)]
    pg.put_many([item(r) for r in [quoting, *others]])
    pg.compact(full=False)  # ANALYZE: without statistics the planner reads every row of a table this small
    with pg.transaction():
        with pg._tenant(ALICE.tenant) as conn:  # ... and scans it whole, whatever its indexes
            conn.execute("SELECT set_config('enable_seqscan', 'off', true)")
        before = _records_read(pg)
        assert pg.drop_context_lines(ALICE, [f"{common} zephyrine"]) == 1
        read = _records_read(pg) - before
    assert read < 10, read  # the candidates, the changed record read back, the upsert: not the 61 contexts
