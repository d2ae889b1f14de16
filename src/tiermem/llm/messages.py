"""(internal) Chat messages, the ChatClient protocol and a scripted client that records every prompt."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from tiermem.errors import ConfigError
from tiermem.message import ToolCall, openai_message

__all__ = [
    "EXCERPT",
    "ChatClient",
    "ChatMessage",
    "ChatResponse",
    "ScriptedClient",
    "ScriptedReply",
    "Send",
    "ToolCall",
    "excerpt",
]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One chat message: system, user, assistant (text and/or tool calls) or a tool result."""

    role: str
    content: str | None
    name: str | None = None
    tool_call_id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()

    def to_openai(self) -> dict[str, Any]:
        """The exact OpenAI wire shape (``content`` is sent as null when an assistant only calls tools)."""
        return openai_message(self.role, self.content, self.name, self.tool_call_id, self.tool_calls)

    @classmethod
    def system(cls, content: str) -> ChatMessage:
        """A system message."""
        return cls("system", content)

    @classmethod
    def user(cls, content: str) -> ChatMessage:
        """A user message."""
        return cls("user", content)

    @classmethod
    def assistant(cls, content: str | None = None, tool_calls: Sequence[ToolCall] = ()) -> ChatMessage:
        """An assistant message with text, tool calls or both."""
        return cls("assistant", content, tool_calls=tuple(tool_calls))

    @classmethod
    def tool(cls, tool_call_id: str, content: str) -> ChatMessage:
        """The result of the tool call ``tool_call_id``."""
        return cls("tool", content, tool_call_id=tool_call_id)


@dataclass(frozen=True, slots=True)
class ChatResponse:
    """The model's reply, why it stopped and the token usage the server reported (None if it did not)."""

    message: ChatMessage
    finish_reason: str
    usage_prompt_tokens: int | None
    usage_completion_tokens: int | None


@runtime_checkable
class ChatClient(Protocol):
    """Anything that answers a list of OpenAI-shaped messages (and optional tool schemas) with one reply."""

    def complete(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None
    ) -> ChatResponse:
        """The model's next message for this prompt."""
        ...


ScriptedReply = ChatMessage | Callable[[Sequence[dict[str, Any]]], ChatMessage]
Send = Callable[[Sequence[dict[str, Any]], Sequence[dict[str, Any]] | None], ChatResponse]


class ScriptedClient:
    """A deterministic ChatClient that replays scripted replies in order and records every prompt it saw."""

    def __init__(self, replies: Sequence[ScriptedReply]) -> None:
        self._replies = list(replies)
        self._next = 0
        self.calls: list[list[dict[str, Any]]] = []  # the messages of each call, as the model saw them
        self.tools: list[list[dict[str, Any]] | None] = []  # the tool schemas offered on each call

    @property
    def remaining(self) -> int:
        """How many scripted replies are left."""
        return len(self._replies) - self._next

    def complete(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None
    ) -> ChatResponse:
        """The next scripted reply; a callable reply is given the prompt's messages."""
        # Deep copies: the caller usually keeps mutating its message list, and the record must show this call.
        seen = copy.deepcopy(list(messages))
        self.calls.append(seen)
        self.tools.append(None if tools is None else copy.deepcopy(list(tools)))
        if self._next >= len(self._replies):
            last = seen[-1].get("content") if seen else None
            raise ConfigError(
                f"ScriptedClient ran out of replies: {len(self._replies)} scripted, call {len(self.calls)} asked "
                f"for another (last message: {excerpt(str(last), 120)!r})"
            )
        reply = self._replies[self._next]
        self._next += 1
        message = reply if isinstance(reply, ChatMessage) else reply(seen)
        if not isinstance(message, ChatMessage):
            raise ConfigError(
                f"ScriptedClient reply {self._next} returned {type(message).__name__}, expected a ChatMessage"
            )
        return ChatResponse(message, "tool_calls" if message.tool_calls else "stop", None, None)


EXCERPT = 300  # characters of a reply quoted in an error


def excerpt(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
