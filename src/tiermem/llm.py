"""Chat-model plumbing: message values, the ChatClient protocol, a scripted client and an OpenAI-compatible one.

Errors (from the one tree in ``tiermem.errors``): ``ConfigError`` for a client that cannot be used as configured
(bad URL, timeout, exhausted script), ``LLMError`` when the endpoint fails (transport, HTTP status, timeout) or
replies with the wrong shape.

No LLM is needed by the core; this module is only used where a model helps (extraction, summaries, the agent).
"""

from __future__ import annotations

import copy
import http.client
import json
import math
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from tiermem.errors import ConfigError, LLMError, ValidationError

__all__ = [
    "ChatClient",
    "ChatMessage",
    "ChatResponse",
    "LLMError",
    "OpenAIChatClient",
    "ScriptedClient",
    "ScriptedReply",
    "ToolCall",
    "complete_json",
]

_EXCERPT = 300
_RETRY_BACKOFF = 0.5  # seconds before the one retry when the server gives no Retry-After
_MAX_RETRY_AFTER = 5.0
_RETRYABLE = frozenset({429, 500, 502, 503, 504})
_MAX_RESPONSE_BYTES = 16 * 1024 * 1024  # a chat reply is text; anything larger is a misbehaving server

# Indirection so tests can observe the backoff without waiting for it.
_sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A function call the model asked for; ``arguments`` is the raw JSON string exactly as the API sent it."""

    id: str  # may be empty as received (some servers omit it); a stored Message requires one
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
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.name is not None:
            out["name"] = self.name
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.tool_calls:
            out["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        return out

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
                f"for another (last message: {_excerpt(str(last), 120)!r})"
            )
        reply = self._replies[self._next]
        self._next += 1
        message = reply if isinstance(reply, ChatMessage) else reply(seen)
        if not isinstance(message, ChatMessage):
            raise ConfigError(
                f"ScriptedClient reply {self._next} returned {type(message).__name__}, expected a ChatMessage"
            )
        return ChatResponse(message, "tool_calls" if message.tool_calls else "stop", None, None)


class OpenAIChatClient:
    """Any OpenAI-compatible ``POST {base_url}/chat/completions`` endpoint (OpenAI, Ollama, vLLM, llama.cpp)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 60,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"base_url must start with http:// or https://, given {base_url!r}")
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(f"model must be a non-empty string, given {model!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < math.inf:
            raise ConfigError(f"timeout must be a positive number of seconds, given {timeout!r}")
        if temperature is not None and (
            isinstance(temperature, bool) or not isinstance(temperature, int | float) or not 0 <= temperature <= 2
        ):
            raise ConfigError(f"temperature must be from 0 to 2, given {temperature!r}")
        if max_tokens is not None and (
            isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1
        ):
            raise ConfigError(f"max_tokens must be a positive integer, given {max_tokens!r}")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.timeout = float(timeout)
        self.temperature = temperature
        self.max_tokens = max_tokens
        # Kept private and out of every message and repr: the key must never reach a log.
        self._api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")

    def __repr__(self) -> str:
        return f"OpenAIChatClient(url={self.url!r}, model={self.model!r})"

    def complete(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None
    ) -> ChatResponse:
        """Send the prompt; one retry on 429/5xx; LLMError for transport, HTTP or shape failures."""
        payload = self._post(self._body(messages, tools))
        return self._parse(payload)

    def _body(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None) -> bytes:
        if isinstance(messages, str | bytes) or not messages:
            raise ValidationError("messages", "must be a non-empty list of message objects", given=messages)
        body: dict[str, Any] = {"model": self.model, "messages": list(messages)}
        if tools:
            body["tools"] = list(tools)
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        try:
            return json.dumps(body, ensure_ascii=False).encode("utf-8")
        except (TypeError, ValueError) as exc:
            raise ValidationError("messages", f"must be JSON-serialisable ({exc})") from exc

    def _post(self, body: bytes) -> Any:
        for attempt in (1, 2):
            status, retry_after, raw = self._send(body)
            if status == 200:
                try:
                    return json.loads(raw)
                except ValueError as exc:
                    raise self._error("answered 200 with a body that is not JSON", status, raw) from exc
            if status in _RETRYABLE and attempt == 1:
                _sleep(_retry_delay(retry_after))
                continue
            retried = " after 1 retry" if attempt == 2 else ""
            raise self._error(f"answered HTTP {status}{retried}", status, raw)
        raise AssertionError("unreachable")  # pragma: no cover - the loop always returns or raises

    def _send(self, body: bytes) -> tuple[int, str | None, bytes]:
        """One request: (status, Retry-After, body); transport failures become LLMError."""
        request = urllib.request.Request(self.url, data=body, method="POST")
        request.add_header("Content-Type", "application/json")
        request.add_header("Accept", "application/json")
        if self._api_key:
            request.add_header("Authorization", f"Bearer {self._api_key}")
        try:
            return _exchange(request, self.timeout)
        except TimeoutError as exc:
            raise LLMError(f"POST {self.url} timed out after {self.timeout:g} s", url=self.url) from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise LLMError(f"POST {self.url} timed out after {self.timeout:g} s", url=self.url) from exc
            raise LLMError(f"POST {self.url} failed: {exc.reason}", url=self.url) from exc
        except (OSError, http.client.HTTPException) as exc:
            raise LLMError(f"POST {self.url} failed: {type(exc).__name__}: {exc}", url=self.url) from exc

    def _error(self, what: str, status: int | None, raw: bytes | str) -> LLMError:
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if self._api_key:
            text = text.replace(self._api_key, "***")  # some proxies echo the request back
        excerpt = _excerpt(text, _EXCERPT)
        return LLMError(f"POST {self.url} {what}: {excerpt}", url=self.url, status=status, excerpt=excerpt)

    def _parse(self, payload: Any) -> ChatResponse:
        try:
            choice = payload["choices"][0]
            message = choice["message"]
            content = message.get("content")
            if content is not None and not isinstance(content, str):
                raise TypeError("message.content is not a string")
            calls = tuple(_tool_call(item) for item in message.get("tool_calls") or ())
            usage = payload.get("usage") or {}
            finish = choice.get("finish_reason")
            return ChatResponse(
                ChatMessage(str(message.get("role") or "assistant"), content, tool_calls=calls),
                str(finish) if finish is not None else "unknown",
                _optional_int(usage.get("prompt_tokens")),
                _optional_int(usage.get("completion_tokens")),
            )
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            shown = json.dumps(payload, ensure_ascii=False)
            raise self._error(f"answered 200 without a usable choices[0].message ({exc})", 200, shown) from exc


def _exchange(request: urllib.request.Request, timeout: float) -> tuple[int, str | None, bytes]:
    # An HTTP error status is an answer, not a failure: its body says why, so read it like any other.
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers.get("Retry-After"), response.read(_MAX_RESPONSE_BYTES)
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, exc.headers.get("Retry-After"), exc.read(_MAX_RESPONSE_BYTES)


def _tool_call(item: Any) -> ToolCall:
    function = item["function"]
    arguments = function.get("arguments")
    # Some compatible servers send the arguments as an object; the API contract is a JSON string.
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments if arguments is not None else {})
    name = function["name"]
    if not isinstance(name, str) or not name:
        raise TypeError("tool call without a function name")
    return ToolCall(str(item.get("id") or ""), name, arguments)


def _optional_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _retry_delay(retry_after: str | None) -> float:
    """Seconds to wait before the retry: the server's Retry-After (seconds form) capped at 5 s."""
    if retry_after is not None:
        try:
            seconds = float(retry_after)
        except ValueError:
            seconds = math.nan  # the HTTP-date form: not worth a clock comparison for one short retry
        if math.isfinite(seconds):
            return min(max(seconds, 0.0), _MAX_RETRY_AFTER)
    return _RETRY_BACKOFF


def _excerpt(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


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
        raise LLMError(f"the model's reply is not a JSON object: {_excerpt(raw, _EXCERPT)!r}", excerpt=raw) from exc
    if not isinstance(value, dict):
        raise LLMError(f"the model's reply is JSON but not an object: {_excerpt(raw, _EXCERPT)!r}", excerpt=raw)
    missing = [k for k in keys if k not in value]
    if missing:
        raise LLMError(
            f"the model's JSON lacks the keys {', '.join(missing)}: {_excerpt(raw, _EXCERPT)!r}", excerpt=raw
        )
    return value


def _json_object_text(raw: str) -> str:
    """The outermost {...} of a reply: models wrap JSON in fences or a sentence despite being told not to."""
    start, end = raw.find("{"), raw.rfind("}")
    return raw[start : end + 1] if 0 <= start < end else raw
