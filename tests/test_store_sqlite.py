"""The SQLite store against the shared conformance suite, plus what only a file-backed store has."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from store_contract import ALICE, EMB, NOW, StoreContract, item, make_record
from tiermem.errors import ConfigError
from tiermem.store import Store, StoredItem, open_store, sqlite_path
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import Filter, MemoryRecord, Scope


class TestSQLiteStore(StoreContract):
    def make_store(self) -> Store:
        return SQLiteStore(":memory:")


def test_migrations_apply_once_and_survive_reopen(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    store = SQLiteStore(path)
    version = store.schema_version()
    store.put_many([StoredItem(make_record(ALICE, "persisted note"), None)])
    store.close()
    again = SQLiteStore(path)
    assert again.schema_version() == version >= 1
    assert again.count(ALICE) == 1
    again.close()


def test_database_uses_wal(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "w.db")
    assert store.execute("PRAGMA journal_mode")[0][0] == "wal"
    store.close()


def test_fts_rows_match_records_after_writes_and_deletes(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "f.db")
    recs = [make_record(ALICE, f"record {i}") for i in range(5)]
    store.put_many([StoredItem(r, None) for r in recs])
    store.delete(ALICE, [recs[0].id, recs[3].id])
    store.execute("INSERT INTO records_fts(records_fts) VALUES('integrity-check')")
    assert store.execute("SELECT COUNT(*) FROM records")[0][0] == 3
    store.close()


def test_store_urls_follow_the_sqlalchemy_convention(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    open_store("sqlite:///rel.db").close()
    assert (tmp_path / "rel.db").exists()
    open_store(f"sqlite:///{tmp_path / 'abs.db'}").close()
    assert (tmp_path / "abs.db").exists()
    open_store("sqlite:///:memory:").close()
    open_store(tmp_path / "plain.db").close()
    assert (tmp_path / "plain.db").exists()
    for bad in ("mysql://x/y", "sqlite:///"):
        with pytest.raises(ConfigError):
            open_store(bad)
    with pytest.raises(ConfigError, match="PostgreSQL"):  # a server URL is not a file (open_store opens it)
        sqlite_path("postgresql://localhost/db")


def test_small_scope_in_a_big_file_uses_its_own_postings(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "big.db")
    others = [make_record(Scope("acme", f"u{i}"), f"shared words about coffee {i}") for i in range(40)]
    store.put_many([StoredItem(r, None) for r in others])
    mine = make_record(ALICE, "coffee with oat milk")
    store.put_many([StoredItem(mine, None)])
    found = store.keyword_candidates(ALICE, ["coffee"], Filter(), now=NOW, limit=10)
    assert [c.id for c in found] == [mine.id]
    store.close()


def _vector_ids(store: SQLiteStore, scope: Scope, text: str) -> list[str]:
    q = EMB.embed_batch([text])[0]
    return [c.id for c in store.vector_candidates(scope, q, EMB.fingerprint, Filter(), now=NOW, limit=100)]


def test_vector_cache_sees_writes_from_another_connection(tmp_path: Path) -> None:
    a, b = SQLiteStore(tmp_path / "shared.db"), SQLiteStore(tmp_path / "shared.db")
    first = make_record(ALICE, "apple pie")
    a.put_many([item(first)])
    assert _vector_ids(a, ALICE, "apple pie") == [first.id]
    second = make_record(ALICE, "apple tart")
    b.put_many([item(second)])
    b.delete(ALICE, [first.id])
    assert _vector_ids(a, ALICE, "apple") == [second.id]
    a.put_many([item(make_record(ALICE, "apple crumble"))])  # a's stale cache must not be patched in place
    assert len(_vector_ids(a, ALICE, "apple")) == 2
    a.close()
    b.close()


def test_in_place_index_updates_equal_a_fresh_rebuild(tmp_path: Path) -> None:
    rng = random.Random(5)
    live = SQLiteStore(tmp_path / "i.db")
    records: list[MemoryRecord] = []
    for step in range(300):
        action = rng.random()
        if action < 0.6 or not records:
            rec = make_record(ALICE, f"note {step} about {rng.choice(['tea', 'coffee', 'hiking', 'books'])}")
            records.append(rec)
            live.put_many([item(rec)])
        elif action < 0.8:
            victim = records.pop(rng.randrange(len(records)))
            live.delete(ALICE, [victim.id])
        else:
            i = rng.randrange(len(records))
            text = f"changed {step} {rng.choice(['tea', 'rain'])}"
            records[i] = replace(records[i], content=text, content_hash=text, valid_to=NOW + timedelta(days=1))
            live.put_many([item(records[i])])
        if step % 25 == 0:
            _vector_ids(live, ALICE, "tea")  # keeps the cache warm so later writes patch it in place
    fresh = SQLiteStore(tmp_path / "i.db")
    for query in ("tea", "coffee hiking", "changed rain", "books"):
        assert _vector_ids(live, ALICE, query) == _vector_ids(fresh, ALICE, query)
    assert len(_vector_ids(live, ALICE, "tea")) == min(100, len(records))
    live.close()
    fresh.close()


def test_vector_cache_stays_within_its_byte_budget_and_keeps_results(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "c.db", cache_bytes=1)  # smaller than any scope: one scope cached at a time
    scopes = [Scope("acme", f"u{i}") for i in range(3)]
    recs = {s: make_record(s, f"pear tart number {s.user}") for s in scopes}
    store.put_many([item(r) for r in recs.values()])
    for _ in range(2):
        for scope in scopes:
            assert _vector_ids(store, scope, "pear tart") == [recs[scope].id]
            assert list(store._vectors) == [(scope.tenant, scope.user)]
    store.close()


def test_big_scopes_rank_full_text_on_their_rarest_query_words(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiermem.store.sqlite.fts as sqlite_module

    monkeypatch.setattr(sqlite_module, "PRUNE_FROM_RECORDS", 10)
    monkeypatch.setattr(sqlite_module, "POSTINGS_BUDGET", 5)
    store = SQLiteStore(":memory:")
    common = [make_record(ALICE, f"we went walking on day {i}") for i in range(30)]
    rare = make_record(ALICE, "we went to see the narwhals")
    store.put_many([StoredItem(r, None) for r in [*common, rare]])
    # 'went' is in 31 rows, over the budget of 5; 'narwhals' (stemmed 'narwhal') in one: only it is ranked.
    assert store._prune_common_terms(ALICE, ["went", "narwhals"], 31) == ["narwhals"]
    found = store.keyword_candidates(ALICE, ["went", "narwhals"], Filter(), now=NOW, limit=50)
    assert [c.id for c in found] == [rare.id]
    # The rarest word is always kept, even over the budget.
    assert store._prune_common_terms(ALICE, ["went"], 31) == ["went"]
    monkeypatch.setattr(sqlite_module, "PRUNE_FROM_RECORDS", 1000)  # a small scope is never pruned
    assert len(store.keyword_candidates(ALICE, ["went", "narwhals"], Filter(), now=NOW, limit=50)) == 31
    store.close()


def test_pruning_counts_a_phrase_as_the_postings_of_all_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiermem.store.sqlite.fts as sqlite_module

    monkeypatch.setattr(sqlite_module, "PRUNE_FROM_RECORDS", 10)
    monkeypatch.setattr(sqlite_module, "POSTINGS_BUDGET", 5)
    store = SQLiteStore(":memory:")
    common = [make_record(ALICE, f"we went walking on day {i}") for i in range(30)]
    store.put_many([StoredItem(r, None) for r in [*common, make_record(ALICE, "the zebras went home")]])
    # "went zebras" walks the postings of "went" (31 rows) too: over the budget, unlike "zebras" alone.
    assert store._prune_common_terms(ALICE, ["zebras", "went zebras"], 31) == ["zebras"]
    store.close()


def _clustered(n: int, dim: int = 384, seed: int = 3) -> np.ndarray:
    """Unit vectors around 40 centres: neighbours that are near-ties, as real embeddings have."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, dim))
    vecs = centres[rng.integers(0, 40, n)] + 0.6 * rng.standard_normal((n, dim))
    out: np.ndarray = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)
    return out


def _fill_vectors(path: Path, vecs: np.ndarray) -> list[MemoryRecord]:
    store = SQLiteStore(path)
    recs = [make_record(ALICE, f"vector {i}") for i in range(len(vecs))]
    store.put_many([StoredItem(r, v) for r, v in zip(recs, vecs, strict=True)])
    store.close()
    return recs


def _nearest_ids(store: SQLiteStore, query: np.ndarray, limit: int = 10, filter_: Filter | None = None) -> list[str]:
    found = store.vector_candidates(ALICE, query, EMB.fingerprint, filter_ or Filter(), now=NOW, limit=limit)
    return [c.id for c in found]


def test_shortlist_search_keeps_the_exact_nearest_neighbours(tmp_path: Path) -> None:
    vecs = _clustered(3000)
    recs = _fill_vectors(tmp_path / "s.db", vecs)
    exact = SQLiteStore(tmp_path / "s.db", shortlist_from=None)
    short = SQLiteStore(tmp_path / "s.db", shortlist_from=1000, shortlist_size=300)  # 10% of the scope
    # Queries near what is stored (as a question is near its answer), not random directions.
    noise = np.random.default_rng(9).standard_normal((50, vecs.shape[1])).astype(np.float32) * 0.05
    queries = vecs[::60] + noise
    overlap = [len(set(_nearest_ids(exact, q)) & set(_nearest_ids(short, q))) / 10 for q in queries]
    assert sum(overlap) / len(overlap) >= 0.95
    # A stored vector always finds itself first, and the scores are exact cosines.
    for i in (0, 1234, 2999):
        found = short.vector_candidates(ALICE, vecs[i], EMB.fingerprint, Filter(), now=NOW, limit=3)
        assert found[0].id == recs[i].id and found[0].score == pytest.approx(1.0, abs=1e-5)
    exact.close()
    short.close()


def test_batched_neighbour_lookup_keeps_each_vectors_nearest_through_its_own_shortlist(tmp_path: Path) -> None:
    vecs = _clustered(3000)
    recs = _fill_vectors(tmp_path / "n.db", vecs)
    exact = SQLiteStore(tmp_path / "n.db", shortlist_from=None)
    short = SQLiteStore(tmp_path / "n.db", shortlist_from=1000, neighbour_shortlist=160)  # 32 per result
    noise = np.random.default_rng(4).standard_normal((40, vecs.shape[1])).astype(np.float32) * 0.05
    queries = vecs[::75] + noise
    found = short.vector_candidates_many(ALICE, queries, EMB.fingerprint, Filter(), now=NOW, limit=5)
    truth = exact.vector_candidates_many(ALICE, queries, EMB.fingerprint, Filter(), now=NOW, limit=5)
    overlap = [len({c.id for c in f} & {c.id for c in t}) / 5 for f, t in zip(found, truth, strict=True)]
    assert sum(overlap) / len(overlap) >= 0.9
    # The near neighbour a duplicate check is after (the vector the query was made from) is never lost.
    assert all(f[0].id == recs[i * 75].id for i, f in enumerate(found))
    exact.close()
    short.close()


def test_shortlist_search_never_returns_deleted_expired_or_filtered_rows(tmp_path: Path) -> None:
    vecs = _clustered(3000)
    recs = _fill_vectors(tmp_path / "f.db", vecs)
    store = SQLiteStore(tmp_path / "f.db", shortlist_from=1000, shortlist_size=300)
    target = vecs[7]
    first = _nearest_ids(store, target, limit=20)
    store.delete(ALICE, [recs[7].id])
    expired = next(r for r in recs if r.id == first[1])
    store.put_many([StoredItem(replace(expired, expires_at=NOW - timedelta(days=1)), None, keep_vector=True)])
    after = _nearest_ids(store, target, limit=20)
    assert recs[7].id not in after and expired.id not in after and len(after) == 20
    # A stored vector's code follows an in-place overwrite of its vector.
    moved = recs[100]
    store.put_many([StoredItem(moved, vecs[2500] * -1.0)])
    assert _nearest_ids(store, vecs[2500] * -1.0, limit=1) == [moved.id]
    store.close()


def test_full_text_finds_a_scopes_matches_behind_better_ones_of_other_scopes() -> None:
    store = SQLiteStore(":memory:")
    bob = Scope("acme", "bob")
    # Bob's 300 short notes outrank Alice's long ones on 'walrus'; Alice's scope is too big for its scope token.
    store.put_many([item(make_record(bob, f"walrus {i}")) for i in range(300)])
    alice_recs = [
        make_record(ALICE, f"a long note that mentions a walrus once among many other words {i}") for i in range(120)
    ]
    store.put_many([item(r) for r in alice_recs])
    found = store.keyword_candidates(ALICE, ["walrus"], Filter(), now=NOW, limit=50)
    assert len(found) == 50 and {c.id for c in found} <= {r.id for r in alice_recs}
    # The same holds when a filter removes most of what the index ranks first.
    hidden = {r.id for r in alice_recs[:100]}
    store.put_many([item(replace(r, expires_at=NOW - timedelta(days=1))) for r in alice_recs[:100]])
    left = store.keyword_candidates(ALICE, ["walrus"], Filter(), now=NOW, limit=50)
    assert len(left) == 20 and not {c.id for c in left} & hidden
    store.close()


def test_word_counts_for_pruning_are_reread_once_the_table_grows_by_a_tenth() -> None:
    store = SQLiteStore(":memory:")
    store.put_many([item(make_record(ALICE, f"otter note {i}")) for i in range(20)])
    assert store._document_counts(ALICE, ["otter"], 20) == {"otter": 20}
    store.put_many([item(make_record(ALICE, f"otter again {i}")) for i in range(2)])
    assert store._document_counts(ALICE, ["otter"], 22) == {"otter": 20}  # within a tenth: the cached count
    store.put_many([item(make_record(ALICE, f"otter more {i}")) for i in range(8)])
    assert store._document_counts(ALICE, ["otter"], 30) == {"otter": 30}
    store.close()


def test_vector_cache_keeps_its_byte_total_equal_to_its_entries_through_writes(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    scopes = [Scope("acme", f"u{i}") for i in range(4)]
    for round_ in range(3):
        for scope in scopes:
            store.put_many([item(make_record(scope, f"kiwi {round_} {j}")) for j in range(40)])  # grows in place
            _vector_ids(store, scope, "kiwi")
            assert store._vectors.total == sum(v.nbytes for v in store._vectors.values())
    store.drop_cached_vectors("acme", "u0")
    assert store._vectors.total == sum(v.nbytes for v in store._vectors.values())
    store.close()


def test_passages_survive_a_reopen_and_count_in_a_shortlisted_search(tmp_path: Path) -> None:
    vecs = _clustered(1500)
    _fill_vectors(tmp_path / "p.db", vecs)
    noise = np.random.default_rng(5).standard_normal(vecs.shape[1]).astype(np.float32)
    query = vecs[5] + 0.3 * noise * np.linalg.norm(vecs[5]) / np.linalg.norm(noise)
    query /= np.linalg.norm(query)
    # A record whose own vector is vecs[5] (near the query, so shortlisted) and one of whose passages is the query.
    near = make_record(ALICE, "close by. and one sentence matches exactly.")
    store = SQLiteStore(tmp_path / "p.db")
    store.put_many([StoredItem(near, vecs[5], passages=np.stack([vecs[10], query]))])
    store.close()
    exact = SQLiteStore(tmp_path / "p.db")
    short = SQLiteStore(tmp_path / "p.db", shortlist_from=1000, shortlist_size=100)
    for store in (exact, short):
        found = store.vector_candidates(ALICE, query, EMB.fingerprint, Filter(), now=NOW, limit=3)
        assert found[0].id == near.id and found[0].score == pytest.approx(1.0, abs=1e-5)
        assert found[1].score < 0.99
        assert np.allclose(store.vectors_of(ALICE, [near.id])[near.id], vecs[5])
        store.close()


def test_successors_are_found_through_the_supersedes_index_not_the_whole_scope(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "chains.db")
    olds = [make_record(ALICE, f"the shed key is in drawer {i}") for i in range(300)]
    news = [make_record(ALICE, f"the shed key moved to box {i}", supersedes=r.id) for i, r in enumerate(olds)]
    store.put_many([item(r) for r in olds + news])
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    assert [s.id for s in store.successors(ALICE, [olds[7].id])[olds[7].id]] == [news[7].id]
    store._conn.set_trace_callback(None)
    (query,) = [s for s in statements if "supersedes IN" in s]
    plan = " ".join(row[3] for row in store._conn.execute("EXPLAIN QUERY PLAN " + query))
    assert "records_supersedes" in plan
    store.close()


def test_a_users_newest_records_are_read_from_an_index_not_sorted(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "n.db")
    store.put_many([StoredItem(make_record(ALICE, f"note {i}"), None) for i in range(20)])
    executed: list[str] = []
    store._conn.set_trace_callback(executed.append)  # the statement list_records runs, its values bound
    page = store.list_records(ALICE, Filter(), now=NOW, limit=1, cursor=None)
    store._conn.set_trace_callback(None)
    assert [r.content for r in page.records] == ["note 19"]
    (listing,) = [sql for sql in executed if "ORDER BY r.rowid DESC" in sql]
    plan = " ".join(str(row[-1]) for row in store.execute("EXPLAIN QUERY PLAN " + listing))
    # A sort would read every record of the user on each call: the write path asks this before each transcript line.
    assert "TEMP B-TREE" not in plan and "records_newest" in plan
    store.close()


def test_write_places_count_the_records_between_through_an_index(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "w.db")
    records = [make_record(ALICE, f"note {i}") for i in range(40)]
    for record in records:
        store.put_many([StoredItem(record, None)])
    executed: list[str] = []
    store._conn.set_trace_callback(executed.append)  # the statements write_places runs, their values bound
    found = store.write_places(ALICE, [records[0].id, records[39].id], 5)
    store._conn.set_trace_callback(None)
    assert found[records[39].id] - found[records[0].id] > 5
    (counting,) = [sql for sql in executed if "count(*)" in sql]
    plan = " ".join(str(row[-1]) for row in store.execute("EXPLAIN QUERY PLAN " + counting))
    # Recall asks this on each question: counting may read a window's worth of one user's index, never the table.
    assert "COVERING INDEX records_newest" in plan and "SCAN records" not in plan
    store.close()


def test_write_places_read_from_held_rows_equal_the_counted_ones(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "w.db")
    other = Scope(ALICE.tenant, "someone-else")
    rng = random.Random(7)
    records = []
    for i in range(60):  # another user's records between Alice's, in bursts longer and shorter than the window
        store.put_many([StoredItem(make_record(other, f"aside {i}"), None) for _ in range(rng.choice([0, 0, 1, 9]))])
        records.append(make_record(ALICE, f"note {i} harbour"))
        store.put_many([StoredItem(records[-1], None)])
    asked = [r.id for r in rng.sample(records, 25)] + [records[3].id, "no-such-id"]
    counted = store.write_places(ALICE, asked, 3)
    for _ in range(3):  # recall's keyword queries: from the third on the scope's rows are held
        store.keyword_candidates(ALICE, ["harbour"], Filter(), now=NOW, limit=5)
    executed: list[str] = []
    store._conn.set_trace_callback(executed.append)
    held = store.write_places(ALICE, asked, 3)
    store._conn.set_trace_callback(None)
    assert held == counted and set(held) == set(asked) - {"no-such-id"}
    assert not [sql for sql in executed if "count(*)" in sql]  # read from the held rows, not counted again
    store.close()
