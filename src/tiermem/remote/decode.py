"""(internal) The server's JSON back into the library's values, and its problem+json back into the library's errors."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import httpx

from tiermem import errors
from tiermem.errors import (
    AccessError,
    BusyError,
    ConflictError,
    EmbeddingError,
    EmbeddingMismatchError,
    LLMError,
    MemError,
    NotFoundError,
    RateLimitError,
    StorageFullError,
    StoreError,
    ValidationError,
)
from tiermem.lifecycle.erase import EraseReport
from tiermem.lifecycle.history import record_from_json
from tiermem.recall.related import Connection, Link, Neighbour, Related, RelatedRecord
from tiermem.store.base import AuditEntry, Page, PendingWrite
from tiermem.types import Hit, MemoryRecord, ScorePart, aware_time
from tiermem.write.path import WriteResult, WriteStatus

__all__ = [
    "audit_entry",
    "erase_report",
    "error_from",
    "hit",
    "page",
    "pending",
    "record",
    "related",
    "write_result",
]

_PREFIX = "urn:tiermem:problem:"
# tiermem's error classes by name: what a problem's ``code`` names.
_CLASSES: dict[str, type[MemError]] = {
    name: cls for name, cls in vars(errors).items() if isinstance(cls, type) and issubclass(cls, MemError)
}
# The classes a problem type may stand for: a ``code`` outside its type's families is not trusted.
_FAMILIES: dict[str, tuple[type[MemError], ...]] = {
    "validation": (ValidationError,),
    "conflict": (ConflictError, EmbeddingMismatchError),
    "not-found": (NotFoundError,),
    "storage-full": (StorageFullError,),
    "unavailable": (StoreError, EmbeddingError),
}


def record(data: Mapping[str, Any]) -> MemoryRecord:
    """A record from its JSON."""
    return record_from_json(data)


def write_result(data: Mapping[str, Any]) -> WriteResult:
    """A write's result."""
    return WriteResult(
        WriteStatus(data["status"]),
        record(data["record"]),
        tuple(data["superseded"]),
        tuple(data["reasons"]),
        data.get("pending_id"),
    )


def hit(data: Mapping[str, Any]) -> Hit:
    """A hit with its score parts in order."""
    parts = tuple(ScorePart(p["name"], p["rank"], p["raw"], p["contribution"]) for p in data["parts"])
    return Hit(record(data["record"]), data["score"], parts, tuple(data["flags"]))


def page(data: Mapping[str, Any]) -> Page:
    """A page of a listing."""
    return Page(tuple(record(r) for r in data["records"]), data["next_cursor"])


def audit_entry(data: Mapping[str, Any]) -> AuditEntry:
    """An audit entry."""
    return AuditEntry(
        data["record_id"],
        aware_time("at", data["at"]),
        data["actor"],
        data["op"],
        data["version"],
        data["before"],
        data["after"],
        data["detail"],
        data["seq"],
    )


def pending(data: Mapping[str, Any]) -> PendingWrite:
    """A held write."""
    return PendingWrite(data["id"], aware_time("created_at", data["created_at"]), data["record"], data["reason"])


def erase_report(data: Mapping[str, Any]) -> EraseReport:
    """What an erase removed."""
    removed = MappingProxyType(dict(data["removed"]))
    return EraseReport(data["tenant"], data["user"], removed, data["audit_redacted"], data["scrubbed"])


def related(data: Mapping[str, Any]) -> Related:
    """What ``GET /v1/related`` answers."""
    records = tuple(
        RelatedRecord(
            r["id"],
            r["text"],
            r["kind"],
            r["session"],
            aware_time("created_at", r["created_at"]),
            aware_time("valid_from", r["valid_from"]),
            None if r["valid_to"] is None else aware_time("valid_to", r["valid_to"]),
            tuple(Link(Connection(link["how"]), link["via"]) for link in r["links"]),
        )
        for r in data["records"]
    )
    neighbours = tuple(Neighbour(n["name"], n["count"], tuple(n["record_ids"])) for n in data["neighbours"])
    return Related(data["entity"], records, neighbours)


def _validation(field: str, detail: str, given: Any, limit: Any) -> ValidationError:
    error = ValidationError(field, detail, given=given, limit=limit)
    error.args = (detail,)  # the server's message already names the field, the limit and what was given
    return error


def _as_coded(error: MemError, kind: str, body: Mapping[str, Any], response: httpx.Response) -> MemError:
    """``error`` as the class the problem's ``code`` names, when that class is one its type stands for."""
    cls = _CLASSES.get(str(body.get("code", "")))
    if cls is None or cls is type(error) or not issubclass(cls, _FAMILIES.get(kind, ())):
        return error
    coded = cls.__new__(cls, *error.args)  # its own __init__ would write its message anew: the server's is kept
    coded.__dict__.update(error.__dict__)
    if isinstance(coded, errors.SecretRefusedError):
        coded.kinds = tuple(body.get("kinds") or ())
    if isinstance(coded, errors.InjectionRefusedError):
        coded.score, coded.reasons = float(body.get("score") or 0.0), tuple(body.get("reasons") or ())
    if isinstance(coded, BusyError):
        coded.retry_after = float(response.headers.get("retry-after", "1"))
    return coded


def error_from(response: httpx.Response) -> MemError:
    """The library error a failed response stands for (the same class the embedded Memory raises)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict) or not str(body.get("type", "")).startswith(_PREFIX):
        return StoreError(f"the server answered {response.status_code} without a problem report: {response.text[:200]}")
    kind = str(body["type"]).removeprefix(_PREFIX)
    return _as_coded(_error_of_type(kind, body, response), kind, body, response)


def _error_of_type(kind: str, body: Mapping[str, Any], response: httpx.Response) -> MemError:
    """The library error a problem's type stands for."""
    detail = str(body.get("detail", ""))
    field, given, limit = str(body.get("field") or "body"), body.get("given"), body.get("limit")
    if kind in ("validation", "malformed", "too-large", "precondition-required"):
        return _validation(field, detail, given, limit)
    simple: dict[str, type[MemError]] = {
        "not-found": NotFoundError,
        "conflict": ConflictError,
        "precondition-failed": ConflictError,
        "storage-full": StorageFullError,
        "unavailable": StoreError,
    }
    if kind in simple:
        return simple[kind](detail)
    if kind in ("unauthorized", "forbidden"):
        return AccessError(detail, authenticated=kind == "forbidden")
    if kind == "rate-limited":
        return RateLimitError(detail, retry_after=float(response.headers.get("retry-after", "1")))
    if kind == "upstream":
        return LLMError(detail, status=response.status_code)
    return StoreError(f"the server failed ({response.status_code}): {detail}")
