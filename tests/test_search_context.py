"""Search context: text that finds a record without being its content (e.g. the turns around a message)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tiermem.embed import HashingEmbedder
from tiermem.errors import ValidationError
from tiermem.memory import Memory
from tiermem.store.sqlite import find_bytes
from tiermem.types import Filter, MemoryType, Scope
from tiermem.write.neighbours import neighbour_context, with_neighbours
from tiermem.write.path import MAX_CONTENT_CHARS, NewMemory

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
NOW = datetime(2026, 4, 1, tzinfo=UTC)


def test_context_is_indexed_for_full_text_but_never_returned_as_content(mem: Memory) -> None:
    mem.remember_many(
        ALICE,
        [
            NewMemory("Yes, last Sunday!", MemoryType.EPISODIC, context="Did you go to the glassblowing workshop?"),
            NewMemory("The weather was grey.", MemoryType.EPISODIC),
        ],
    )
    hits = mem.recall(ALICE, "glassblowing workshop", k=1)
    assert hits[0].record.content == "Yes, last Sunday!"
    assert hits[0].record.context == "Did you go to the glassblowing workshop?"
    assert hits[0].part("keyword") is not None and hits[0].part("keyword").rank == 1  # type: ignore[union-attr]


def test_a_word_in_the_content_outranks_the_same_word_in_another_records_context(mem: Memory) -> None:
    mem.remember_many(
        ALICE,
        [
            NewMemory("I love my glassblowing class.", MemoryType.EPISODIC),
            NewMemory("Sounds nice.", MemoryType.EPISODIC, context="I love my glassblowing class."),
        ],
    )
    hits = mem.recall(ALICE, "glassblowing", k=2)
    assert hits[0].record.content == "I love my glassblowing class."


def test_context_is_not_embedded_the_vector_is_the_contents() -> None:
    embedder = HashingEmbedder()
    with Memory.open(":memory:", embedder=embedder) as memory:
        (written,) = memory.remember_many(ALICE, [NewMemory("Yes!", context="glassblowing workshop")])
        stored = memory.store.vectors_of(ALICE, [written.record.id])[written.record.id]
    assert float(stored @ embedder.embed_batch(["Yes!"])[0]) == pytest.approx(1.0)


def test_context_survives_export_and_import(mem: Memory) -> None:
    mem.remember_many(ALICE, [NewMemory("Yes, last Sunday!", context="Did you go to the workshop?")])
    data = mem.export(ALICE)
    assert data["records"][0]["context"] == "Did you go to the workshop?"
    with Memory.open(":memory:", embedder=HashingEmbedder()) as other:
        other.restore(data, vouched=True)  # vouched: the records keep their source, so they round-trip exactly
        (hit,) = other.recall(ALICE, "workshop", k=1)
        assert hit.record.context == "Did you go to the workshop?"
        assert other.export(ALICE)["records"] == data["records"]


def test_an_export_made_before_search_context_imports_with_none(mem: Memory) -> None:
    mem.remember(ALICE, "plain note")
    data = mem.export(ALICE)
    data["records"] = [{k: v for k, v in r.items() if k != "context"} for r in data["records"]]
    with Memory.open(":memory:", embedder=HashingEmbedder()) as other:
        other.restore(data)
        assert other.recall(ALICE, "plain note", k=1)[0].record.context is None


def test_context_is_erased_with_its_record(tmp_path: Path) -> None:
    secret = "Quoxilate9931Marrowind"
    path = tmp_path / "c.db"
    with Memory.open(f"sqlite:///{path}", embedder=HashingEmbedder()) as memory:
        memory.remember_many(ALICE, [NewMemory("Yes!", MemoryType.EPISODIC, context=f"codename {secret}?")])
        assert memory.recall(ALICE, secret, k=1)
        memory.erase("acme", "alice")
        assert memory.recall(ALICE, secret, k=1) == []
    assert find_bytes(path, secret) == []


def test_forget_removes_the_context_from_full_text(mem: Memory) -> None:
    (written,) = mem.remember_many(ALICE, [NewMemory("Yes!", context="the glassblowing workshop")])
    mem.forget(ALICE, written.record.id)
    assert mem.store.keyword_candidates(ALICE, ["glassblowing"], Filter(), now=NOW, limit=5) == []


def test_context_is_normalised_and_checked() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        (written,) = memory.remember_many(ALICE, [NewMemory("a", context="  spaced \n out  ")])
        assert written.record.context == "spaced out"
        (blank,) = memory.remember_many(ALICE, [NewMemory("b", context="   ")])
        assert blank.record.context is None
        with pytest.raises(ValidationError, match="context"):
            memory.remember_many(ALICE, [NewMemory("c", context="x" * (MAX_CONTENT_CHARS + 1))])
        with pytest.raises(ValidationError, match="context"):
            memory.remember_many(ALICE, [NewMemory("d", context=3)])  # type: ignore[arg-type]


def test_neighbour_context_takes_the_near_ends_of_neighbouring_turns() -> None:
    texts = ["one two three four", "the turn", "five six seven eight"]
    assert neighbour_context(texts, 1, before=1, after=0, max_words=2) == "three four"
    assert neighbour_context(texts, 1, before=1, after=1, max_words=2) == "three four\nfive six"
    assert neighbour_context(texts, 0, before=1, after=0) is None
    assert neighbour_context(texts, 2, before=2, after=1, max_words=1) == "four\nturn"


def test_with_neighbours_keeps_content_and_adds_context_in_order() -> None:
    items = [NewMemory("A: hi"), NewMemory("B: hello"), NewMemory("A: bye")]
    out = with_neighbours(items, before=1, after=1)
    assert [i.content for i in out] == ["A: hi", "B: hello", "A: bye"]
    assert [i.context for i in out] == ["B: hello", "A: hi\nA: bye", "B: hello"]
