"""The SQLite store keeps a scope's word counts for relevance until the scope changes."""

from __future__ import annotations

from tiermem.embed import HashingEmbedder
from tiermem.memory import Memory
from tiermem.store.base import TermStatistics
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
