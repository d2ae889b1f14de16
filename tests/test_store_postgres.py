"""The PostgreSQL store against the shared conformance suites, plus what only a server store has: row-level
security, the distribution key in every constraint, and erasure down to the pages after VACUUM."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_contract import ContextStoreContract
from pg_contract import OnServer
from pg_fixtures import PgServer
from rank_helpers import ranked
from store_contract import ALICE, BOB, EMB, NOW, StoreContract, item, make_record
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConfigError
from tiermem.lifecycle.retention import RetentionPolicy, sweep
from tiermem.memory import Memory
from tiermem.recall.policy import RecallPolicy
from tiermem.store import Store, StoredItem, open_store
from tiermem.store.context_base import StoreWithContext
from tiermem.store.postgres import PostgresStore
from tiermem.types import Filter, Scope, new_id, utcnow
from tiermem.write.path import WriteStatus

GLOBEX = Scope("globex", "alice")


class TestPostgresStore(OnServer, StoreContract):
    def make_store(self) -> Store:
        return OnServer.make_store(self)


class TestPostgresContextStore(OnServer, ContextStoreContract):
    def make_store(self) -> StoreWithContext:
        return OnServer.make_store(self)


@pytest.fixture
def pg(pg_server: PgServer) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_server.schema_url())
    yield store
    store.close()


def _admin(server: PgServer) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(server.admin_url, autocommit=True)


def test_the_app_role_is_walled_in_by_row_security(pg: PostgresStore) -> None:
    assert pg.row_security


def test_an_unscoped_query_sees_only_the_tenant_of_its_transaction(pg: PostgresStore) -> None:
    mine, theirs = make_record(ALICE, "acme's note"), make_record(GLOBEX, "globex's secret note")
    pg.put_many([item(mine), item(theirs)])
    for table in ("records", "vectors", "fts_terms", "scope_stats"):
        # No WHERE at all: the policy alone keeps the other tenant's rows out.
        tenants = {t for (t,) in pg.execute(f"SELECT tenant FROM {table}", tenant="acme")}
        assert tenants == {"acme"}, table
    assert pg.execute("SELECT id FROM records", tenant="acme") == [(mine.id,)]
    assert pg.execute("SELECT count(*) FROM records", tenant="nobody") == [(0,)]


def test_a_write_into_another_tenant_is_refused_by_the_policy(pg: PostgresStore) -> None:
    with pytest.raises(Exception, match="row-level security"):
        pg.execute(
            "INSERT INTO pending_writes (tenant, id, user_key, created_at, record, reason)"
            " VALUES ('globex', 'p', 'alice', now(), '{}', 'x')",
            tenant="acme",
        )


def test_without_a_tenant_setting_no_row_is_visible(pg: PostgresStore, pg_server: PgServer) -> None:
    pg.put_many([item(make_record(ALICE, "a note"))])
    conninfo = pg_server.app_url
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"SET search_path TO {pg.schema}, public")
        assert conn.execute("SELECT count(*) FROM records").fetchone() == (0,)


def test_every_primary_key_and_unique_constraint_leads_with_the_tenant(pg: PostgresStore) -> None:
    rows = pg.execute(
        "SELECT c.conrelid::regclass::text, c.conname, a.attname FROM pg_constraint c"
        " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
        " WHERE c.contype IN ('p', 'u') AND c.connamespace = current_schema()::regnamespace"
        " AND c.conrelid::regclass::text <> 'schema_migrations'"
    )
    assert len(rows) >= 9
    assert [(table, name) for table, name, first in rows if first != "tenant"] == []
    indexes = pg.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
        " AND tablename <> 'schema_migrations' AND indexname NOT LIKE 'vectors_hnsw_%'"
    )
    assert [name for name, definition in indexes if "(tenant" not in definition] == []
    foreign = pg.execute(
        "SELECT c.conrelid::regclass::text, c.conname, 'tenant' = ANY(SELECT a.attname FROM pg_attribute a"
        " WHERE a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)) FROM pg_constraint c"
        " WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace"
    )
    assert foreign and [(table, name) for table, name, has in foreign if not has] == []


def test_no_table_has_a_trigger(pg: PostgresStore) -> None:
    rows = pg.execute(
        "SELECT t.tgrelid::regclass::text, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
        " WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal"
    )
    assert rows == []


def test_every_tenant_table_has_a_policy_that_admits_one_exact_tenant(pg: PostgresStore) -> None:
    rows = pg.execute(
        "SELECT c.relname, c.relrowsecurity, array_agg(pg_get_expr(p.polqual, p.polrelid)),"
        " array_agg(pg_get_expr(p.polwithcheck, p.polrelid)) FROM pg_class c"
        " LEFT JOIN pg_policy p ON p.polrelid = c.oid WHERE c.relnamespace = current_schema()::regnamespace"
        " AND c.relkind = 'r' AND c.relname <> 'schema_migrations' GROUP BY 1, 2"
    )
    assert len(rows) >= 12
    exact = "(tenant = current_setting('tiermem.tenant'::text, true))"
    assert [r for r in rows if not (r[1] and r[2] == [exact] and r[3] == [exact])] == []


def test_migrations_apply_once_and_survive_reopen(pg_server: PgServer) -> None:
    url = pg_server.owner_schema_url()  # empty: the owner's first open migrates it
    first = PostgresStore(url)
    first.put_many([StoredItem(make_record(ALICE, "persisted note"), None)])
    version = first.schema_version()
    first.close()
    again = open_store(url)
    assert isinstance(again, PostgresStore) and again.schema_version() == version >= 2
    assert again.count(ALICE) == 1
    again.close()


def test_a_server_that_cannot_be_reached_is_a_store_error_naming_it() -> None:
    from tiermem.errors import StoreError

    with pytest.raises(StoreError, match=r"127\.0\.0\.1"):
        PostgresStore("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
    with pytest.raises(ConfigError, match="schema"):
        PostgresStore("postgresql://nobody@127.0.0.1:1/none?schema=Bad-Name")


def test_a_narrow_filter_in_a_big_scope_still_returns_k_rows(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tiermem.store.postgres.vectors as vectors

    monkeypatch.setattr(vectors, "EXACT_UP_TO", 10)  # this scope goes through the HNSW index
    rare = [make_record(ALICE, f"tagged orchard note {i}", tags=("rare",)) for i in range(5)]
    common = [make_record(ALICE, f"plain orchard note {i}") for i in range(300)]
    pg.put_many([item(r) for r in [*common, *rare]])
    q = EMB.embed_batch(["orchard note"])[0]
    found = pg.vector_candidates(ALICE, q, EMB.fingerprint, Filter(tags=frozenset({"rare"})), now=NOW, limit=5)
    assert {c.id for c in found} == {r.id for r in rare}
    everything = pg.vector_candidates(ALICE, q, EMB.fingerprint, Filter(), now=NOW, limit=20)
    assert len(everything) == 20


def test_keyword_ranking_uses_only_the_scopes_own_statistics(pg: PostgresStore) -> None:
    mine = [make_record(ALICE, "kayak trip"), make_record(ALICE, "kayak paddle"), make_record(ALICE, "river map")]
    pg.put_many([item(r) for r in mine])
    before = pg.keyword_candidates(ALICE, ["kayak", "river"], Filter(), now=NOW, limit=5)
    # Another user floods the store with one of the words: Alice's ranking and scores do not move.
    pg.put_many([item(make_record(BOB, f"river note {i}")) for i in range(50)])
    assert pg.keyword_candidates(ALICE, ["kayak", "river"], Filter(), now=NOW, limit=5) == before
    assert before[0].id == mine[2].id  # the rarer word in Alice's scope weighs more


def test_erase_leaves_no_row_of_the_user_in_any_table(pg: PostgresStore, pg_server: PgServer) -> None:
    secret = "Quorvandel"
    pg.put_many([item(make_record(ALICE, f"my name is {secret}", expires_at=NOW + timedelta(days=1)))])
    pg.put_many([item(make_record(BOB, "bob stays"))])
    pg.erase_scope("acme", "alice", audit_detail="erased")
    tables = [t for (t,) in pg.execute(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND column_name = 'user_key'"
    )]  # fmt: skip
    assert len(tables) >= 10
    for table in tables:  # read as the owner: every tenant's rows
        if table != "audit_log":
            assert pg_server.owner_execute(pg.url, f"SELECT count(*) FROM {table} WHERE user_key = 'alice'") == [(0,)]
    assert pg_server.owner_execute(pg.url, "SELECT count(*) FROM fts_terms WHERE term LIKE 'quorvandel%'") == [(0,)]
    assert pg_server.owner_execute(pg.url, "SELECT count(*) FROM records WHERE user_key = 'bob'") == [(1,)]
    assert pg.count(BOB) == 1


def test_after_erase_and_vacuum_no_page_of_any_table_or_index_holds_the_text(
    pg: PostgresStore, pg_server: PgServer
) -> None:
    secret = "Zephyrinthus"
    pg.put_many([item(make_record(ALICE, f"my codename is {secret}", context=f"said {secret}"))])
    pg.put_many([item(make_record(BOB, f"bob's note {i}")) for i in range(20)])
    with _admin(pg_server) as admin:
        admin.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")

        def pages_holding(text: str) -> list[str]:
            found = []
            relations = admin.execute(
                "SELECT c.oid::regclass::text, c.relpages FROM pg_class c WHERE c.relnamespace = %s::regnamespace"
                " AND c.relkind IN ('r', 'i', 't') AND c.relam IN (0, 2, 403, 2742)"
                " UNION ALL SELECT c.reltoastrelid::regclass::text, 0 FROM pg_class c WHERE c.relnamespace ="
                " %s::regnamespace AND c.reltoastrelid <> 0",
                [pg.schema, pg.schema],
            ).fetchall()
            for name, _ in relations:
                blocks = admin.execute("SELECT pg_relation_size(%s::regclass) / 8192", [name]).fetchone()
                for block in range(int(blocks[0]) if blocks else 0):
                    raw = admin.execute("SELECT get_raw_page(%s, %s)", [name, block]).fetchone()
                    if raw and text.encode() in bytes(raw[0]).lower():
                        found.append(f"{name}#{block}")
            return found

        assert pages_holding(secret.lower())  # the check can fail: before the erase, the text is there
        pg.erase_scope("acme", "alice", audit_detail="erased")
        assert pg.compact(full=True)
        assert pages_holding(secret.lower()) == []
    assert pg.count(BOB) == 20


def test_store_urls_choose_the_backend(pg_server: PgServer) -> None:
    store = open_store(pg_server.schema_url())
    assert isinstance(store, PostgresStore)
    store.close()


# -- the lifecycle through the facade, on the server ---------------------------------------------------------


@pytest.fixture
def pg_memory(pg_server: PgServer) -> Iterator[Memory]:
    with Memory.open(pg_server.schema_url(), embedder=HashingEmbedder()) as memory:
        yield memory


def test_stream_evidence_ranks_on_postgres_as_on_sqlite(pg_memory: Memory) -> None:
    ann = Scope("acme", "ann")
    orders = []
    with Memory.open(":memory:", embedder=HashingEmbedder()) as sqlite:
        for mem in (pg_memory, sqlite):
            best = mem.remember(ann, "Ann: I finally finished the birdhouse for the garden").record.id
            mem.remember(ann, "Bo: nice, what wood did you use?")
            near = mem.remember(ann, "Ann: it took me three weekends, mostly sanding").record.id
            for i in range(20):
                mem.remember(ann, f"Bo: the match on channel {i} went to extra time")
            other = mem.remember(ann, "Ann: the garden centre was out of seed").record.id
            names = {best: "best", near: "near", other: "other"}
            policy = RecallPolicy(neighbour_weight=0)  # the near line is two lines on: only its window counts
            hits = ranked(mem, ann, [best, near, other], [best, other, near], policy, "How long did it take?")
            orders.append([(names[h.record.id], round(h.part("session").raw, 9)) for h in hits])  # type: ignore[union-attr]
    assert orders[0] == orders[1]
    assert [name for name, _ in orders[0]] == ["best", "near", "other"]


def test_a_contradicting_fact_supersedes_the_old_one_which_stays_visible_as_of_then(pg_memory: Memory) -> None:
    t0 = NOW - timedelta(days=300)
    old = pg_memory.remember(ALICE, "My phone number is 555-0100.", valid_from=t0).record
    new = pg_memory.remember(ALICE, "My phone number is 555-0199.", valid_from=t0 + timedelta(days=100))
    assert new.status is WriteStatus.SUPERSEDED and new.superseded == (old.id,)
    assert [h.record.id for h in pg_memory.recall(ALICE, "phone number", now=NOW)][:1] == [new.record.id]
    then = pg_memory.recall(ALICE, "phone number", now=NOW, as_of=t0 + timedelta(days=10))
    assert [h.record.id for h in then] == [old.id]
    assert pg_memory.get(ALICE, old.id).valid_to == t0 + timedelta(days=100)


def test_the_sweep_deletes_expired_records_and_erase_leaves_the_user_nothing(pg_memory: Memory) -> None:
    brief = pg_memory.remember(ALICE, "the parking code is 4471", ttl=timedelta(minutes=5)).record
    kept = pg_memory.remember(ALICE, "the office is on the third floor").record
    report = sweep(pg_memory.store, RetentionPolicy(), now=utcnow() + timedelta(hours=1))
    assert report.expired == 1 and report.consistent
    assert pg_memory.store.get(ALICE, brief.id) is None and pg_memory.store.get(ALICE, kept.id) is not None
    pg_memory.erase("acme", "alice")
    assert not any(pg_memory.store.held_rows(ALICE).values())
    assert pg_memory.recall(ALICE, "office floor") == []


def test_forget_on_postgres_takes_the_turn_out_of_the_next_turns_context_and_audit(pg_memory: Memory) -> None:
    turns = [{"role": "user", "content": "my locker number is 8823"}, {"role": "assistant", "content": "Noted."}]
    first, reply = (r.record for r in pg_memory.remember_messages(ALICE, turns, session="s1"))
    assert reply.context == "my locker number is 8823"
    pg_memory.forget(ALICE, first.id)
    assert pg_memory.get(ALICE, reply.id).context is None
    assert "locker number is 8823" not in str(pg_memory.export(ALICE))  # not the bare digits: ids and hashes are hex
    assert pg_memory.store.keyword_candidates(ALICE, ["8823"], Filter(), now=utcnow(), limit=5) == []


# -- isolation as a property ---------------------------------------------------------------------------------

_WORDS = ["kiwi", "harbour", "violin", "lantern", "walnut", "meadow"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    placements=st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from(_WORDS)), min_size=1, max_size=12
    ),
    probe=st.tuples(st.integers(0, 2), st.integers(0, 2)),
)
def test_no_read_ever_returns_another_scopes_record(
    pg: PostgresStore, placements: list[tuple[int, int, str]], probe: tuple[int, int]
) -> None:
    run = new_id()[-12:]  # every example in its own tenants: the store is shared by the examples
    scope_of = [[Scope(f"t{t}-{run}", f"u{u}") for u in range(3)] for t in range(3)]
    records = [make_record(scope_of[t][u], f"{word} note {i}") for i, (t, u, word) in enumerate(placements)]
    pg.put_many([item(r) for r in records])
    scope = scope_of[probe[0]][probe[1]]
    mine = {r.id for r in records if r.scope == scope}
    found = {c.id for c in pg.keyword_candidates(scope, _WORDS, Filter(), now=NOW, limit=100)}
    found |= {c.id for c in pg.vector_candidates(scope, EMB.embed_batch(["note"])[0], EMB.fingerprint, Filter(),
                                                 now=NOW, limit=100)}  # fmt: skip
    found |= {r.id for r in pg.list_records(scope, Filter(), now=NOW, limit=100, cursor=None).records}
    found |= set(pg.get_many(scope, [r.id for r in records]))
    assert found == mine
    # And a query without any scope condition, as the tenant: that tenant's rows only.
    unscoped = {rid for (rid,) in pg.execute("SELECT id FROM records", tenant=scope.tenant)}
    assert unscoped == {r.id for r in records if r.scope.tenant == scope.tenant}


def test_keyword_scores_equal_fts5_bm25_when_the_store_holds_one_scope(pg: PostgresStore) -> None:
    from tiermem.store.sqlite import SQLiteStore

    texts = [
        ("the harbour crane lifted the blue container", "we met at the harbour"),
        ("a crane flew over the harbour at dawn", None),
        ("she tuned the violin before the lesson", "the lesson was long"),
        ("violin lessons every Tuesday; the violin is old", None),
        ("Crème brûlée at the café near the harbour", "dessert plans"),
        ("the container ship left the harbour harbour harbour", None),
    ]
    records = [make_record(ALICE, content, context=context) for content, context in texts]
    sqlite = SQLiteStore(":memory:")
    for store in (sqlite, pg):
        store.put_many([item(r) for r in records])
    for terms in (["harbour"], ["crane", "violin"], ["harbour crane", "violin lesson"], ["creme", "cafe"], ["lesson"]):
        want = sqlite.keyword_candidates(ALICE, terms, Filter(), now=NOW, limit=10)
        got = pg.keyword_candidates(ALICE, terms, Filter(), now=NOW, limit=10)
        assert [c.id for c in got] == [c.id for c in want], terms
        assert [c.score for c in got] == pytest.approx([c.score for c in want], rel=1e-6), terms
    sqlite.close()
