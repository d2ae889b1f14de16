"""A real local HTTP imitation of the OpenAI API (chat completions and embeddings) for tests.

It listens on 127.0.0.1 only, on a free port, in a daemon thread; use it as a context manager (or through
``fixture()``) so every test shuts it down. It checks requests the way the real API does (a tool result must
answer an announced tool call, ...), records them with their headers, and answers from a queue the test scripts:
assistant text, tool calls, an HTTP error with a body, raw bytes, each optionally after a delay.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import MappingProxyType, TracebackType
from typing import Any

import pytest

__all__ = ["FakeOpenAI", "RecordedRequest", "ScriptedResponse", "fixture"]

MAX_BODY_BYTES = 8 * 1024 * 1024
MAX_DELAY = 30.0  # a scripted delay never keeps a handler thread longer than this
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
_CHAT = "/v1/chat/completions"
_EMBEDDINGS = "/v1/embeddings"


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Any  # the parsed JSON, or None when it was not JSON
    raw: bytes

    def header(self, name: str) -> str | None:
        """A header by case-insensitive name."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class ScriptedResponse:
    """What to answer one request with: a chat reply (status 200), an error status, or exact raw bytes."""

    status: int = 200
    content: str | None = None
    tool_calls: tuple[tuple[str, str, str], ...] = ()  # (id, name, arguments JSON string)
    finish_reason: str | None = None  # default: "tool_calls" when tool calls are returned, else "stop"
    usage: tuple[int, int] | None = None  # (prompt, completion); default: a deterministic word count
    error_message: str = ""
    raw: bytes | None = None  # sent verbatim instead of a generated body
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    delay: float = 0.0


class FakeOpenAI:
    """A loopback HTTP server that imitates ``POST /v1/chat/completions`` and ``POST /v1/embeddings``."""

    def __init__(self, *, embedding_dim: int = 8) -> None:
        self.embedding_dim = embedding_dim
        self._lock = threading.Lock()
        self._queues: dict[str, deque[ScriptedResponse]] = {_CHAT: deque(), _EMBEDDINGS: deque()}
        self._requests: list[RecordedRequest] = []
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------------------

    def start(self) -> FakeOpenAI:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        if self._server is not None:
            return self
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True  # a handler still sleeping through a delay must not block shutdown
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, wake delayed handlers and release the port."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ending in /v1."""
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not running; use it as a context manager")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    # -- scripting ---------------------------------------------------------------------------------------------

    def reply(
        self,
        content: str,
        *,
        finish_reason: str = "stop",
        usage: tuple[int, int] | None = None,
        delay: float = 0.0,
    ) -> None:
        """Queue an assistant text reply to the next chat request."""
        self._push(_CHAT, ScriptedResponse(content=content, finish_reason=finish_reason, usage=usage, delay=delay))

    def reply_tool_calls(
        self,
        calls: Sequence[tuple[str, str | Mapping[str, Any]]],
        *,
        content: str | None = None,
        ids: Sequence[str] | None = None,
        usage: tuple[int, int] | None = None,
        delay: float = 0.0,
    ) -> list[str]:
        """Queue an assistant reply that calls tools ``(name, arguments)``; returns the call ids it will use."""
        call_ids = list(ids) if ids is not None else [f"call_{next(self._ids):04d}" for _ in calls]
        if len(call_ids) != len(calls):
            raise ValueError(f"{len(calls)} tool calls but {len(call_ids)} ids")
        scripted = tuple(
            (cid, name, args if isinstance(args, str) else json.dumps(args))
            for cid, (name, args) in zip(call_ids, calls, strict=True)
        )
        self._push(_CHAT, ScriptedResponse(content=content, tool_calls=scripted, usage=usage, delay=delay))
        return call_ids

    def fail(
        self,
        status: int,
        message: str = "scripted failure",
        *,
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
        endpoint: str = "chat",
    ) -> None:
        """Queue an HTTP error with an OpenAI-shaped error body (``endpoint``: "chat" or "embeddings")."""
        response = ScriptedResponse(
            status=status, error_message=message, headers=MappingProxyType(dict(headers or {})), delay=delay
        )
        self._push(_path(endpoint), response)

    def reply_raw(
        self,
        body: bytes,
        *,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
        endpoint: str = "chat",
    ) -> None:
        """Queue exact response bytes, for servers that answer something malformed."""
        scripted = ScriptedResponse(status=status, raw=body, headers=MappingProxyType(dict(headers or {})), delay=delay)
        self._push(_path(endpoint), scripted)

    def _push(self, path: str, response: ScriptedResponse) -> None:
        if not 0 <= response.delay <= MAX_DELAY:
            raise ValueError(f"delay must be from 0 to {MAX_DELAY} s, given {response.delay}")
        with self._lock:
            self._queues[path].append(response)

    @property
    def pending(self) -> int:
        """Scripted responses not yet served (all endpoints)."""
        with self._lock:
            return sum(len(q) for q in self._queues.values())

    # -- what was received -------------------------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received, in order (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The requests to /v1/chat/completions."""
        return [r for r in self.requests if r.path == _CHAT]

    # -- serving (called from handler threads) -----------------------------------------------------------------

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next(self, path: str) -> ScriptedResponse | None:
        with self._lock:
            queue = self._queues[path]
            return queue.popleft() if queue else None

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)

    def _embedding(self, text: str) -> list[float]:
        # Deterministic, so tests can compare vectors across calls without a model.
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        while len(digest) < self.embedding_dim:
            digest += hashlib.sha256(digest).digest()
        return [round(b / 127.5 - 1.0, 6) for b in digest[: self.embedding_dim]]


def _path(endpoint: str) -> str:
    paths = {"chat": _CHAT, "embeddings": _EMBEDDINGS}
    if endpoint not in paths:
        raise ValueError(f"endpoint must be 'chat' or 'embeddings', given {endpoint!r}")
    return paths[endpoint]


def fixture(name: str = "fake_openai", *, embedding_dim: int = 8) -> Any:
    """A pytest fixture named ``name`` that yields a running FakeOpenAI and shuts it down afterwards."""

    def serve() -> Iterator[FakeOpenAI]:
        with FakeOpenAI(embedding_dim=embedding_dim) as server:
            yield server

    return pytest.fixture(name=name)(serve)


# -- request checks: the errors the real API gives for malformed requests ---------------------------------------


class _BadRequest(Exception):
    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


def _check_chat(body: Any) -> None:
    if not isinstance(body, dict):
        raise _BadRequest("request body must be a JSON object")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise _BadRequest("you must provide a model parameter", "model")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _BadRequest("'messages' must be a non-empty array", "messages")
    announced: set[str] = set()
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(message, dict) or message.get("role") not in _ROLES:
            raise _BadRequest(f"{where}.role must be one of {sorted(_ROLES)}", where)
        content = message.get("content")
        if content is not None and not isinstance(content, str | list):
            raise _BadRequest(f"{where}.content must be a string, an array of parts or null", where)
        if message["role"] == "assistant":
            calls = message.get("tool_calls")
            if content is None and not calls:
                raise _BadRequest(f"{where}: an assistant message needs content or tool_calls", where)
            for j, call in enumerate(calls or ()):
                if not (
                    isinstance(call, dict)
                    and isinstance(call.get("id"), str)
                    and call.get("type") == "function"
                    and isinstance(call.get("function"), dict)
                    and isinstance(call["function"].get("name"), str)
                    and isinstance(call["function"].get("arguments"), str)
                ):
                    raise _BadRequest(
                        f"{where}.tool_calls[{j}] must be {{id, type: 'function', function: {{name, arguments}}}} "
                        "with arguments as a JSON string",
                        where,
                    )
                announced.add(call["id"])
        elif message["role"] == "tool":
            if not isinstance(message.get("tool_call_id"), str):
                raise _BadRequest(f"{where}: a tool message needs tool_call_id", where)
            if message["tool_call_id"] not in announced:
                raise _BadRequest(
                    f"{where}: messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
                    where,
                )
        elif content is None:
            raise _BadRequest(f"{where}.content is required", where)
    tools = body.get("tools")
    if tools is not None:
        if not isinstance(tools, list) or not tools:
            raise _BadRequest("'tools' must be a non-empty array when given", "tools")
        for j, tool in enumerate(tools):
            if not (
                isinstance(tool, dict)
                and tool.get("type") == "function"
                and isinstance(tool.get("function"), dict)
                and isinstance(tool["function"].get("name"), str)
                and isinstance(tool["function"].get("parameters", {}), dict)
            ):
                raise _BadRequest(f"tools[{j}] must be {{type: 'function', function: {{name, parameters}}}}", "tools")
    temperature = body.get("temperature")
    if temperature is not None and (not isinstance(temperature, int | float) or not 0 <= temperature <= 2):
        raise _BadRequest("temperature must be from 0 to 2", "temperature")
    max_tokens = body.get("max_tokens")
    if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 1):
        raise _BadRequest("max_tokens must be a positive integer", "max_tokens")


def _check_embeddings(body: Any) -> list[str]:
    if not isinstance(body, dict):
        raise _BadRequest("request body must be a JSON object")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise _BadRequest("you must provide a model parameter", "model")
    given = body.get("input")
    texts = [given] if isinstance(given, str) else given
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) and t for t in texts):
        raise _BadRequest("'input' must be a non-empty string or array of non-empty strings", "input")
    if body.get("encoding_format", "float") not in ("float", "base64"):
        raise _BadRequest("encoding_format must be 'float' or 'base64'", "encoding_format")
    return texts


def _words(value: Any) -> int:
    return len(value.split()) if isinstance(value, str) else 0


def _prompt_tokens(body: dict[str, Any]) -> int:
    # Not a tokenizer: a deterministic stand-in so tests can assert usage is passed through.
    return sum(4 + _words(m.get("content")) for m in body["messages"])


def _chat_completion(body: dict[str, Any], scripted: ScriptedResponse, number: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": scripted.content, "refusal": None}
    if scripted.tool_calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
            for cid, name, args in scripted.tool_calls
        ]
    finish = scripted.finish_reason or ("tool_calls" if scripted.tool_calls else "stop")
    if scripted.usage is not None:
        prompt, completion = scripted.usage
    else:
        prompt = _prompt_tokens(body)
        completion = _words(scripted.content) + sum(_words(a) + 3 for _, _, a in scripted.tool_calls)
    return {
        "id": f"chatcmpl-fake{number:06d}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body["model"],
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        "system_fingerprint": "fp_fake",
    }


def _error_body(status: int, message: str, param: str | None = None) -> dict[str, Any]:
    kind = "invalid_request_error" if 400 <= status < 500 else "server_error"
    return {"error": {"message": message, "type": kind, "param": param, "code": None}}


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    counter = itertools.count(1)

    class Handler(BaseHTTPRequestHandler):
        server_version = "fake-openai/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

        def do_GET(self) -> None:
            self._send_json(404, _error_body(404, f"Invalid URL (GET {self.path})"))

        def do_POST(self) -> None:
            if not self.client_address[0].startswith("127."):
                self._send_json(403, _error_body(403, "loopback only"))
                return
            length = self.headers.get("Content-Length")
            if length is None or not length.isdigit():
                self._send_json(411, _error_body(411, "Content-Length required"))
                return
            if int(length) > MAX_BODY_BYTES:
                self._send_json(413, _error_body(413, f"request body over {MAX_BODY_BYTES} bytes"))
                return
            raw = self.rfile.read(int(length))
            try:
                body: Any = json.loads(raw)
            except ValueError:
                body = None
            fake._record(RecordedRequest("POST", self.path, MappingProxyType(dict(self.headers.items())), body, raw))
            routes: dict[str, Callable[[Any], None]] = {_CHAT: self._chat, _EMBEDDINGS: self._embeddings}
            if self.path not in routes:
                self._send_json(404, _error_body(404, f"Invalid URL (POST {self.path})"))
                return
            if "application/json" not in (self.headers.get("Content-Type") or ""):
                self._send_json(415, _error_body(415, "Content-Type must be application/json"))
                return
            if body is None:
                self._send_json(400, _error_body(400, "We could not parse the JSON body of your request."))
                return
            routes[self.path](body)

        def _chat(self, body: Any) -> None:
            try:
                _check_chat(body)
            except _BadRequest as exc:
                self._send_json(400, _error_body(400, str(exc), exc.param))
                return
            scripted = fake._next(_CHAT)
            if scripted is None:
                served = len(fake.chat_requests) - 1
                message = f"fake_openai: no scripted chat reply left ({served} already served)"
                self._send_json(500, _error_body(500, message))
                return
            if not self._scripted_preamble(scripted):
                return
            self._send_json(200, _chat_completion(body, scripted, next(counter)))

        def _embeddings(self, body: Any) -> None:
            try:
                texts = _check_embeddings(body)
            except _BadRequest as exc:
                self._send_json(400, _error_body(400, str(exc), exc.param))
                return
            scripted = fake._next(_EMBEDDINGS)
            if scripted is not None and not self._scripted_preamble(scripted):
                return
            as_base64 = body.get("encoding_format") == "base64"
            data = []
            for i, text in enumerate(texts):
                vector = fake._embedding(text)
                packed = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
                data.append({"object": "embedding", "index": i, "embedding": packed if as_base64 else vector})
            tokens = sum(_words(t) for t in texts)
            usage = {"prompt_tokens": tokens, "total_tokens": tokens}
            self._send_json(200, {"object": "list", "data": data, "model": body["model"], "usage": usage})

        def _scripted_preamble(self, scripted: ScriptedResponse) -> bool:
            """Apply the delay and answer errors and raw bodies; False when the response is already sent."""
            fake._wait(scripted.delay)
            if scripted.raw is not None:
                self._send(scripted.status, scripted.raw, scripted.headers)
                return False
            if scripted.status != 200:
                self._send_json(scripted.status, _error_body(scripted.status, scripted.error_message), scripted.headers)
                return False
            return True

        def _send_json(self, status: int, payload: Any, headers: Mapping[str, str] | None = None) -> None:
            self._send(status, json.dumps(payload).encode(), headers or {})

        def _send(self, status: int, data: bytes, headers: Mapping[str, str]) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("x-request-id", f"req_fake_{id(self):x}")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing left to tell it

    return Handler
