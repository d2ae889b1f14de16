"""One message value: a transcript is read as the Message the window keeps, checked where a prompt needs it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from context_window_helpers import manager
from tiermem.errors import ValidationError
from tiermem.memory import Memory
from tiermem.message import Message, Role
from tiermem.store import open_store
from tiermem.store.context_base import StoreWithContext
from tiermem.types import Scope, Source
from tiermem.write.messages import parse_message, record_fields

ANN = Scope("acme", "ann", None, "s1")


@pytest.fixture
def store() -> Iterator[StoreWithContext]:
    backend = open_store(":memory:")
    yield backend
    backend.close()


def test_a_transcript_message_is_read_as_the_message_the_window_keeps_and_stored_alike() -> None:
    said = Message.user("I moved to Lyon.", name="Ann")
    read = parse_message({"role": "user", "content": "I moved to Lyon.", "name": "Ann", "id": said.id,
                          "created_at": said.created_at}, 0)  # fmt: skip
    assert isinstance(read, Message) and read.role is Role.USER and read.source == said.source == "user:Ann"
    assert record_fields(read) == record_fields(said)


def test_a_transcript_message_that_gives_no_id_or_time_leaves_them_to_the_write() -> None:
    read = parse_message({"role": "assistant", "content": "Noted."}, 0)
    assert read.id is None and read.created_at is None
    with pytest.raises(ValidationError, match="created_at: is not given"):
        read.said_at  # noqa: B018


def test_a_tool_result_without_its_call_is_stored_from_a_transcript_but_refused_by_the_window(
    store: StoreWithContext,
) -> None:
    with Memory.open(":memory:", embedder="hash") as memory:
        (written,) = memory.remember_messages(ANN, [{"role": "tool", "name": "fetch", "content": "Page text."}])
        assert str(written.record.source) == "tool:fetch"
    orphan = Message(Role.TOOL, "Page text.", name="fetch")
    with pytest.raises(ValidationError, match="tool_call_id: a tool message needs the tool_call_id"):
        manager(store).append(orphan)
    with pytest.raises(ValidationError, match="tool_call_id: a tool message needs the tool_call_id"):
        Message.tool("Page text.", tool_call_id="", name="fetch")


def test_a_role_error_carries_no_earlier_error_quoting_the_role() -> None:
    token = "ghp_" + "Wq4Ez8Rt2Yu6Io0Pa3Sd7Fg1Hj5Kl9Zx2Cv4Bn8M"  # the shape of a GitHub token, made up
    with pytest.raises(ValidationError, match="role: must be one of") as refused:
        Message(token, "hello")  # type: ignore[arg-type]
    assert refused.value.__context__ is None and token not in str(refused.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("tool:", "'tool' needs a name"),
        ("system:x", "'system' takes no ':<name>' part"),
        ("bogus:1", "must be one of"),
    ],
)
def test_a_source_error_says_what_is_wrong_with_the_source(text: str, says: str) -> None:
    with pytest.raises(ValidationError, match=says) as caught:
        Source.parse(text)
    assert caught.value.__context__ is None
