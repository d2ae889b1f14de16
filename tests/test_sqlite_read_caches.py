"""The SQLite store's read caches (records, term frequencies) give what the file holds, however it changed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from store_fixtures import ALICE, ANY, BOB, EMB, NOW, item, make_record
from tiermem.store.sqlite.fts import HOLD_ROWS_FROM
from tiermem.store.sqlite.sql import TAG_SETS_KEPT
from tiermem.store.sqlite.store import SQLiteStore
from tiermem.types import Filter, MemoryType, Scope, including_closed

WORDS = "kettle lantern harbour violin garden pepper ladder".split()


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[SQLiteStore, SQLiteStore]]:
    """Two stores on one file, as two processes would hold it."""
    first, second = SQLiteStore(tmp_path / "m.db"), SQLiteStore(tmp_path / "m.db")
    yield first, second
    first.close()
    second.close()


def _fill(store: SQLiteStore, scope: Scope, n: int) -> list[str]:
    texts = [f"{WORDS[i % 7]} {WORDS[(i * 3) % 7]} note {i} {WORDS[(i * 5 + 1) % 7]}" for i in range(n)]
    records = [make_record(scope, text) for text in texts]
    store.put_many([item(r) for r in records])
    return [r.id for r in records]


def _scored(store: SQLiteStore, scope: Scope, terms: list[str]) -> list[tuple[str, float]]:
    return [(c.id, c.score) for c in store.keyword_candidates(scope, terms, ANY, now=NOW, limit=50)]


def _scored_afresh(store: SQLiteStore, scope: Scope, terms: list[str]) -> list[tuple[str, float]]:
    """``_scored`` on a new connection to the store's file: nothing cached."""
    fresh = SQLiteStore(store.path)
    try:
        return _scored(fresh, scope, terms)
    finally:
        fresh.close()


def test_get_many_sees_a_change_another_connection_made(two: tuple[SQLiteStore, SQLiteStore]) -> None:
    first, second = two
    record = make_record(ALICE, "the kettle is blue")
    first.put_many([item(record)])
    assert first.get_many(ALICE, [record.id])[record.id].content == "the kettle is blue"
    second.put_many([item(replace(record, content="the kettle is red", version=2))])
    assert first.get_many(ALICE, [record.id])[record.id].content == "the kettle is red"
    second.delete(ALICE, [record.id])
    assert first.get_many(ALICE, [record.id]) == {}


def test_get_many_orders_by_id_whether_cached_or_read(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        ids = _fill(store, ALICE, 40)
        asked = ids[::-3] + ids[5:9]
        cold = list(store.get_many(ALICE, asked))
        assert cold == sorted(set(asked))
        assert list(store.get_many(ALICE, list(reversed(asked)))) == cold  # served from the cache
        assert store.get_many(BOB, asked) == {}  # another user's ids stay out, cached or not
    finally:
        store.close()


def test_get_many_keeps_a_narrower_scope_to_its_agent(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        mine = make_record(Scope("acme", "alice", "planner"), "the planner's note")
        theirs = make_record(Scope("acme", "alice", "writer"), "the writer's note")
        store.put_many([item(mine), item(theirs)])
        assert set(store.get_many(ALICE, [mine.id, theirs.id])) == {mine.id, theirs.id}  # fills the cache
        assert list(store.get_many(Scope("acme", "alice", "planner"), [mine.id, theirs.id])) == [mine.id]
    finally:
        store.close()


def test_keyword_scores_with_warm_term_cache_equal_a_fresh_stores(tmp_path: Path) -> None:
    warm = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(warm, ALICE, 60)
        _fill(warm, BOB, 30)  # another scope's rows share the index
        queries = [["kettle", "lantern"], ["lantern"], ["kettle lantern", "lantern harbour"], ["pepper", "kettle"]]
        for terms in queries * 2:
            fresh = SQLiteStore(tmp_path / "m.db")
            try:
                assert _scored(warm, ALICE, terms) == _scored(fresh, ALICE, terms)
            finally:
                fresh.close()
    finally:
        warm.close()


def test_keyword_scores_follow_rows_another_connection_added(two: tuple[SQLiteStore, SQLiteStore]) -> None:
    first, second = two
    _fill(first, ALICE, 20)
    before = _scored(first, ALICE, ["violin", "garden"])
    added = make_record(ALICE, "violin violin garden")
    second.put_many([item(added)])
    after = _scored(first, ALICE, ["violin", "garden"])
    assert after != before and after[0][0] == added.id
    assert after == _scored_afresh(first, ALICE, ["violin", "garden"])


def test_keyword_scores_follow_a_row_another_connection_rewrote(two: tuple[SQLiteStore, SQLiteStore]) -> None:
    first, second = two
    _fill(first, ALICE, 20)
    record = make_record(ALICE, "violin garden")
    first.put_many([item(record)])
    for _ in range(HOLD_ROWS_FROM):  # the scope's rows (and lengths) are held from here on
        before = _scored(first, ALICE, ["violin", "garden"])
    longer = replace(record, content="violin garden " + " ".join(["lantern"] * 30), version=2)
    second.put_many([item(longer)])
    after = _scored(first, ALICE, ["violin", "garden"])
    assert dict(after)[record.id] < dict(before)[record.id]  # a longer row scores lower
    assert after == _scored_afresh(first, ALICE, ["violin", "garden"])


def test_keyword_candidates_from_held_rows_equal_the_files(two: tuple[SQLiteStore, SQLiteStore]) -> None:
    first, second = two
    _fill(first, ALICE, 30)
    _fill(first, BOB, 30)  # another scope's rows match too
    closed = make_record(ALICE, "kettle lantern closed", valid_to=NOW - timedelta(days=1))
    expired = make_record(ALICE, "kettle lantern expired", expires_at=NOW - timedelta(hours=1))
    later = make_record(ALICE, "kettle lantern expires later", expires_at=NOW + timedelta(hours=1))
    first.put_many([item(closed), item(expired), item(later)])
    filters = [ANY, including_closed(ANY), Filter(types=frozenset({MemoryType.SEMANTIC}))]
    asked = [
        [(c.id, c.score) for c in second.keyword_candidates(ALICE, ["kettle"], f, now=NOW, limit=50)] for f in filters
    ]
    for _ in range(HOLD_ROWS_FROM + 1):
        for f, expected in zip(filters, asked, strict=True):
            assert [
                (c.id, c.score) for c in first.keyword_candidates(ALICE, ["kettle"], f, now=NOW, limit=50)
            ] == expected
    assert {closed.id, expired.id}.isdisjoint(c for c, _ in asked[0]) and later.id in dict(asked[0])
    assert closed.id in dict(asked[1]) and expired.id not in dict(asked[1])
    added = make_record(ALICE, "kettle kettle")
    second.put_many([item(added)])  # another connection moves the scope on: the held rows are read again
    assert first.keyword_candidates(ALICE, ["kettle"], ANY, now=NOW, limit=50)[0].id == added.id


def test_vectors_of_sees_a_vector_another_connection_replaced(two: tuple[SQLiteStore, SQLiteStore]) -> None:
    first, second = two
    record = make_record(ALICE, "the lantern is lit")
    first.put_many([item(record)])
    before = first.vectors_of(ALICE, [record.id])[record.id]
    changed = replace(record, content="the violin is tuned", version=2)
    second.put_many([item(changed)])
    after = first.vectors_of(ALICE, [record.id])[record.id]
    assert np.array_equal(after, item(changed).vector) and not np.array_equal(after, before)
    with pytest.raises(ValueError):
        after[0] = 1.0  # one array is handed to every caller: none may change it


def _tagged_ids(store: SQLiteStore, tag: str) -> set[str]:
    vector = EMB.embed_batch(["kettle"])[0]
    found = store.vector_candidates(ALICE, vector, EMB.fingerprint, Filter(tags=frozenset({tag})), now=NOW, limit=50)
    return {c.id for c in found}


def test_a_tag_filters_rows_are_read_again_after_any_write(two: tuple[SQLiteStore, SQLiteStore]) -> None:
    first, second = two
    kept = make_record(ALICE, "the kettle is blue", tags=("ns:a",))
    other = make_record(ALICE, "the kettle is red", tags=("ns:b",))
    first.put_many([item(kept), item(other)])
    assert _tagged_ids(first, "ns:a") == {kept.id}  # read and kept for this generation
    moved = replace(other, tags=("ns:a",), version=2)
    first.put_many([item(moved)])  # this connection's own write
    assert _tagged_ids(first, "ns:a") == {kept.id, other.id}
    second.put_many([item(replace(moved, tags=("ns:b",), version=3))])  # another connection's
    assert _tagged_ids(first, "ns:a") == {kept.id}
    second.delete(ALICE, [kept.id])
    assert _tagged_ids(first, "ns:a") == set()


def _tagged_keyword(store: SQLiteStore, tags: set[str]) -> list[tuple[str, float]]:
    found = store.keyword_candidates(ALICE, ["kettle"], Filter(tags=frozenset(tags)), now=NOW, limit=50)
    return [(c.id, c.score) for c in found]


def test_keyword_candidates_with_a_tag_filter_from_held_rows_follow_every_write(
    two: tuple[SQLiteStore, SQLiteStore],
) -> None:
    first, second = two
    _fill(first, ALICE, 30)
    kept = make_record(ALICE, "the kettle is blue", tags=("ns:a",))
    other = make_record(ALICE, "the kettle is red", tags=("ns:b",))
    both = make_record(ALICE, "kettle and lantern", tags=("ns:a", "ns:b"))
    first.put_many([item(kept), item(other), item(both)])
    expected = {tags: _tagged_keyword(second, set(tags)) for tags in (("ns:a",), ("ns:b",), ("ns:a", "ns:b"))}
    for _ in range(HOLD_ROWS_FROM + 1):  # from the file, then from the held rows and their tag sets
        for tags, want in expected.items():
            assert _tagged_keyword(first, set(tags)) == want
    assert {c for c, _ in expected[("ns:a",)]} == {kept.id, both.id}
    first.put_many([item(replace(other, tags=("ns:a",), version=2))])  # this connection's own write
    assert {c for c, _ in _tagged_keyword(first, {"ns:a"})} == {kept.id, both.id, other.id}
    second.put_many([item(replace(other, tags=("ns:b",), version=3))])  # another connection's
    assert {c for c, _ in _tagged_keyword(first, {"ns:a"})} == {kept.id, both.id}
    second.delete(ALICE, [kept.id])
    assert {c for c, _ in _tagged_keyword(first, {"ns:a"})} == {both.id}


def test_the_tag_sets_kept_for_a_scope_stay_bounded_without_a_write(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(store, ALICE, HOLD_ROWS_FROM + 5)
        kept = make_record(ALICE, "the kettle is blue", tags=("ns:a",))
        store.put_many([item(kept)])
        for _ in range(HOLD_ROWS_FROM + 1):  # until the keyword query holds the scope's rows
            _tagged_keyword(store, {"ns:a"})
        for i in range(TAG_SETS_KEPT * 2):  # ever new tag sets, and no write to move the generation
            assert _tagged_ids(store, f"ns:x{i}") == set()
            assert _tagged_keyword(store, {f"ns:x{i}"}) == []
        index = store._scope_vectors(ALICE)
        held = store._held_rows[(ALICE.tenant, ALICE.user or "")][1]
        assert not isinstance(held, int)  # the rows are held, not just counted
        assert 0 < len(index.tagged) <= TAG_SETS_KEPT and 0 < len(held.tagged) <= TAG_SETS_KEPT
        assert _tagged_ids(store, "ns:a") == {kept.id} and [c for c, _ in _tagged_keyword(store, {"ns:a"})] == [kept.id]
    finally:
        store.close()


def test_a_keyword_query_with_new_words_asks_the_index_for_those_words_alone(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(store, ALICE, 40)
        _fill(store, BOB, 20)  # another scope's rows hold the same words
        for _ in range(HOLD_ROWS_FROM + 1):  # the scope's rows held, the word's rows kept
            with store.pinned(ALICE):
                _scored(store, ALICE, ["kettle"])
        asked: list[str] = []
        store._conn.set_trace_callback(asked.append)
        queries = [["kettle", "violin"], ["kettle violin", "garden"], ["kettle", "nowhere"], ["violin", "garden"]]
        for terms in queries:
            with store.pinned(ALICE):
                found = _scored(store, ALICE, terms)
            assert found == _scored_afresh(store, ALICE, terms)
        store._conn.set_trace_callback(None)
        matched = [sql for sql in asked if "MATCH" in sql]
        # One statement for each word not kept yet (violin, garden, nowhere), none for a kept one, nor for a phrase
        # of two kept words no row holds both of ("kettle violin").
        assert len(matched) == 3 and not any(" OR " in sql for sql in matched)
    finally:
        store.close()


def test_a_minor_scope_asks_the_index_for_its_new_words_alone(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        for _ in range(3):  # the scope's rows spread among another's: its token narrows the index's answers
            _fill(store, ALICE, 4)
            _fill(store, BOB, 30)
        for _ in range(HOLD_ROWS_FROM + 1):
            with store.pinned(ALICE):
                _scored(store, ALICE, ["kettle"])
        asked: list[str] = []
        store._conn.set_trace_callback(asked.append)
        for terms in (["kettle", "violin"], ["kettle", "garden", "nowhere"], ["violin", "kettle lantern"]):
            with store.pinned(ALICE):
                found = _scored(store, ALICE, terms)
            assert found == _scored_afresh(store, ALICE, terms)
        store._conn.set_trace_callback(None)
        matched = [sql for sql in asked if "records_fts MATCH" in sql]
        assert matched and not any('"kettle"' in sql for sql in matched)  # the kept word is never asked again
    finally:
        store.close()
