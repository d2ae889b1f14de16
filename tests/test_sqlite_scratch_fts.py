"""A small scope's keyword scores equal those read from the whole file, whichever way its rows are read."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from store_fixtures import ANY, NOW, item, make_record
from tiermem.store import fulltext
from tiermem.store.sqlite import SQLiteStore, phrase_frequencies, term_rows
from tiermem.store.sqlite.fts_syntax import fts_query
from tiermem.store.sqlite.scope_text import read_scope_text
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
        monkeypatch.setattr(phrase_frequencies, "SCRATCH_ROWS_UP_TO", 0)  # the table-wide read-back, as before
        whole = _scores(store)
    finally:
        store.close()
    assert all(scratch), "every query matches in the small scope"
    assert scratch == whole  # the same records, the same doubles


def test_a_minor_scope_matching_more_rows_than_a_scratch_table_takes_learns_from_its_row_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path)
    key = (SMALL.tenant, SMALL.user)
    conn = store._conn
    terms = ["river", "stone garden", "violin"]

    def learn(counts: dict[str, int]) -> dict[str, term_rows.TermRows] | None:
        (gen,) = conn.execute("SELECT gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key).fetchone()
        return term_rows.learn_terms(
            conn,
            key,
            gen,
            read_scope_text(conn, key),
            terms,
            lambda ts, token: fts_query(SMALL, ts, with_scope_token=token),
            phrase_frequencies.BM25_WEIGHTS,
            counts,
        )

    try:
        monkeypatch.setattr(term_rows, "SCRATCH_FROM_FILE_SHARE", 2)  # the small scope (a tenth): a minor part
        monkeypatch.setattr(term_rows, "SCRATCH_ROWS_UP_TO", 3)  # its matching rows: too many for a scratch table
        minor_counts: dict[str, int] = {}
        minor = learn(minor_counts)
        monkeypatch.setattr(term_rows, "SCRATCH_FROM_FILE_SHARE", 10**9)  # the range way, as for a major part
        ranged_counts: dict[str, int] = {}
        ranged = learn(ranged_counts)
    finally:
        store.close()
    assert minor is not None and ranged is not None
    assert list(minor) == list(ranged) == terms
    assert term_rows.union([ranged[t][0] for t in terms]).size > 3
    for term in terms:
        np.testing.assert_array_equal(minor[term][0], ranged[term][0])
        np.testing.assert_array_equal(minor[term][1], ranged[term][1])
    assert minor_counts == ranged_counts


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
