"""Message: the one value for a turn of a conversation, whether the context window keeps it or a transcript gives it.

A transcript may leave out what the window needs (``id`` and ``created_at`` are None when it did not give them,
and the write stamps them; a tool result may not name its call or its tool); ``Message.checked`` checks what
a prompt and the window need, and the constructors (``Message.user`` ...) and ``ContextManager.append`` ask it.
The chat model's wire values (``tiermem.llm.ChatMessage``) are written by the same ``openai_message``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from tiermem.errors import ValidationError
from tiermem.types import MemoryRecord, MetaValue, new_id, utcnow

__all__ = ["JUDGED_IN_PARTS", "UNNAMED_TOOL", "Message", "Quoting", "Role", "ToolCall", "openai_message"]

UNNAMED_TOOL = "unknown"  # the OpenAI format names a tool result by its call id only; the source needs a name


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A function call the model asked for; ``arguments`` is the raw JSON string exactly as the API sent it."""

    id: str  # may be empty as received (some servers omit it); a checked Message requires one
    name: str
    arguments: str = "{}"

    def __post_init__(self) -> None:
        if not isinstance(self.id, str):
            raise ValidationError("tool_calls.id", "must be a string", given=type(self.id).__name__)
        if not self.name or not isinstance(self.name, str):
            raise ValidationError("tool_calls.name", "must be a non-empty string", given=self.name)
        if not isinstance(self.arguments, str):
            raise ValidationError("tool_calls.arguments", "must be JSON text", given=type(self.arguments).__name__)

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI wire shape of one entry of ``tool_calls``."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


def openai_message(
    role: str, content: str | None, name: str | None, tool_call_id: str | None, tool_calls: Sequence[ToolCall]
) -> dict[str, Any]:
    """The exact OpenAI chat-completions shape of a message (``content`` null when an assistant only calls tools)."""
    out: dict[str, Any] = {"role": role, "content": content}
    if name is not None:
        out["name"] = name
    if tool_call_id is not None:
        out["tool_call_id"] = tool_call_id
    if tool_calls:
        out["tool_calls"] = [call.to_openai() for call in tool_calls]
    return out


# Metadata of a memory tool's result judged in parts (``Quoting``): quoted again, it keeps its verdict. A
# transcript's metadata may not give it (``write.messages.RESERVED_METADATA``).
JUDGED_IN_PARTS = "judged_in_parts"


@dataclass(frozen=True, slots=True)
class Quoting:
    """What a memory tool's result quotes, as the runtime that wrote it knows (``Message.quoting``).

    ``notes``: the user's own stored notes it quotes, each judged when written; ``rest``: the result with those
    notes' quotes left empty, which the write path scans as the tool's words (everything else it quotes included);
    ``text``: the whole result, which the message must hold as its content, or the quoting is not read.
    """

    notes: tuple[MemoryRecord, ...]
    rest: str
    text: str


class Role(StrEnum):
    """Who speaks: the roles of the OpenAI chat format."""

    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a conversation; ``created_at`` is when it was said (timezone-aware)."""

    role: Role
    content: str
    id: str | None = field(default_factory=new_id)
    created_at: datetime | None = field(default_factory=utcnow)
    name: str | None = None
    tool_call_id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    # Who wrote the text, when not whom its role names: a notice the runtime gives in place of a tool's result
    # is "system", not "tool:<name>" (its source, and so its trust and whether it is scanned).
    author: str | None = None
    # Stored with the message's record and never sent to the model (e.g. what recall put in the prompt a
    # reply answered, ``context.trace``); not rebuilt from the record.
    metadata: Mapping[str, MetaValue] = field(default_factory=dict, compare=False)
    # Set by the runtime for a memory tool's result: the user's own rules it quotes keep their verdicts instead of
    # being scanned as a tool's words. A transcript cannot give it: it is read only from a Message made in this
    # process (``write.messages.parse_message``).
    quoting: Quoting | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.role, Role):
            try:
                role: Role | None = Role(self.role)
            except ValueError:  # raised below, outside the handler: its error quotes the value
                role = None
            if role is None:
                raise ValidationError("role", f"must be one of {', '.join(r.value for r in Role)}", given=self.role)
            object.__setattr__(self, "role", role)
        if not isinstance(self.content, str):
            raise ValidationError("content", "must be a string", given=type(self.content).__name__)
        if not self.content.strip() and not self.tool_calls:
            raise ValidationError("content", "must not be empty (unless the message carries tool calls)")
        if self.created_at is not None and self.created_at.tzinfo is None:
            raise ValidationError("created_at", "must be timezone-aware", given=self.created_at.isoformat())
        if self.tool_calls and self.role is not Role.ASSISTANT:
            raise ValidationError("tool_calls", "only an assistant message makes tool calls", given=self.role.value)

    def checked(self) -> Message:
        """This message if it has what a prompt and the window need; ValidationError naming what it lacks."""
        if self.id is None or self.created_at is None:
            raise ValidationError("message", "needs an id and a created_at time", given=self.role.value)
        if self.role is Role.TOOL and not (self.tool_call_id and self.name):
            raise ValidationError("tool_call_id", "a tool message needs the tool_call_id and the tool's name")
        if self.role is not Role.TOOL and self.tool_call_id is not None:
            raise ValidationError("tool_call_id", "only a tool message answers a tool call", given=self.role.value)
        for call in self.tool_calls:  # a stored call must be answerable: its result names it by id
            if not call.id:
                raise ValidationError("tool_calls.id", "must be a non-empty string", given=call.id)
        return self

    @classmethod
    def system(cls, content: str, **kwargs: Any) -> Message:
        """A system notice inside the conversation (not the system prompt)."""
        return cls(Role.SYSTEM, content, **kwargs).checked()

    @classmethod
    def user(cls, content: str, **kwargs: Any) -> Message:
        """A message from the user."""
        return cls(Role.USER, content, **kwargs).checked()

    @classmethod
    def assistant(cls, content: str, tool_calls: tuple[ToolCall, ...] = (), **kwargs: Any) -> Message:
        """A reply of the model, possibly with tool calls."""
        return cls(Role.ASSISTANT, content, tool_calls=tool_calls, **kwargs).checked()

    @classmethod
    def tool(cls, content: str, *, tool_call_id: str, name: str, **kwargs: Any) -> Message:
        """The result of the tool call ``tool_call_id`` of the tool ``name``."""
        return cls(Role.TOOL, content, tool_call_id=tool_call_id, name=name, **kwargs).checked()

    @property
    def source(self) -> str:
        """The provenance its record gets: its ``author`` if given, else user or agent (with the speaker's
        name), system, tool:<name>."""
        if self.author is not None:
            return self.author
        named = f":{self.name}" if self.name and self.name.strip() else ""  # a group chat's speaker
        if self.role is Role.USER:
            return f"user{named}"
        if self.role is Role.ASSISTANT:
            return f"agent{named}"
        if self.role is Role.TOOL:
            return f"tool:{self.name or UNNAMED_TOOL}"
        return "system"

    @property
    def said_at(self) -> datetime:
        """``created_at`` of a checked message (ValidationError for a transcript's message that gave none)."""
        if self.created_at is None:
            raise ValidationError("created_at", "is not given", given=None)
        return self.created_at

    @property
    def speaker_prefixed(self) -> bool:
        """True when its record text starts with the speaker's name (a named user or assistant)."""
        return bool(self.name) and self.role in (Role.USER, Role.ASSISTANT)

    def to_openai(self) -> dict[str, Any]:
        """The message as an OpenAI chat-completions dict (what is sent, without id and time)."""
        return openai_message(self.role.value, self.content, self.name, self.tool_call_id, self.tool_calls)
