"""Mem0 memories into tiermem: a ``get_all`` result (or its list of items) stored with ``Memory.remember_many``.

Mem0 returns ``{"results": [item, ...]}`` (older versions and its platform's list calls: the bare list), each
item a memory with ``id``, ``memory`` (the text), ``hash``, ``metadata``, ``created_at``, ``updated_at`` and the
ids Mem0 scopes by, ``user_id``, ``agent_id`` and ``run_id`` (plus ``actor_id`` and ``role`` when it came from a
conversation; ``expiration_date`` on Mem0's platform). An item becomes one record:

- scope ``(tenant, user_id, agent_id, run_id as the session)``; an item without one of them takes the default
  given (``tiermem import --user/--agent/--session``), else none (no user: the tenant's shared memory);
- the text as a semantic record (procedural when Mem0's metadata says ``memory_type: procedural_memory``), from
  source ``import:mem0``, valid from the time Mem0 last set its text (``updated_at``, else ``created_at``);
- Mem0's metadata kept (scalars as they are, other values as JSON text), with ``mem0_id``, ``mem0_hash``,
  ``mem0_created_at``, ``mem0_updated_at`` (and ``mem0_actor_id``, ``mem0_role`` when present);
- an ``expiration_date`` becomes the record's expiry; an item already expired is not imported.

Items are written oldest first, so when one supersedes another the newer one stays current, as in Mem0. Every
item is checked before anything is written; then each scope's items are one write, which the write gate judges
whole (a credential in one refuses that scope's write, and the scopes written before it are kept). Importing the
same file again adds only what is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from tiermem.errors import ValidationError
from tiermem.integrations.importing import (
    ImportSummary,
    counted,
    flat_metadata,
    optional_text,
    scope_at,
    text_at,
    time_at,
)
from tiermem.memory import Memory
from tiermem.types import MemoryType, MetaValue, Scope, utcnow
from tiermem.write.conversation import distinct_keys
from tiermem.write.path import NewMemory

__all__ = ["SOURCE", "Mem0Defaults", "import_mem0", "read_mem0"]

SOURCE = "import:mem0"
_PROCEDURAL = "procedural_memory"  # Mem0's memory_type of a procedural memory
_CARRIED = ("id", "hash", "actor_id", "role")  # kept as mem0_<name>


@dataclass(frozen=True, slots=True)
class Mem0Defaults:
    """Where items that do not name their own user, agent or run go."""

    tenant: str = "default"
    user: str | None = None
    agent: str | None = None
    session: str | None = None


@dataclass(frozen=True, slots=True)
class _Item:
    """One Mem0 memory, read and checked: where it goes and what it becomes."""

    scope: Scope
    memory: NewMemory
    at: datetime


def _items(data: object) -> list[Any]:
    if isinstance(data, Mapping) and isinstance(data.get("results"), list):
        return list(data["results"])
    if isinstance(data, list):
        return data
    raise ValidationError(
        "file", "must be a Mem0 get_all result ({'results': [...]}) or a list of its memories", given=type(data)
    )


def _expiry(item: Mapping[str, Any], where: str, now: datetime) -> float | None:
    """Seconds until Mem0's ``expiration_date`` (a date or a time); 0 when it has passed; None when none."""
    text = optional_text(item, "expiration_date", where)
    if text is None:
        return None
    try:
        at = (
            datetime.combine(date.fromisoformat(text), time.max, UTC)
            if len(text) == 10
            else datetime.fromisoformat(text.replace("Z", "+00:00"))
        )
    except ValueError:
        raise ValidationError(f"{where}.expiration_date", "must be an ISO 8601 date or time", given=text) from None
    at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return max((at - now).total_seconds(), 0.0)


def _read_item(raw: object, where: str, defaults: Mem0Defaults, now: datetime) -> _Item | None:
    if not isinstance(raw, Mapping):
        raise ValidationError(where, "must be an object (a Mem0 memory)", given=type(raw).__name__)
    text = text_at(raw, "memory", where)
    ids = {key: optional_text(raw, key, where) for key in ("user_id", "agent_id", "run_id")}
    scope = scope_at(
        where,
        defaults.tenant,
        ids["user_id"] or defaults.user,
        ids["agent_id"] or defaults.agent,
        ids["run_id"] or defaults.session,
    )
    created, updated = time_at(raw, "created_at", where), time_at(raw, "updated_at", where)
    metadata: dict[str, MetaValue] = flat_metadata(raw.get("metadata"), f"{where}.metadata")
    kind = MemoryType.PROCEDURAL if metadata.get("memory_type") == _PROCEDURAL else MemoryType.SEMANTIC
    for key in _CARRIED:
        value = raw.get(key)
        if value is not None:
            metadata[f"mem0_{key}"] = str(value)
    for key, value in (("mem0_created_at", created), ("mem0_updated_at", updated)):
        if value is not None:
            metadata[key] = value.isoformat()
    ttl = _expiry(raw, where, now)
    if ttl == 0.0:
        return None
    at = updated or created
    memory = NewMemory(text, kind, SOURCE, (), ttl, at, metadata)
    return _Item(scope, memory, at or now)


def read_mem0(data: object, defaults: Mem0Defaults = Mem0Defaults()) -> tuple[list[tuple[Scope, NewMemory]], int]:
    """The memories of a Mem0 file as (scope, memory) pairs, oldest first, and how many had expired."""
    now = utcnow()
    read = [_read_item(raw, f"results[{i}]", defaults, now) for i, raw in enumerate(_items(data))]
    kept = sorted((item for item in read if item is not None), key=lambda item: item.at)
    return [(item.scope, item.memory) for item in kept], read.count(None)


def _key(item: NewMemory) -> str:
    """The statement a Mem0 memory makes, for ``Memory.remember_keyed``: its Mem0 id, else its text."""
    mem0_id = item.metadata.get("mem0_id") if item.metadata else None
    return f"mem0:{mem0_id}" if isinstance(mem0_id, str) and mem0_id else f"mem0-text:{item.content}"


def import_mem0(memory: Memory, data: object, defaults: Mem0Defaults = Mem0Defaults()) -> ImportSummary:
    """Store the memories of a Mem0 file, each in its scope, through the write path; every item checked first."""
    pairs, expired = read_mem0(data, defaults)
    by_scope: dict[Scope, list[NewMemory]] = {}
    for scope, item in pairs:
        by_scope.setdefault(scope, []).append(item)
    # Each memory is keyed by its Mem0 id (or its text): a file imported again, or by two importers at once, states
    # nothing anew, even a memory a later one has since superseded.
    results = [
        result
        for scope, items in by_scope.items()
        for result in memory.remember_keyed(scope, items, distinct_keys([_key(item) for item in items]))
    ]
    counts = {**counted(results, "records"), "expired (not imported)": expired}
    return ImportSummary(SOURCE, counts, tuple(by_scope))
