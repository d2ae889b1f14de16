"""(internal) A client of any OpenAI-compatible chat endpoint, with the outbound gate in its every call."""

from __future__ import annotations

import http.client
import json
import math
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

from tiermem.errors import ConfigError, LLMError, ValidationError
from tiermem.llm.messages import EXCERPT, ChatMessage, ChatResponse, ToolCall, excerpt
from tiermem.llm.outbound import PiiMask, is_loopback_url, masked_call
from tiermem.trust.pii import PiiCounter

__all__ = ["OpenAIChatClient"]

_RETRY_BACKOFF = 0.5  # seconds before the one retry when the server gives no Retry-After
_MAX_RETRY_AFTER = 5.0
_RETRYABLE = frozenset({429, 500, 502, 503, 504})
_MAX_RESPONSE_BYTES = 16 * 1024 * 1024  # a chat reply is text; anything larger is a misbehaving server

# Indirection so tests can observe the backoff without waiting for it.
_sleep: Callable[[float], None] = time.sleep


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
        pii_mask: PiiMask | str = PiiMask.REMOTE,
        pii_counter: PiiCounter | None = None,
    ) -> None:
        """``pii_mask``: when prompts are masked (``PiiMask``; every masked value is also counted in
        ``trust.pii.PROCESS_PII_COUNTS`` and in ``pii_counter``)."""
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
        try:
            mode = PiiMask(pii_mask)
        except ValueError:
            choices = ", ".join(m.value for m in PiiMask)
            raise ConfigError(f"pii_mask must be one of {choices}, given {pii_mask!r}") from None
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.pii_mask = mode
        self.masks_pii = mode is PiiMask.ALWAYS or (mode is PiiMask.REMOTE and not is_loopback_url(self.url))
        self._pii_counter = pii_counter
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
        """Send the prompt (masked as ``pii_mask`` says); one retry on 429/5xx; LLMError for transport, HTTP or
        shape failures."""
        if self.masks_pii:
            return masked_call(self._send_prompt, messages, tools, self._pii_counter)
        return self._send_prompt(messages, tools)

    def _send_prompt(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None) -> ChatResponse:
        return self._parse(self._post(self._body(messages, tools)))

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
        shown = excerpt(text, EXCERPT)
        return LLMError(f"POST {self.url} {what}: {shown}", url=self.url, status=status, excerpt=shown)

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
