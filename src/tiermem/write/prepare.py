"""(internal) A write's item validated and made a record: the limits, ``NewMemory`` and ``prepare`` (writes nothing)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType

from tiermem.errors import ValidationError
from tiermem.message import Quoting
from tiermem.text_rules import check_encodable, check_name, check_visible
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

__all__ = ["MAX_BATCH", "MAX_CONTENT_CHARS", "MAX_METADATA_BYTES", "MAX_TTL", "NewMemory", "prepare"]

MAX_CONTENT_CHARS = 16_000
MAX_METADATA_BYTES = 8_192
MAX_BATCH = 10_000
MAX_TTL = timedelta(days=365 * 100)


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
    supersedes: str | None = None  # an explicit replacement: always honoured
    # Text that helps find this memory but is not part of it (e.g. the turn before a message): it is full-text
    # indexed beside the content, stored and exported, never returned as the content. It is not embedded: mixed
    # into the vector it pulls every turn of one topic together and the turn that holds the answer sinks.
    context: str | None = None
    # Score this write for injection whatever its source (True), or never (False); None: as ``WritePolicy.scan``
    # says for the source's kind. The agent tools set it for notes they write to archival memory.
    scan: bool | None = None
    # Who approved this held write (``lifecycle.history.approve``): it is stored, not held again.
    approved_by: str | None = None
    # A memory tool's result (``Message.quoting``): the user's notes it quotes keep their verdicts, the rest is scanned.
    quoting: Quoting | None = None


def _ttl(value: timedelta | float | None) -> timedelta | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, timedelta | int | float):
        raise ValidationError("ttl", "must be seconds or a timedelta", given=value)
    # Checked as a number first: timedelta() itself fails on NaN, infinity and ~1e14 seconds or more.
    try:
        seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    except OverflowError:  # an int beyond any float
        raise ValidationError("ttl", "is too long", given=value, limit=f"{MAX_TTL.days} days") from None
    if not math.isfinite(seconds):
        raise ValidationError("ttl", "must be a finite number of seconds", given=seconds)
    if seconds <= 0:
        raise ValidationError("ttl", "must be > 0 seconds", given=seconds)
    if seconds > MAX_TTL.total_seconds():
        raise ValidationError("ttl", "is too long", given=f"{seconds:.4g} s", limit=f"{MAX_TTL.days} days")
    return value if isinstance(value, timedelta) else timedelta(seconds=seconds)


def _metadata(value: Mapping[str, MetaValue]) -> Mapping[str, MetaValue]:
    if not isinstance(value, Mapping):
        raise ValidationError("metadata", "must be a mapping of names to scalars", given=value)
    for key, item in value.items():
        if not isinstance(key, str) or not key or len(key) > 64:
            raise ValidationError("metadata", "keys are non-empty strings of at most 64 characters", given=key)
        check_name("metadata key", key)
        if item is not None and not isinstance(item, str | int | float | bool):
            raise ValidationError(f"metadata.{key}", "must be a string, number, boolean or null", given=item)
        if isinstance(item, str):
            check_encodable(f"metadata.{key}", item)
    size = len(json.dumps(dict(value)).encode())
    if size > MAX_METADATA_BYTES:
        raise ValidationError("metadata", "is too large", given=f"{size} bytes", limit=f"{MAX_METADATA_BYTES} bytes")
    return MappingProxyType(dict(value))


def prepare(
    scope: Scope,
    item: NewMemory,
    now: datetime,
    fingerprint: str | None,
    default_ttl: Mapping[MemoryType, timedelta | None] | None = None,
    record_id: str | None = None,
) -> MemoryRecord:
    """A validated record for ``item``; an item without a ttl gets its type's ``default_ttl`` (writes nothing)."""
    if not isinstance(scope, Scope):
        raise ValidationError("scope", "must be a Scope", given=type(scope).__name__)
    if not isinstance(item.content, str):
        raise ValidationError("content", "must be a string", given=type(item.content).__name__)
    text = check_visible("content", normalise_text(check_encodable("content", item.content)))
    if len(text) > MAX_CONTENT_CHARS:
        raise ValidationError("content", "is too long", given=f"{len(text)} characters", limit=MAX_CONTENT_CHARS)
    context = _context(item.context)
    source = Source.parse(item.source)
    if source.detail is not None:
        check_name("source", source.detail)
    type_ = MemoryType.parse(item.type)
    ttl = _ttl(item.ttl) if item.ttl is not None else (default_ttl or {}).get(type_)
    valid_from = item.valid_from or now
    if valid_from.tzinfo is None:
        raise ValidationError("valid_from", "must be timezone-aware", given=valid_from.isoformat())
    return MemoryRecord(
        id=record_id or new_id(),
        scope=scope,
        type=type_,
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
        supersedes=item.supersedes,
        metadata=_metadata(item.metadata),
        context=context,
    )


def _context(value: str | None) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError("context", "must be a string", given=type(value).__name__)
    text = normalise_text(check_encodable("context", value))
    if len(text) > MAX_CONTENT_CHARS:
        raise ValidationError("context", "is too long", given=f"{len(text)} characters", limit=MAX_CONTENT_CHARS)
    return text or None
