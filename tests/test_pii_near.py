"""The outbound gate reads text that is almost JSON as a model does (a dict's repr, JSON cut off or with a trailing
comma), keeps reading JSON after many unclosed brackets, masks content parts, and unmasks long replies in linear
time."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tiermem.llm import ChatMessage, ChatResponse, MaskedClient
from tiermem.trust.pii import PiiMasker

DOB, PASSPORT, PHONE = "07/11/1979", "K48210735", "+442079460958"
RECORD = {"name": "Kim", "date_of_birth": DOB, "passport": PASSPORT, "notes": f"ring after 6\n{PHONE}"}


def _leaked(masked: str) -> list[str]:
    return [value for value in (DOB, PASSPORT, PHONE) if value in masked]


@pytest.mark.parametrize(
    "text",
    [
        str(RECORD),  # what a Python tool returns: str(dict)
        json.dumps({**RECORD, "history": "shipped " * 20})[:-30],  # cut off at a length limit
        json.dumps(RECORD)[:-1] + ", }",  # a trailing comma
        "Result:\n" + json.dumps(RECORD) + "\n" + json.dumps(RECORD)[:40],  # JSON Lines, the last line cut
        "Traveller(name='Kim', date_of_birth='" + DOB + "', passport='" + PASSPORT + "')",  # an object's repr
    ],
    ids=["repr", "truncated", "trailing-comma", "jsonl-cut", "kwargs-repr"],
)
def test_near_json_values_are_read_after_their_keys_as_valid_json_would_be(text: str) -> None:
    masker = PiiMasker()
    masked = masker.mask(text)
    assert _leaked(masked) == []
    assert masker.unmask(masked) == text


def test_a_number_after_a_quoted_key_in_a_repr_is_masked_as_a_string() -> None:
    masked = PiiMasker().mask(str({"passport": 482107351, "qty": 2}))
    assert masked == "{'passport': \"[PASSPORT_1]\", 'qty': 2}"


def test_an_escaped_line_break_before_a_value_does_not_join_the_value() -> None:
    masker = PiiMasker()
    text = 'contact: line1\\nkim.lo@example.net and {"to": "x\\nkim.lo@example.net"'  # raw, not valid JSON
    masked = masker.mask(text)
    assert masked == 'contact: line1\\n[EMAIL_1] and {"to": "x\\n[EMAIL_1]"'
    assert masker.unmask(masked) == text


def test_an_escaped_backslash_before_n_is_not_read_as_a_line_break() -> None:
    assert PiiMasker().mask("path C:\\\\nkim.lo@example.net") == "path C:\\\\[EMAIL_1]"


@pytest.mark.parametrize("unclosed", [0, 8, 16])
def test_unclosed_brackets_before_json_do_not_leave_the_json_unread(unclosed: int) -> None:
    head = "log: " + "[" * unclosed + '"x", ' * 1000 + "\n"  # a nested list cut off before its closes
    masked = PiiMasker().mask(head + "Result: " + json.dumps(RECORD))
    assert _leaked(masked) == []


def test_prose_with_a_colon_and_a_quote_keeps_its_plain_reading() -> None:
    masked = PiiMasker().mask("Call me at extension: 4155552671. Note: 'see you', DOB: March 12, 1984")
    assert "4155552671" not in masked
    assert "March 12, 1984" not in masked


# -- the door: the outbound gate around a client of one's own ------------------------------------------------------


class _Recording:
    model = "m"

    def __init__(self) -> None:
        self.sent: list[list[dict[str, Any]]] = []

    def complete(self, messages: Any, tools: Any = None) -> ChatResponse:
        self.sent.append([dict(m) for m in messages])
        return ChatResponse(ChatMessage.assistant("Noted [EMAIL_1]."), "stop", None, None)


def test_masked_client_masks_openai_style_content_parts() -> None:
    inner = _Recording()
    parts = [
        {"type": "text", "text": "my email is kim.lo@example.net, card 4111 1111 1111 1111"},
        {"type": "image_url", "image_url": {"url": "https://img.example/a.png"}},
    ]
    reply = MaskedClient(inner).complete([{"role": "user", "content": parts}, {"role": "tool", "content": str(RECORD)}])
    sent = inner.sent[0]
    assert sent[0]["content"][0] == {"type": "text", "text": "my email is [EMAIL_1], card [CARD_1]"}
    assert sent[0]["content"][1] == parts[1]
    assert _leaked(sent[1]["content"]) == []
    assert reply.message.content == "Noted kim.lo@example.net."
