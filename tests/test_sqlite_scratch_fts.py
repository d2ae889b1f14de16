"""A small scope's keyword scores equal those read from the whole file, whichever way its rows are read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from store_fixtures import ANY, NOW, item, make_record
from tiermem.store import fulltext
from tiermem.store.sqlite import SQLiteStore, fts
from tiermem.types import Scope

WORDS = "river stone lamp garden ticket piano winter harbour letter window bread violin café naïve 東京都庁".split()
SMALL = Scope("t", "small")
QUERIES = [["river"], ["lamp", "piano"], ["stone garden"], ["winter", "harbour letter", "café"], ["naive", "京都"]]


def _store(tmp_path: Path) -> SQLiteStore:
    rng = random.Random(5)
    store = SQLiteStore(tmp_path / "m.db")

    def text() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14)))

    records = [make_record(SMALL, text(), context=text() if i % 3 == 0 else None) for i in range(40)]
    records += [make_record(Scope("t", f"u{i % 20}"), text()) for i in range(400)]  # the small scope: a tenth
    store.put_many([item(r) for r in records])
    return store


def _scores(store: SQLiteStore) -> list[list[tuple[str, float]]]:
    return [[(c.id, c.score) for c in store.keyword_candidates(SMALL, q, ANY, now=NOW, limit=50)] for q in QUERIES]


def test_small_scope_keyword_scores_equal_those_read_from_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path)
    try:
        scratch = _scores(store)
        monkeypatch.setattr(fts, "SCRATCH_ROWS_UP_TO", 0)  # the table-wide read-back, as before
        whole = _scores(store)
    finally:
        store.close()
    assert all(scratch), "every query matches in the small scope"
    assert scratch == whole  # the same records, the same doubles


def test_small_scope_keyword_query_walks_no_other_scope_postings(tmp_path: Path) -> None:
    store = _store(tmp_path)
    seen: list[str] = []
    store._conn.set_trace_callback(seen.append)
    try:
        _scores(store)
    finally:
        store._conn.set_trace_callback(None)
        store.close()
    unscoped = [s for s in seen if "records_fts MATCH" in s and "scope_tok" not in s]
    assert any("scope_tok" in s for s in seen if "records_fts MATCH" in s)
    assert unscoped == []


def test_scratch_table_is_empty_after_a_query(tmp_path: Path) -> None:
    store = _store(tmp_path)
    try:
        _scores(store)
        left = store.execute("SELECT count(*) FROM temp.tiermem_scratch_fts_docsize")[0][0]
    finally:
        store.close()
    assert left == 0


def test_shared_tokenizer_is_the_index_tokenizer(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    try:
        (definition,) = store.execute("SELECT sql FROM sqlite_master WHERE name = 'records_fts'")[0]
    finally:
        store.close()
    assert f"'{fulltext.TOKENIZE}'" in definition
