"""(internal) The outbound gate: a prompt's personal data masked before it leaves the process, the reply unmasked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any

from tiermem.config import is_loopback_url
from tiermem.llm.messages import ChatClient, ChatResponse, Send, ToolCall
from tiermem.trust.pii import PiiCounter, PiiMasker

__all__ = ["MaskedClient", "PiiMask", "is_loopback_url", "masked_call"]


class PiiMask(StrEnum):
    """When the outbound gate masks a prompt's personal data."""

    ALWAYS = "always"
    REMOTE = "remote"  # when the model's URL is not this machine
    NEVER = "never"


def masked_call(
    send: Send, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None, counter: PiiCounter | None
) -> ChatResponse:
    """``send`` the prompt with its text and tool-call arguments masked; the reply with the real values back."""
    masker = PiiMasker(counter)
    masked: list[dict[str, Any]] = []
    for message in messages:
        copy_ = dict(message)
        if "content" in copy_:
            copy_["content"] = _masked_content(masker, copy_["content"])
        if copy_.get("tool_calls"):
            copy_["tool_calls"] = [_masked_call(masker, call) for call in copy_["tool_calls"]]
        masked.append(copy_)
    response = send(masked, tools)
    reply = response.message
    calls = tuple(ToolCall(c.id, c.name, masker.unmask(c.arguments, json_string=True)) for c in reply.tool_calls)
    content = None if reply.content is None else masker.unmask(reply.content)
    return replace(response, message=replace(reply, content=content, tool_calls=calls))


def _masked_content(masker: PiiMasker, content: Any) -> Any:
    """A message's content masked: a text, or OpenAI-style content parts (each part's ``text`` masked)."""
    if isinstance(content, str):
        return masker.mask(content)
    if isinstance(content, list):
        return [
            {**part, "text": masker.mask(part["text"])}
            if isinstance(part, dict) and isinstance(part.get("text"), str)
            else part
            for part in content
        ]
    return content


def _masked_call(masker: PiiMasker, call: dict[str, Any]) -> dict[str, Any]:
    function = dict(call.get("function") or {})
    if isinstance(function.get("arguments"), str):
        function["arguments"] = masker.mask(function["arguments"])
    return {**call, "function": function}


class MaskedClient:
    """The outbound gate around a ChatClient of your own: every prompt masked, every reply unmasked."""

    def __init__(self, inner: ChatClient, counter: PiiCounter | None = None) -> None:
        self.inner = inner
        self._counter = counter

    @property
    def model(self) -> str | None:
        """The inner client's model name, if it has one."""
        model = getattr(self.inner, "model", None)
        return model if isinstance(model, str) else None

    def complete(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None
    ) -> ChatResponse:
        """Mask, send through the inner client, unmask."""
        return masked_call(self.inner.complete, messages, tools, self._counter)
