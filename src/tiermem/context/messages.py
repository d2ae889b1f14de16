"""Messages of the conversation: the value, its token cost, and its round trip through a recall record.

Token cost of a message (an estimate of OpenAI's chat format that errs high, so a budget built on it holds):

    tokens(content) + MESSAGE_OVERHEAD                       every message (role and delimiters)
    + tokens(name)                                           a named message
    + tokens(tool_call_id)                                   a tool result
    + per call: tokens(name) + tokens(arguments) + TOOL_CALL_OVERHEAD + tokens(call id)

OpenAI documents 3 tokens per message plus 1 for a name and 3 for the reply primer; MESSAGE_OVERHEAD is 4 so
the name's extra token is always covered, and the primer (REPLY_PRIMING) is charged once per prompt.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from tiermem.errors import ValidationError
from tiermem.llm import ChatMessage, ToolCall
from tiermem.tokens import TokenCounter
from tiermem.types import MemoryRecord, MetaValue, new_id, utcnow
from tiermem.write.messages import RECALL_TAG, TranscriptMessage
from tiermem.write.messages import record_fields as transcript_record_fields

__all__ = [
    "MESSAGE_OVERHEAD",
    "RECALL_TAG",
    "REPLY_PRIMING",
    "TOOL_CALL_OVERHEAD",
    "Message",
    "Role",
    "ToolCall",
    "as_transcript",
    "message_from_record",
    "message_tokens",
    "record_fields",
]

MESSAGE_OVERHEAD = 4
TOOL_CALL_OVERHEAD = 8  # the call's JSON frame: {"id", "type": "function", "function": {"name", "arguments"}}
REPLY_PRIMING = 3


class Role(StrEnum):
    """Who speaks: the roles of the OpenAI chat format."""

    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the conversation; ``created_at`` is when it was said (timezone-aware)."""

    role: Role
    content: str
    id: str = field(default_factory=new_id)
    created_at: datetime = field(default_factory=utcnow)
    name: str | None = None
    tool_call_id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    # Who wrote the text, when not whom its role names: a notice the runtime gives in place of a tool's result
    # is "system", not "tool:<name>" (its source, and so its trust and whether it is scanned).
    author: str | None = None
    # Stored with the message's record and never sent to the model (e.g. what recall put in the prompt a
    # reply answered, ``context.trace``); not rebuilt from the record.
    metadata: Mapping[str, MetaValue] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.role, Role):
            try:
                object.__setattr__(self, "role", Role(self.role))
            except ValueError:
                choices = ", ".join(r.value for r in Role)
                raise ValidationError("role", f"must be one of {choices}", given=self.role) from None
        if not isinstance(self.content, str):
            raise ValidationError("content", "must be a string", given=type(self.content).__name__)
        if not self.content.strip() and not self.tool_calls:
            raise ValidationError("content", "must not be empty (unless the message carries tool calls)")
        if self.created_at.tzinfo is None:
            raise ValidationError("created_at", "must be timezone-aware", given=self.created_at.isoformat())
        if self.role is Role.TOOL and not (self.tool_call_id and self.name):
            raise ValidationError("tool_call_id", "a tool message needs the tool_call_id and the tool's name")
        if self.role is not Role.TOOL and self.tool_call_id is not None:
            raise ValidationError("tool_call_id", "only a tool message answers a tool call", given=self.role.value)
        if self.tool_calls and self.role is not Role.ASSISTANT:
            raise ValidationError("tool_calls", "only an assistant message makes tool calls", given=self.role.value)
        for call in self.tool_calls:  # a stored call must be answerable: its result names it by id
            if not call.id:
                raise ValidationError("tool_calls.id", "must be a non-empty string", given=call.id)

    @classmethod
    def system(cls, content: str, **kwargs: Any) -> Message:
        """A system notice inside the conversation (not the system prompt)."""
        return cls(Role.SYSTEM, content, **kwargs)

    @classmethod
    def user(cls, content: str, **kwargs: Any) -> Message:
        """A message from the user."""
        return cls(Role.USER, content, **kwargs)

    @classmethod
    def assistant(cls, content: str, tool_calls: tuple[ToolCall, ...] = (), **kwargs: Any) -> Message:
        """A reply of the model, possibly with tool calls."""
        return cls(Role.ASSISTANT, content, tool_calls=tool_calls, **kwargs)

    @classmethod
    def tool(cls, content: str, *, tool_call_id: str, name: str, **kwargs: Any) -> Message:
        """The result of the tool call ``tool_call_id`` of the tool ``name``."""
        return cls(Role.TOOL, content, tool_call_id=tool_call_id, name=name, **kwargs)

    @property
    def source(self) -> str:
        """The provenance its recall record gets: its ``author`` if given, else user or agent (with the speaker's
        name), system, tool:<name>."""
        if self.author is not None:
            return self.author
        named = f":{self.name}" if self.name and self.name.strip() else ""  # a group chat's speaker
        if self.role is Role.USER:
            return f"user{named}"
        if self.role is Role.ASSISTANT:
            return f"agent{named}"
        if self.role is Role.TOOL:
            return f"tool:{self.name}"
        return "system"

    def to_chat(self) -> ChatMessage:
        """The message as a chat-model message (what is sent, without id and time)."""
        return ChatMessage(self.role.value, self.content, self.name, self.tool_call_id, self.tool_calls)

    def to_openai(self) -> dict[str, Any]:
        """The message as an OpenAI chat-completions dict."""
        return self.to_chat().to_openai()


def message_tokens(message: Message, counter: TokenCounter) -> int:
    """The tokens ``message`` costs in a prompt (see the module docstring for the model)."""
    total = counter.count(message.content) + MESSAGE_OVERHEAD
    if message.name is not None:
        total += counter.count(message.name)
    if message.tool_call_id is not None:
        total += counter.count(message.tool_call_id)
    for call in message.tool_calls:
        total += counter.count(call.name) + counter.count(call.arguments) + counter.count(call.id)
        total += TOOL_CALL_OVERHEAD
    return total


def as_transcript(message: Message) -> TranscriptMessage:
    """``message`` in the write path's form (the record format lives in ``tiermem.write.messages``)."""
    return TranscriptMessage(
        message.role.value,
        message.content,
        name=message.name,
        created_at=message.created_at,
        id=message.id,
        tool_call_id=message.tool_call_id,
        tool_calls=message.tool_calls,
        metadata=message.metadata,
        given_source=message.author,
    )


def record_fields(message: Message) -> tuple[str, Mapping[str, MetaValue]]:
    """The record content and metadata that store ``message`` so it can be rebuilt exactly."""
    return transcript_record_fields(as_transcript(message))


def message_from_record(record: MemoryRecord) -> Message:
    """The message a recall record stores (whitespace as sent when it was small enough to keep)."""
    meta = record.metadata
    role = meta.get("role")
    if not isinstance(role, str) or role not in Role.__members__.values():
        raise ValidationError("record", "is not a conversation message (no role in its metadata)", given=record.id)
    raw = meta.get("raw")
    calls_json = meta.get("tool_calls")
    calls = tuple(ToolCall(i, n, a) for i, n, a in json.loads(calls_json)) if isinstance(calls_json, str) else ()
    name, call_id, message_id = meta.get("name"), meta.get("tool_call_id"), meta.get("message_id")
    content = raw if isinstance(raw, str) else ("" if meta.get("empty") is True else record.content)
    if not isinstance(raw, str) and meta.get("prefixed") is True and isinstance(name, str):
        content = content.removeprefix(f"{name}: ")  # stored "<name>: <text>" so the speaker is searchable
    return Message(
        Role(role),
        content,
        id=message_id if isinstance(message_id, str) else record.id,
        created_at=record.valid_from,
        name=name if isinstance(name, str) else None,
        tool_call_id=call_id if isinstance(call_id, str) else None,
        tool_calls=calls,
    )
