"""What a pinned recall reads of the SQLite store: a keyword query's new words, with the fewest rows read and the
same scores, and stored vectors from the in-memory index."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from store_fixtures import ALICE, ANY, BOB, EMB, NOW, item, make_record
from tiermem.store.base import StoredItem
from tiermem.store.sqlite.fts import HOLD_ROWS_FROM
from tiermem.store.sqlite.store import SQLiteStore
from tiermem.types import Filter, Scope

WORDS = "kettle lantern harbour violin garden pepper ladder".split()


def _fill(store: SQLiteStore, scope: Scope, n: int) -> None:
    texts = [f"{WORDS[i % 7]} {WORDS[(i * 3) % 7]} note {i} {WORDS[(i * 5 + 1) % 7]}" for i in range(n)]
    store.put_many([item(make_record(scope, text)) for text in texts])


def _scored(store: SQLiteStore, scope: Scope, terms: list[str]) -> list[tuple[str, float]]:
    with store.pinned(scope):
        return [(c.id, c.score) for c in store.keyword_candidates(scope, terms, ANY, now=NOW, limit=50)]


def _scored_afresh(store: SQLiteStore, scope: Scope, terms: list[str]) -> list[tuple[str, float]]:
    fresh = SQLiteStore(store.path)
    try:
        with fresh.pinned(scope):
            return [(c.id, c.score) for c in fresh.keyword_candidates(scope, terms, ANY, now=NOW, limit=50)]
    finally:
        fresh.close()


def _asked(store: SQLiteStore, scope: Scope, queries: list[list[str]]) -> list[str]:
    """The full-text statements the queries sent, each query's scores checked against a fresh store's."""
    for _ in range(HOLD_ROWS_FROM + 1):  # the scope's rows held, the first word's rows kept
        _scored(store, scope, queries[0][:1])
    asked: list[str] = []
    store._conn.set_trace_callback(asked.append)
    try:
        for terms in queries:
            assert _scored(store, scope, terms) == _scored_afresh(store, scope, terms)
    finally:
        store._conn.set_trace_callback(None)
    return [sql for sql in asked if "records_fts MATCH" in sql]


def test_a_phrase_of_two_kept_words_no_row_holds_both_asks_the_index_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(store, ALICE, 40)
        # No row holds both kettle and violin (the fill's word pattern); garden and kettle share rows.
        asked = _asked(store, ALICE, [["kettle"], ["violin", "garden"], ["kettle violin", "garden kettle"]])
        assert not any('"kettle violin"' in sql for sql in asked)
        assert any('"garden kettle"' in sql for sql in asked)
    finally:
        store.close()


def test_a_phrase_whose_words_a_write_brings_together_is_found(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(store, ALICE, 40)
        _asked(store, ALICE, [["kettle"], ["violin"], ["kettle violin"]])
        store.put_many([item(make_record(ALICE, "a kettle violin duet"))])
        found = _scored(store, ALICE, ["kettle violin"])
        assert len(found) == 1 and found == _scored_afresh(store, ALICE, ["kettle violin"])
    finally:
        store.close()


def test_a_scope_whose_rows_lie_together_scores_only_rows_between_its_first_and_last(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(store, BOB, 80)  # written first: another scope's rows holding the same words
        _fill(store, ALICE, 12)
        _fill(store, Scope("t", "carol"), 30)
        asked = _asked(store, ALICE, [["kettle"], ["violin", "garden"], ["lantern harbour", "nowhere"]])
        assert asked and all("rowid BETWEEN" in sql and "scope_tok" not in sql for sql in asked)
    finally:
        store.close()


def test_a_scope_spread_among_other_scopes_rows_learns_its_words_in_a_scratch_table(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        for _ in range(3):  # each of its rows among many of another scope's
            _fill(store, ALICE, 4)
            _fill(store, BOB, 30)
        asked = _asked(store, ALICE, [["kettle"], ["violin", "garden"], ["lantern harbour", "nowhere"]])
        assert asked and all("scope_tok" in sql for sql in asked)
    finally:
        store.close()


def test_pinned_vectors_come_from_the_index_and_follow_a_write(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        records = [make_record(ALICE, f"{word} note") for word in WORDS]
        store.put_many([item(r) for r in records])
        ids = [r.id for r in records[:3]]
        with store.pinned(ALICE):
            store.vector_candidates(ALICE, EMB.embed_batch(["kettle"])[0], EMB.fingerprint, ANY, now=NOW, limit=5)
            seen: list[str] = []
            store._conn.set_trace_callback(seen.append)
            held = store.vectors_of(ALICE, ids)
            store._conn.set_trace_callback(None)
        assert not any("FROM vectors" in sql or "JOIN vectors" in sql for sql in seen)  # read from the index
        fresh = SQLiteStore(store.path)
        try:
            assert list(held) == sorted(ids) and all((held[i] == fresh.vectors_of(ALICE, [i])[i]).all() for i in ids)
        finally:
            fresh.close()
        changed = replace(records[0], content="a violin now", version=2)
        store.put_many([StoredItem(changed, EMB.embed_batch(["a violin now"])[0])])
        with store.pinned(ALICE):
            after = store.vectors_of(ALICE, [changed.id])[changed.id]
        assert (after == EMB.embed_batch(["a violin now"])[0]).all() and not (after == held[changed.id]).all()
    finally:
        store.close()


def _tagged(store: SQLiteStore, terms: list[str], tags: set[str]) -> list[tuple[str, float]]:
    with store.pinned(ALICE):
        found = store.keyword_candidates(ALICE, terms, Filter(tags=frozenset(tags)), now=NOW, limit=50)
    return [(c.id, c.score) for c in found]


def _tagged_afresh(store: SQLiteStore, terms: list[str], tags: set[str]) -> list[tuple[str, float]]:
    fresh = SQLiteStore(store.path)
    try:
        return _tagged(fresh, terms, tags)
    finally:
        fresh.close()


def test_a_pinned_keyword_query_with_a_tag_filter_reads_held_rows_and_equals_a_fresh_stores(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(store, ALICE, 30)
        tagged = [make_record(ALICE, f"the {w} in the shed", tags=("ns:a",)) for w in WORDS[:4]]
        store.put_many([item(r) for r in [*tagged, make_record(ALICE, "the kettle in the shed", tags=("ns:b",))]])
        for _ in range(HOLD_ROWS_FROM + 1):  # the scope's rows held, the words and the tag set's rows kept
            _tagged(store, ["kettle", "shed"], {"ns:a"})
        asked: list[str] = []
        store._conn.set_trace_callback(asked.append)
        try:
            found = _tagged(store, ["kettle", "shed"], {"ns:a"})
        finally:
            store._conn.set_trace_callback(None)
        assert not any("records_fts MATCH" in sql or "tags" in sql for sql in asked)  # nothing asked of the file
        assert found == _tagged_afresh(store, ["kettle", "shed"], {"ns:a"})
        assert {i for i, _ in found} == {r.id for r in tagged}
    finally:
        store.close()


def test_a_pinned_keyword_query_with_a_tag_filter_follows_a_write_of_either_connection(tmp_path: Path) -> None:
    first, second = SQLiteStore(tmp_path / "m.db"), SQLiteStore(tmp_path / "m.db")
    try:
        _fill(first, ALICE, 30)
        kept = make_record(ALICE, "the kettle is blue", tags=("ns:a",))
        other = make_record(ALICE, "the kettle is red", tags=("ns:b",))
        first.put_many([item(kept), item(other)])
        for _ in range(HOLD_ROWS_FROM + 1):
            assert {i for i, _ in _tagged(first, ["kettle"], {"ns:a"})} == {kept.id}
        first.put_many([item(replace(other, tags=("ns:a",), version=2))])  # this connection's own write
        assert {i for i, _ in _tagged(first, ["kettle"], {"ns:a"})} == {kept.id, other.id}
        for _ in range(HOLD_ROWS_FROM + 1):
            _tagged(first, ["kettle"], {"ns:a"})
        second.put_many([item(replace(other, tags=("ns:b",), version=3))])  # another connection's
        assert _tagged(first, ["kettle"], {"ns:a"}) == _tagged_afresh(first, ["kettle"], {"ns:a"})
        assert {i for i, _ in _tagged(first, ["kettle"], {"ns:a"})} == {kept.id}
        second.delete(ALICE, [kept.id])
        assert _tagged(first, ["kettle"], {"ns:a"}) == []
    finally:
        first.close()
        second.close()
