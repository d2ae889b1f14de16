"""(internal) The PII guardrail at the agent's edge: mask every prompt that leaves the process, unmask the reply.

A prompt goes to the model as OpenAI-shaped message dicts; their text (``content``) and the arguments of earlier
tool calls are masked with the conversation's ``PiiMasker``. The reply's text and its tool calls' arguments are
unmasked, so the user reads, and tools receive, the real values; the model only ever saw placeholders.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from collections.abc import Sequence
from typing import Any

from tiermem.llm import ChatClient, ChatMessage, ToolCall
from tiermem.trust.pii import PiiMasker

__all__ = ["is_loopback_url", "mask_messages", "model_url", "unmask_reply"]

_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


def is_loopback_url(url: str) -> bool:
    """The URL names this machine (localhost, 127.0.0.0/8, ::1): a prompt sent there does not leave it."""
    host = (urllib.parse.urlsplit(url).hostname or "").casefold()
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def model_url(llm: ChatClient) -> str | None:
    """Where a client sends prompts, if it says (``url`` or ``base_url``); None for an in-process client."""
    for name in ("url", "base_url"):
        value = getattr(llm, name, None)
        if isinstance(value, str) and value:
            return value
    return None


def mask_messages(masker: PiiMasker, messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of ``messages`` with their text and tool-call arguments masked."""
    out: list[dict[str, Any]] = []
    for message in messages:
        copy = dict(message)
        if isinstance(copy.get("content"), str):
            copy["content"] = masker.mask(copy["content"])
        if copy.get("tool_calls"):
            copy["tool_calls"] = [_mask_call(masker, call) for call in copy["tool_calls"]]
        out.append(copy)
    return out


def _mask_call(masker: PiiMasker, call: dict[str, Any]) -> dict[str, Any]:
    function = dict(call.get("function") or {})
    if isinstance(function.get("arguments"), str):
        function["arguments"] = masker.mask(function["arguments"])
    return {**call, "function": function}


def unmask_reply(masker: PiiMasker, reply: ChatMessage) -> ChatMessage:
    """The model's reply with the real values back in its text and in its tool calls' arguments."""
    calls = tuple(ToolCall(c.id, c.name, masker.unmask(c.arguments, json_string=True)) for c in reply.tool_calls)
    content = None if reply.content is None else masker.unmask(reply.content)
    return ChatMessage(reply.role, content, reply.name, reply.tool_call_id, calls)
