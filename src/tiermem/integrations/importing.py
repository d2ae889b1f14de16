"""(internal) What the importers from other memory systems share: reading fields, naming where an error is, counts.

An importer reads another system's file into tiermem's own write calls (``Memory.remember_many``,
``Memory.remember_messages``, ``CoreMemory.define``), so every record passes the write path as any other write
does; nothing is inserted behind it. Each error names the place in the file (``results[3].user_id``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from tiermem.errors import ValidationError
from tiermem.types import MetaValue, Scope, aware_time, check_tags
from tiermem.write.path import MAX_CONTENT_CHARS, WriteResult, WriteStatus

__all__ = [
    "ImportSummary",
    "counted",
    "flat_metadata",
    "optional_text",
    "scope_at",
    "tags_at",
    "text_at",
    "time_at",
]


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What an import wrote, by kind (``records added``, ``core blocks defined``...), and where to."""

    source: str
    counts: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    scopes: tuple[Scope, ...] = ()


_OUTCOMES = {
    WriteStatus.ADDED: "added",
    WriteStatus.SUPERSEDED: "added",  # added, closing the validity of an older fact it replaces
    WriteStatus.UNCHANGED: "already stored",
    WriteStatus.MERGED: "merged into a stored paraphrase",
    WriteStatus.PENDING: "held for approval",
}


def counted(results: list[WriteResult], what: str) -> dict[str, int]:
    """How many of ``what`` each outcome had (``records added``, ``records already stored``...)."""
    out = {f"{what} added": 0, f"{what} already stored": 0}
    for result in results:
        key = f"{what} {_OUTCOMES[result.status]}"
        out[key] = out.get(key, 0) + 1
    return out


def optional_text(item: Mapping[str, Any], key: str, where: str) -> str | None:
    """``item[key]`` as a string, or None when it is missing or null."""
    value = item.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{where}.{key}", "must be a string", given=value)
    return value


def text_at(item: Mapping[str, Any], key: str, where: str) -> str:
    """The required, non-empty text ``item[key]``, within the length a record may hold."""
    value = optional_text(item, key, where)
    if value is None or not value.strip():
        raise ValidationError(f"{where}.{key}", "is required and must not be empty", given=value)
    if len(value) > MAX_CONTENT_CHARS:
        raise ValidationError(
            f"{where}.{key}", "is longer than a record may be", given=len(value), limit=MAX_CONTENT_CHARS
        )
    return value


def time_at(item: Mapping[str, Any], key: str, where: str) -> datetime | None:
    """``item[key]`` as an ISO 8601 time with an offset (None when missing)."""
    value = optional_text(item, key, where)
    return None if value is None else aware_time(f"{where}.{key}", value)


def tags_at(item: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    """``item[key]`` as tiermem tags (none when missing)."""
    value = item.get(key) or []
    if not isinstance(value, list):
        raise ValidationError(f"{where}.{key}", "must be a list of strings", given=value)
    try:
        return check_tags(value)
    except ValidationError as exc:
        raise ValidationError(f"{where}.{key}", exc.problem, given=exc.given, limit=exc.limit) from None


def scope_at(where: str, tenant: str, user: str | None, agent: str | None, session: str | None) -> Scope:
    """The scope of an imported item; an id tiermem cannot use names the item."""
    try:
        return Scope(tenant, user, agent, session)
    except ValidationError as exc:
        raise ValidationError(f"{where} ({exc.field})", exc.problem, given=exc.given, limit=exc.limit) from None


def flat_metadata(value: object, where: str) -> dict[str, MetaValue]:
    """Another system's metadata as tiermem's flat metadata: scalars kept, anything else as JSON text."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValidationError(where, "must be an object", given=type(value).__name__)
    out: dict[str, MetaValue] = {}
    for key, item in value.items():
        scalar = item is None or isinstance(item, str | int | float | bool)
        out[str(key)] = item if scalar else json.dumps(item, ensure_ascii=False, sort_keys=True)
    return out
