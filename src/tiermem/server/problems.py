"""(internal) Every error as ``application/problem+json`` (RFC 9457): the one place errors become HTTP statuses.

ValidationError, ScopeError, bad request bodies  422  (field, limit, given)
malformed JSON                                   400
AccessError                                      401 (WWW-Authenticate) / 403 once the caller is known
NotFoundError                                    404  (another tenant's id reads exactly like a missing one)
ConflictError, EmbeddingMismatchError            409  (BusyError: Retry-After)
a stale If-Match / a missing one                 412 / 428
a body over the size limit                       413
RateLimitError                                   429  (Retry-After)
LLMError                                         502
StorageFullError                                 507
StoreError, EmbeddingError                       503  (Retry-After; a store's detail names no database)
anything else                                    500  (no detail: it is logged, not shown)

A library error's problem also carries ``code``, the name of its class in tiermem.errors (``SecretRefusedError``),
so the remote client raises the class the embedded Memory raises.
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from tiermem.errors import (
    AccessError,
    BusyError,
    ConfigError,
    ConflictError,
    EmbeddingError,
    EmbeddingMismatchError,
    InjectionRefusedError,
    LLMError,
    MemError,
    MigrationError,
    NotFoundError,
    RateLimitError,
    SecretRefusedError,
    StorageFullError,
    StoreError,
    ValidationError,
    shown,
    shown_name,
)

__all__ = [
    "MEDIA_TYPE",
    "WWW_AUTHENTICATE",
    "PreconditionError",
    "install",
    "problem",
    "problem_for",
    "public_detail",
    "slug_for",
    "status_for",
    "unexpected",
]

MEDIA_TYPE = "application/problem+json"
WWW_AUTHENTICATE = 'Bearer realm="tiermem"'  # the challenge of every 401, /v1 and /mcp alike
TYPE_PREFIX = "urn:tiermem:problem:"
_GIVEN_CHARS = 200
_log = logging.getLogger("tiermem.server")

_TITLES = {
    400: "Malformed request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    412: "Precondition failed",
    413: "Request body too large",
    415: "Unsupported media type",
    422: "Invalid input",
    428: "Precondition required",
    429: "Too many requests",
    500: "Internal error",
    502: "Bad gateway",
    503: "Service unavailable",
    507: "Insufficient storage",
}
_SLUGS = {
    400: "malformed",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    412: "precondition-failed",
    413: "too-large",
    415: "unsupported-media-type",
    422: "validation",
    428: "precondition-required",
    429: "rate-limited",
    500: "internal",
    502: "upstream",
    503: "unavailable",
    507: "storage-full",
}


class PreconditionError(MemError):
    """An If-Match that is missing (428) or names a version that is no longer current (412)."""

    def __init__(self, message: str, *, status: int, given: str | None, current: int | None) -> None:
        self.status = status
        self.given = given
        self.current = current
        super().__init__(message)


def slug_for(status: int) -> str:
    """The problem type's last part for a status."""
    return _SLUGS.get(status, "error")


def _short(value: Any) -> Any:
    """``value`` as JSON can carry it, long text cut (a problem never echoes a whole body back)."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    text = _safe(value if isinstance(value, str) else repr(value))
    return text if len(text) <= _GIVEN_CHARS else text[: _GIVEN_CHARS - 3] + "..."


def _safe(text: str) -> str:
    """``text`` as UTF-8 can carry it (a lone surrogate the caller sent is shown escaped)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def problem(
    status: int,
    detail: str,
    *,
    request: Request | None = None,
    headers: dict[str, str] | None = None,
    **members: Any,
) -> Response:
    """A problem+json response; ``members`` (code, field, limit, given, errors...) are added when not None."""
    # Every problem passes here: none repeats a credential, in its wording, a field's name or a value given.
    field = members.get("field")
    if isinstance(field, str):
        members["field"] = shown_name(field)
    if "given" in members:
        members["given"] = shown(members["given"], field if isinstance(field, str) else None)
    body: dict[str, Any] = {
        "type": TYPE_PREFIX + slug_for(status),
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": _safe(shown_name(detail)),
    }
    for name, value in members.items():
        if value is not None:
            if name == "errors":
                body[name] = [{**e, "field": shown_name(str(e.get("field", "")))} for e in value]
            elif isinstance(value, list):  # a refusal's kinds or reasons: each cut like a given
                body[name] = [_short(item) for item in value]
            else:
                body[name] = _short(value)
    request_id = getattr(request.state, "request_id", None) if request is not None else None
    if request_id:
        body["request_id"] = request_id
    return JSONResponse(body, status_code=status, headers=headers, media_type=MEDIA_TYPE)


def status_for(exc: MemError) -> int:
    """The HTTP status of a library error: the API's and the inspector's alike."""
    if isinstance(exc, ValidationError):
        return 422
    if isinstance(exc, AccessError):
        return 403 if exc.authenticated else 401
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, ConflictError | EmbeddingMismatchError):
        return 409
    if isinstance(exc, PreconditionError):
        return exc.status
    if isinstance(exc, RateLimitError):
        return 429
    if isinstance(exc, LLMError):
        return 502
    if isinstance(exc, StorageFullError):
        return 507
    if isinstance(exc, MigrationError | ConfigError):
        return 500
    if isinstance(exc, StoreError | EmbeddingError):
        return 503
    return 500


async def problem_for(request: Request, exc: MemError) -> Response:
    """The problem+json answer to a library error (what every route's MemError becomes)."""
    status = status_for(exc)
    headers: dict[str, str] = {}
    members: dict[str, Any] = {}
    if isinstance(exc, ValidationError):
        members = {"field": exc.field, "limit": exc.limit, "given": exc.given, **_refusal(exc)}
    elif isinstance(exc, AccessError) and status == 401:
        headers["WWW-Authenticate"] = WWW_AUTHENTICATE
    elif isinstance(exc, RateLimitError):
        headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        members = {"limit": "requests per credential", "given": None}
    elif isinstance(exc, BusyError):
        headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
    elif isinstance(exc, PreconditionError):
        members = {"field": "If-Match", "given": exc.given, "limit": exc.current}
    elif isinstance(exc, StoreError | EmbeddingError) and status == 503:
        headers["Retry-After"] = "1"
    members["code"] = error_code(exc)
    return problem(status, public_detail(request, exc, status), request=request, headers=headers, **members)


def error_code(exc: MemError) -> str:
    """The name of ``exc``'s class, or of its nearest base, in tiermem.errors (a server-only error's base)."""
    return next(cls.__name__ for cls in type(exc).__mro__ if cls.__module__ == MemError.__module__)


def _refusal(exc: ValidationError) -> dict[str, Any]:
    """What a refusal carries besides field, limit and given: the kinds of a credential, an injection's score."""
    if isinstance(exc, SecretRefusedError):
        return {"kinds": list(exc.kinds)}
    if isinstance(exc, InjectionRefusedError):
        return {"score": exc.score, "reasons": list(exc.reasons)}
    return {}


def public_detail(request: Request, exc: MemError, status: int) -> str:
    """What the caller may read of ``exc``; a store's cause and a server failure go to the log instead."""
    if isinstance(exc, StoreError) and status == 503:
        # The cause names the database (role, host, socket, schema, file): the log's to keep, not the client's.
        _log.warning("store unavailable (request %s): %s", getattr(request.state, "request_id", "-"), exc)
        return f"{exc.public or 'the store is unavailable'}; retry (the server's log has the cause)"
    if status >= 500 and status not in (502, 503, 507):
        _log.error("request failed: %s", exc, exc_info=exc)
        return "the server failed; the request id names it in the server's log"
    return str(exc)


def _field(loc: tuple[Any, ...]) -> str:
    parts = list(loc)
    if parts and parts[0] in ("body", "query", "path", "header"):
        parts = parts[1:]
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "body"


# What pydantic puts after a field's name for a union's member: a type's name, or a validator's description.
_UNION_MEMBER = re.compile(r"^(?:str|int|float|bool|none)$|[\[\]()<>]")
_SCOPE_PARAMS = frozenset((where, part) for where in ("query", "path") for part in ("user", "agent", "session"))
_LIMIT_KEYS = ("max_length", "min_length", "le", "lt", "ge", "gt", "pattern", "expected")


def _unions_merged(errors: list[Any]) -> list[Any]:
    """``errors`` with a union's failures (one per allowed type, each located under the type's name, as pydantic
    reports a metadata value of none of them) merged into one error at the field itself."""
    members: dict[tuple[Any, ...], list[Any]] = {}
    for e in errors:
        loc = tuple(e.get("loc", ()))
        if len(loc) > 1 and isinstance(loc[-1], str) and _UNION_MEMBER.search(loc[-1]):
            members.setdefault(loc[:-1], []).append(e)
    out: list[Any] = []
    for e in errors:
        loc = tuple(e.get("loc", ()))
        group = members.get(loc[:-1]) if loc else None
        if group is None or len(group) < 2 or e not in group:
            out.append(e)
        elif e is group[0]:
            types = ", ".join(dict.fromkeys(_member_name(str(m["loc"][-1])) for m in group))
            out.append({**e, "loc": loc[:-1], "type": "union", "msg": f"must be one of: {types}", "ctx": {}})
    return out


def _member_name(tag: str) -> str:
    """A union member's plain type name from pydantic's tag (``function-after[..., str]`` is a string)."""
    for name, plain in (("str", "a string"), ("int", "an integer"), ("float", "a number"), ("bool", "a boolean")):
        if re.search(rf"\b{name}\b", tag):
            return plain
    return "null" if "none" in tag.lower() else tag


def _request_invalid(request: Request, exc: RequestValidationError) -> Response:
    errors = _unions_merged(list(exc.errors()))
    if any(e.get("type") == "json_invalid" for e in errors):
        first = next(e for e in errors if e.get("type") == "json_invalid")
        why = (first.get("ctx") or {}).get("error", "not JSON")
        return problem(400, f"the body is not valid JSON: {why}", request=request, field="body")
    listed = [{"field": _field(tuple(e.get("loc", ()))), "problem": str(e.get("msg", ""))} for e in errors[:20]]
    first = errors[0] if errors else {}
    ctx = first.get("ctx") or {}
    limit = next((ctx[k] for k in _LIMIT_KEYS if k in ctx), None)
    field = listed[0]["field"] if listed else "body"
    kind = first.get("type")
    message = "unknown field" if kind == "extra_forbidden" else str(first.get("msg", "invalid"))
    given = None if kind == "missing" else first.get("input")
    if isinstance(given, dict | list):
        given = f"{type(given).__name__} of {len(given)}"
    # A scope's part in the query or path is what the embedded library refuses with ScopeError.
    scoped = tuple(first.get("loc", ()))[:2] in _SCOPE_PARAMS
    code = "ScopeError" if scoped else "ValidationError"
    return problem(
        422, f"{field}: {message}", request=request, field=field, limit=limit, given=given, errors=listed, code=code
    )


def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
    detail = exc.detail if isinstance(exc.detail, str) else _TITLES.get(exc.status_code, "error")
    if exc.status_code == 404:
        detail = f"no route {request.url.path}"
    return problem(exc.status_code, detail, request=request, headers=dict(exc.headers or {}))


async def unexpected(request: Request, exc: Exception) -> Response:
    """The 500 problem for an error nothing else handled; the error goes to the log."""
    _log.error("request failed: %s", exc, exc_info=exc)
    return problem(500, "the server failed; the request id names it in the server's log", request=request)


async def _answer(request: Request, exc: Exception) -> Response:
    """The problem for any error a route raised, by its kind."""
    if isinstance(exc, MemError):
        return await problem_for(request, exc)
    if isinstance(exc, RequestValidationError):
        return _request_invalid(request, exc)
    if isinstance(exc, StarletteHTTPException):
        return _http_error(request, exc)
    return await unexpected(request, exc)


def install(app: Any) -> None:
    """Register the handlers on a FastAPI app."""
    for kind in (MemError, RequestValidationError, StarletteHTTPException, Exception):
        app.add_exception_handler(kind, _answer)
