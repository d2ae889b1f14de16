"""What the LangGraph adapter's search keeps between searches gives what a fresh store gives, whatever changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph")

from tiermem import Memory
from tiermem.embed import HashingEmbedder
from tiermem.integrations.langgraph import TiermemStore
from tiermem.recall.policy import RecallPolicy
from tiermem.store.sqlite.fts import HOLD_ROWS_FROM

WORK = ("notes", "ann", "work")
HOME = ("notes", "ann", "home")
NOTES = [
    "the copper kettle sits on the top shelf",
    "the kettle whistles when the water boils",
    "a lantern hangs by the garden gate",
    "the harbour ferry leaves at noon",
    "the violin case is under the bed",
]


def _found(store: TiermemStore, namespace: tuple[str, ...], query: str) -> list[tuple[Any, ...]]:
    return [(r.key, r.score, r.rank_score, r.flags) for r in store.search(namespace, query=query, limit=10)]


def _found_afresh(path: Path, namespace: tuple[str, ...], query: str, policy: RecallPolicy) -> list[tuple[Any, ...]]:
    with Memory.open(path, embedder=HashingEmbedder(), policy=policy) as fresh:
        return _found(TiermemStore(fresh), namespace, query)


ASKED = "where is the kettle?"


def test_a_search_sees_what_another_connection_put_in_its_namespace_alone(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory.open(path, embedder=HashingEmbedder()) as mem, Memory.open(path, embedder=HashingEmbedder()) as other:
        store, writer = TiermemStore(mem), TiermemStore(other)
        for i, text in enumerate(NOTES):
            store.put(WORK, f"w{i}", {"text": text})
            store.put(HOME, f"h{i}", {"text": f"{text} at home"})
        for _ in range(HOLD_ROWS_FROM + 2):  # the scope's rows, its words and the namespace's tag set kept
            before = _found(store, WORK, ASKED)
        assert {k for k, *_ in before} == {f"w{i}" for i in range(len(NOTES))}
        writer.put(HOME, "h9", {"text": "a spare kettle in the attic"})  # another namespace of the scope
        after = _found(store, WORK, ASKED)
        assert after == before == _found_afresh(path, WORK, ASKED, mem.policy)
        writer.put(WORK, "w9", {"text": "a spare kettle in the attic"})
        after = _found(store, WORK, ASKED)
        assert "w9" in {k for k, *_ in after} and after == _found_afresh(path, WORK, ASKED, mem.policy)
        writer.delete(WORK, "w0")
        after = _found(store, WORK, ASKED)
        assert "w0" not in {k for k, *_ in after} and after == _found_afresh(path, WORK, ASKED, mem.policy)


def test_a_search_follows_the_recall_policy_the_memory_is_given_after_it(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory.open(path, embedder=HashingEmbedder()) as mem:
        store = TiermemStore(mem)
        for i, text in enumerate(NOTES):
            store.put(WORK, f"w{i}", {"text": text})
        first = _found(store, WORK, "the kettle on the shelf")
        mem.policy = RecallPolicy(keyword_weight=0.2, neighbour_weight=0.0)
        second = _found(store, WORK, "the kettle on the shelf")
        assert second != first
        assert second == _found_afresh(path, WORK, "the kettle on the shelf", mem.policy)
