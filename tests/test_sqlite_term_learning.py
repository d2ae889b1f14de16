"""How a pinned keyword query learns its new words from the index: the fewest rows read, the same scores."""

from __future__ import annotations

from pathlib import Path

from store_fixtures import ALICE, ANY, BOB, NOW, item, make_record
from tiermem.store.sqlite.fts import HOLD_ROWS_FROM
from tiermem.store.sqlite.store import SQLiteStore
from tiermem.types import Scope

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
