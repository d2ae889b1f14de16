"""(internal) A record as every backend's row holds it, and back: scope and source cached (rows repeat them)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from datetime import datetime
from types import MappingProxyType
from typing import Any

from tiermem.types import MemoryRecord, MemoryType, Scope, Source

__all__ = ["record_of", "row_of", "scope_of", "source_of"]


@functools.lru_cache(maxsize=4096)
def scope_of(tenant: str, user_key: str, agent: str, session: str) -> Scope:
    """The scope a row's key columns name (an empty column is an absent part)."""
    return Scope(tenant, user_key or None, agent or None, session or None)


@functools.lru_cache(maxsize=4096)
def source_of(text: str) -> Source:
    """The source a row's text names."""
    return Source.parse(text)


def record_of(
    row: Iterable[Any], moment: Callable[[Any], datetime], tags_of: Callable[[Any], Iterable[str]]
) -> MemoryRecord:
    """A row of the records table's columns in order as a record; ``moment`` reads a stored time, ``tags_of`` tags."""
    (rid, tenant, user_key, agent, session, type_, content, source, trust, created, updated, vfrom, vto, expires,
     chash, model, tags, supersedes, metadata, version, context) = row  # fmt: skip
    return MemoryRecord(
        id=rid,
        scope=scope_of(tenant, user_key, agent, session),
        type=MemoryType(type_),
        content=content,
        source=source_of(source),
        trust=trust,
        created_at=moment(created),
        updated_at=None if updated is None else moment(updated),
        valid_from=moment(vfrom),
        valid_to=None if vto is None else moment(vto),
        expires_at=None if expires is None else moment(expires),
        content_hash=chash,
        embedding_model=model,
        tags=tuple(tags_of(tags)),
        supersedes=supersedes,
        metadata=MappingProxyType(json.loads(metadata)),
        version=version,
        context=context,
    )


def row_of(record: MemoryRecord, moment: Callable[[Any], Any], tags_as: Callable[[list[str]], Any]) -> tuple[Any, ...]:
    """A record as the records table's values (tenant, id, then the columns ``record_of`` reads, ``source_kind``
    after ``source``); ``moment`` stores a time, ``tags_as`` the tags."""
    r = record
    return (
        r.scope.tenant,
        r.id,
        r.scope.user or "",
        r.scope.agent or "",
        r.scope.session or "",
        r.type.value,
        r.content,
        str(r.source),
        r.source.kind.value,
        r.trust,
        moment(r.created_at),
        moment(r.updated_at),
        moment(r.valid_from),
        moment(r.valid_to),
        moment(r.expires_at),
        r.content_hash,
        r.embedding_model,
        tags_as(list(r.tags)),
        r.supersedes,
        json.dumps(dict(r.metadata)),
        r.version,
        r.context,
    )
