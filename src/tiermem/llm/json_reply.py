"""(internal) Asking a chat model for one JSON object, and checking that it gave one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tiermem.errors import LLMError
from tiermem.llm.messages import EXCERPT, ChatClient, excerpt

__all__ = ["complete_json"]


def complete_json(client: ChatClient, messages: Sequence[dict[str, Any]], schema_keys: Sequence[str]) -> dict[str, Any]:
    """Ask for one JSON object with ``schema_keys`` and return it; LLMError with the raw reply otherwise."""
    keys = list(schema_keys)
    instruction = (
        "Reply with exactly one JSON object and nothing else (no prose, no code fences). "
        f"It must have the keys: {', '.join(keys)}."
    )
    prompt = [dict(m) for m in messages]
    # Extend a leading system message rather than add a second one: some chat templates reject that.
    if prompt and prompt[0].get("role") == "system" and isinstance(prompt[0].get("content"), str):
        prompt[0]["content"] = f"{prompt[0]['content']}\n\n{instruction}"
    else:
        prompt.insert(0, {"role": "system", "content": instruction})
    raw = client.complete(prompt).message.content
    if raw is None:
        raise LLMError("the model answered without text where a JSON object was asked for")
    try:
        value = json.loads(_json_object_text(raw))
    except ValueError as exc:
        raise LLMError(f"the model's reply is not a JSON object: {excerpt(raw, EXCERPT)!r}", excerpt=raw) from exc
    if not isinstance(value, dict):
        raise LLMError(f"the model's reply is JSON but not an object: {excerpt(raw, EXCERPT)!r}", excerpt=raw)
    missing = [k for k in keys if k not in value]
    if missing:
        raise LLMError(f"the model's JSON lacks the keys {', '.join(missing)}: {excerpt(raw, EXCERPT)!r}", excerpt=raw)
    return value


def _json_object_text(raw: str) -> str:
    """The outermost {...} of a reply: models wrap JSON in fences or a sentence despite being told not to."""
    start, end = raw.find("{"), raw.rfind("}")
    return raw[start : end + 1] if 0 <= start < end else raw
