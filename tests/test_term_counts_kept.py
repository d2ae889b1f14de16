"""The SQLite store keeps a scope's word counts for relevance until the scope changes."""

from __future__ import annotations

from pathlib import Path

from store_fixtures import ALICE, ANY, BOB, NOW, item, make_record
from tiermem.embed import HashingEmbedder
from tiermem.memory import Memory
from tiermem.store.base import TermStatistics
from tiermem.store.sqlite.fts import HOLD_ROWS_FROM
from tiermem.store.sqlite.store import SQLiteStore
from tiermem.types import Scope

SCOPE = Scope("t", "u")


def _counts(memory: Memory, scope: Scope, terms: list[str]) -> tuple[int, dict[str, int]]:
    store = memory.store
    assert isinstance(store, TermStatistics)
    return store.term_document_counts(scope, terms)


def test_word_counts_are_counted_again_after_the_scope_changes() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        first = memory.remember(SCOPE, "The lighthouse keeper paints boats in winter.")
        assert _counts(memory, SCOPE, ["boats", "kites"]) == (1, {"boats": 1, "kites": 0})
        assert _counts(memory, SCOPE, ["boats", "kites"]) == (1, {"boats": 1, "kites": 0})  # kept
        memory.remember(SCOPE, "On calm days she flies kites and mends boats.")
        assert _counts(memory, SCOPE, ["kites", "boats"]) == (2, {"kites": 1, "boats": 2})
        memory.forget(SCOPE, first.record.id)
        assert _counts(memory, SCOPE, ["boats"]) == (1, {"boats": 1})


def test_word_counts_kept_for_one_scope_are_not_another_scopes() -> None:
    other = Scope("t", "v")
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        memory.remember(SCOPE, "Ferries leave the harbour at dawn.")
        memory.remember(other, "The harbour market sells ferries' timetables and harbour maps.")
        assert _counts(memory, SCOPE, ["harbour", "maps"]) == (1, {"harbour": 1, "maps": 0})
        assert _counts(memory, other, ["harbour", "maps"]) == (1, {"harbour": 1, "maps": 1})
        assert _counts(memory, SCOPE, ["maps"]) == (1, {"maps": 0})


def test_word_counts_come_with_the_words_a_keyword_query_learns(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    first, second = SQLiteStore(path), SQLiteStore(path)
    try:
        records = [make_record(ALICE, f"lantern note {i}") for i in range(6)]
        records += [
            make_record(ALICE, "kettle on the stove", context="the violin case"),  # violin in the context alone
            make_record(ALICE, "violin lessons", context="a kettle"),
            make_record(BOB, "lantern kettle violin pepper"),
        ]
        first.put_many([item(r) for r in records])
        for _ in range(HOLD_ROWS_FROM):  # from here on the scope's rows are held and new words learned alone
            with first.pinned(ALICE):
                first.keyword_candidates(ALICE, ["note"], ANY, now=NOW, limit=50)
        terms = ["lantern", "kettle", "violin", "pepper"]
        asked: list[str] = []
        with first.pinned(ALICE):
            first.keyword_candidates(ALICE, terms, ANY, now=NOW, limit=50)
            first._conn.set_trace_callback(asked.append)
            counts = first.term_document_counts(ALICE, terms)
            first._conn.set_trace_callback(None)
        assert (
            counts
            == second.term_document_counts(ALICE, terms)
            == (8, {"lantern": 6, "kettle": 1, "violin": 1, "pepper": 0})
        )
        assert not any("MATCH" in sql for sql in asked)
    finally:
        first.close()
        second.close()
