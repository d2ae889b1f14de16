"""The write path: validate → normalise → exact-duplicate check → embed → put, all-or-nothing per batch."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from types import MappingProxyType

from tiermem.embed import Embedder
from tiermem.errors import ValidationError
from tiermem.store.base import Store, StoredItem
from tiermem.types import (
    MemoryRecord,
    MemoryType,
    MetaValue,
    Scope,
    Source,
    check_tags,
    content_hash,
    new_id,
    normalise_text,
)

__all__ = [
    "MAX_BATCH",
    "MAX_CONTENT_CHARS",
    "MAX_METADATA_BYTES",
    "NewMemory",
    "WriteResult",
    "WriteStatus",
    "write_many",
]

MAX_CONTENT_CHARS = 16_000
MAX_METADATA_BYTES = 8_192
MAX_BATCH = 10_000
MAX_TTL = timedelta(days=365 * 100)


class WriteStatus(StrEnum):
    """What a write did."""

    ADDED = "added"
    UNCHANGED = "unchanged"  # the same text already existed in this scope and type


@dataclass(frozen=True, slots=True)
class NewMemory:
    """A memory to be written; ``ttl`` in seconds or a timedelta, ``valid_from`` defaults to now."""

    content: str
    type: MemoryType | str = MemoryType.SEMANTIC
    source: Source | str = "user"
    tags: Sequence[str] = ()
    ttl: timedelta | float | None = None
    valid_from: datetime | None = None
    metadata: Mapping[str, MetaValue] = field(default_factory=dict)
    dedupe: bool = True  # False for streams where repeats are real events (chat messages)


@dataclass(frozen=True, slots=True)
class WriteResult:
    """The stored record and what the write did to it."""

    status: WriteStatus
    record: MemoryRecord


def _ttl(value: timedelta | float | None) -> timedelta | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, timedelta | int | float):
        raise ValidationError("ttl", "must be seconds or a timedelta", given=value)
    ttl = value if isinstance(value, timedelta) else timedelta(seconds=float(value))
    seconds = ttl.total_seconds()
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValidationError("ttl", "must be > 0 seconds", given=seconds)
    if ttl > MAX_TTL:
        raise ValidationError("ttl", "is too long", given=f"{seconds:.0f} s", limit=f"{MAX_TTL.days} days")
    return ttl


def _metadata(value: Mapping[str, MetaValue]) -> Mapping[str, MetaValue]:
    if not isinstance(value, Mapping):
        raise ValidationError("metadata", "must be a mapping of names to scalars", given=value)
    for key, item in value.items():
        if not isinstance(key, str) or not key or len(key) > 64:
            raise ValidationError("metadata", "keys are non-empty strings of at most 64 characters", given=key)
        if item is not None and not isinstance(item, str | int | float | bool):
            raise ValidationError("metadata", f"value of '{key}' must be a string, number, boolean or null", given=item)
    size = len(json.dumps(dict(value)).encode())
    if size > MAX_METADATA_BYTES:
        raise ValidationError("metadata", "is too large", given=f"{size} bytes", limit=f"{MAX_METADATA_BYTES} bytes")
    return MappingProxyType(dict(value))


def prepare(scope: Scope, item: NewMemory, now: datetime, fingerprint: str | None) -> MemoryRecord:
    """A validated record for ``item`` (raises ValidationError naming the field; writes nothing)."""
    if not isinstance(scope, Scope):
        raise ValidationError("scope", "must be a Scope", given=type(scope).__name__)
    if not isinstance(item.content, str):
        raise ValidationError("content", "must be a string", given=type(item.content).__name__)
    text = normalise_text(item.content)
    if not text:
        raise ValidationError("content", "must not be empty")
    if len(text) > MAX_CONTENT_CHARS:
        raise ValidationError("content", "is too long", given=f"{len(text)} characters", limit=MAX_CONTENT_CHARS)
    source = Source.parse(item.source)
    ttl = _ttl(item.ttl)
    valid_from = item.valid_from or now
    if valid_from.tzinfo is None:
        raise ValidationError("valid_from", "must be timezone-aware", given=valid_from.isoformat())
    return MemoryRecord(
        id=new_id(),
        scope=scope,
        type=MemoryType.parse(item.type),
        content=text,
        source=source,
        trust=source.trust,
        created_at=now,
        updated_at=now,
        valid_from=valid_from,
        expires_at=None if ttl is None else now + ttl,
        content_hash=content_hash(text),
        embedding_model=fingerprint,
        tags=check_tags(item.tags),
        metadata=_metadata(item.metadata),
    )


def write_many(
    store: Store, embedder: Embedder | None, scope: Scope, items: Sequence[NewMemory], now: datetime
) -> list[WriteResult]:
    """Write a batch: every item is validated before anything is stored; exact duplicates add no row."""
    if len(items) > MAX_BATCH:
        raise ValidationError("items", "batch is too large", given=len(items), limit=MAX_BATCH)
    fingerprint = embedder.fingerprint if embedder is not None else None
    prepared = [prepare(scope, item, now, fingerprint) for item in items]
    results: list[WriteResult | None] = [None] * len(prepared)
    dedupe = [item.dedupe for item in items]
    new_indexes = _dedupe(store, scope, prepared, results, dedupe)
    # Embed outside the transaction so a slow model never holds the write lock.
    texts = [prepared[i].content for i in new_indexes]
    vectors = embedder.embed_batch(texts) if embedder is not None and texts else None
    with store.transaction():
        vector_of = {i: (None if vectors is None else vectors[j]) for j, i in enumerate(new_indexes)}
        new_indexes = _dedupe(store, scope, prepared, results, dedupe, only=new_indexes)  # a racing writer may have won
        store.put_many([StoredItem(prepared[i], vector_of[i]) for i in new_indexes])
    for i in new_indexes:
        results[i] = WriteResult(WriteStatus.ADDED, prepared[i])
    return [r for r in results if r is not None]


def _dedupe(
    store: Store,
    scope: Scope,
    prepared: list[MemoryRecord],
    results: list[WriteResult | None],
    dedupe: list[bool],
    only: list[int] | None = None,
) -> list[int]:
    """Mark exact duplicates (stored, or earlier in the batch) as UNCHANGED; return the indexes still new."""
    indexes = [i for i in (range(len(prepared)) if only is None else only) if dedupe[i]]
    always_new = [i for i in (range(len(prepared)) if only is None else only) if not dedupe[i]]
    by_type: dict[MemoryType, list[int]] = {}
    for i in indexes:
        by_type.setdefault(prepared[i].type, []).append(i)
    first: dict[tuple[MemoryType, str], MemoryRecord] = {}
    new: list[int] = []
    for type_, group in by_type.items():
        existing = store.find_by_hash(scope, type_, [prepared[i].content_hash for i in group])
        for i in group:
            digest = prepared[i].content_hash
            if digest in existing:
                results[i] = WriteResult(WriteStatus.UNCHANGED, existing[digest])
            elif (type_, digest) in first:
                results[i] = WriteResult(WriteStatus.UNCHANGED, first[(type_, digest)])
            else:
                first[(type_, digest)] = prepared[i]
                new.append(i)
    return sorted(new + always_new)
