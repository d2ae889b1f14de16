"""Text a write stores is valid Unicode, holds something a reader can see, and names without NUL: every door's
bad input is a ValidationError naming the field, and the store is left as it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from live_server import live_server
from tiermem.errors import ValidationError
from tiermem.jsonl import json_lines, load_json
from tiermem.memory import Memory
from tiermem.types import Scope
from tiermem.write.prepare import NewMemory

ANN = Scope("acme", "ann")
LONE = "the shed \udcff key"  # what a terminal's undecodable bytes become in a Python string


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder="hash") as m:
        m.remember(ANN, "the shed key hangs by the door")
        yield m


def _refused(memory: Memory, write: Callable[[], Any], field: str) -> ValidationError:
    before = memory.store.count(ANN)
    with pytest.raises(ValidationError) as caught:
        write()
    assert caught.value.field == field, caught.value
    assert memory.store.count(ANN) == before
    return caught.value


@pytest.mark.parametrize(
    ("item", "field"),
    [
        (NewMemory(LONE), "content"),
        (NewMemory("the shed key", context=LONE), "context"),
        (NewMemory("the shed key", source="tool:" + LONE), "source"),
        (NewMemory("the shed key", metadata={LONE: 1}), "metadata key"),
        (NewMemory("the shed key", metadata={"where": LONE}), "metadata.where"),
    ],
)
def test_a_lone_surrogate_in_written_text_is_a_validation_error_naming_the_field(
    memory: Memory, item: NewMemory, field: str
) -> None:
    error = _refused(memory, lambda: memory.remember_many(ANN, [item]), field)
    assert "lone surrogate at character 9" in error.problem and error.limit is not None


def test_a_lone_surrogate_in_a_message_is_a_validation_error_naming_the_message(memory: Memory) -> None:
    said = [{"role": "user", "content": "hello"}, {"role": "user", "content": LONE}]
    _refused(memory, lambda: memory.remember_messages(ANN, said, session="s1"), "messages[1].content")
    named = [{"role": "user", "content": "hello", "name": LONE}]
    _refused(memory, lambda: memory.remember_messages(ANN, named, session="s1"), "messages[0].name")


@pytest.mark.parametrize("content", ["\u200b\u200b", "\x00\x00", " \u200d\ufeff \x00 ", "\u3164"])
def test_content_of_only_hidden_characters_is_refused_like_empty_content(memory: Memory, content: str) -> None:
    error = _refused(memory, lambda: memory.remember(ANN, content), "content")
    assert error.problem.startswith("must not be empty") and error.given == content.strip()
    message = [{"role": "user", "content": content}]
    _refused(memory, lambda: memory.remember_messages(ANN, message, session="s1"), "messages[0].content")


def test_visible_text_beside_hidden_characters_is_kept(memory: Memory) -> None:
    assert memory.remember(ANN, "\u200bthe gate code changed").record.content == "\u200bthe gate code changed"


@pytest.mark.parametrize(
    ("item", "field"),
    [
        (NewMemory("the shed key", source="tool:\x00"), "source"),
        (NewMemory("the shed key", source="user:an\x00n"), "source"),
        (NewMemory("the shed key", metadata={"\x00": 1}), "metadata key"),
    ],
)
def test_a_nul_in_a_source_or_metadata_key_is_refused_naming_the_field(
    memory: Memory, item: NewMemory, field: str
) -> None:
    error = _refused(memory, lambda: memory.remember_many(ANN, [item]), field)
    assert "NUL" in error.problem


@pytest.mark.parametrize("cursor", ["99999999999999999999999", "1000000000000000000", "٣", "²", "-1", ""])
def test_a_cursor_no_listing_returned_is_a_validation_error_naming_the_cursor(memory: Memory, cursor: str) -> None:
    with pytest.raises(ValidationError) as caught:
        memory.list(ANN, cursor=cursor)
    assert caught.value.field == "cursor" and caught.value.given == cursor and caught.value.limit == "1 to 18 digits"


def test_the_largest_cursor_lists_from_the_newest(memory: Memory) -> None:
    assert [r.content for r in memory.list(ANN, cursor="999999999999999999").records] == [
        "the shed key hangs by the door"
    ]


def test_json_nested_too_deeply_is_a_validation_error_naming_the_input() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ValidationError) as caught:
        load_json(deep, "notes.json")
    assert caught.value.field == "notes.json" and "too deeply" in caught.value.problem
    assert caught.value.given == "200000 characters" and "levels of nesting" in str(caught.value.limit)
    with pytest.raises(ValidationError) as line:
        list(json_lines(["1", deep], lambda n: f"notes.jsonl, line {n}"))
    assert line.value.field == "notes.jsonl, line 2"


def test_the_service_refuses_hidden_only_content_and_nul_names_with_422(tmp_path: Path) -> None:
    with live_server(tmp_path / "s.db") as server:
        ann = server.client(server.key("acme", "ann"))
        for body, field in [
            ({"content": "\u200b\u200b"}, "content"),
            ({"content": "\x00\x00"}, "content"),
            ({"content": "the shed key", "source": "tool:\x00"}, "source"),
            ({"content": "the shed key", "metadata": {"\x00": "x"}}, "metadata key"),
        ]:
            answer = ann.post("/v1/memories", json=body)
            assert answer.status_code == 422 and answer.json()["field"] == field, answer.text
        assert ann.get("/v1/memories").json()["records"] == []
