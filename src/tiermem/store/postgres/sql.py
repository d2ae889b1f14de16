"""(internal) SQL conditions shared by the PostgreSQL store's parts: a scope, a filter at a moment, record rows."""

from __future__ import annotations

import json
from datetime import datetime
from types import MappingProxyType
from typing import Any

from psycopg import sql

from tiermem.store.row_values import scope_of, source_of
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope

__all__ = ["COLUMNS", "filter_sql", "row_to_record", "scope_sql", "set_tenant"]
COLUMNS = (
    "r.id, r.tenant, r.user_key, r.agent, r.session, r.type, r.content, r.source, r.trust, r.created_at,"
    " r.updated_at, r.valid_from, r.valid_to, r.expires_at, r.content_hash, r.embedding_model, r.tags,"
    " r.supersedes, r.metadata, r.version, r.context"
)


def set_tenant(tenant: str) -> sql.Composed:
    """The statement that makes ``tenant`` the transaction's (row-level security's ``tiermem.tenant``).

    A ``SET LOCAL`` statement rather than ``set_config()``: a distributed PostgreSQL (Citus, with
    ``citus.propagate_set_commands = 'local'``) forwards SET LOCAL to the nodes that run the transaction's
    statements, and a function call it does not."""
    return sql.SQL("SET LOCAL tiermem.tenant = {}").format(sql.Literal(tenant))


def scope_sql(scope: Scope, alias: str = "r") -> tuple[str, list[Any]]:
    """The scope as SQL conditions (agent and session only when given)."""
    sql = f"{alias}.tenant = %s AND {alias}.user_key = %s"
    params: list[Any] = [scope.tenant, scope.user or ""]
    if scope.agent is not None:
        sql += f" AND {alias}.agent = %s"
        params.append(scope.agent)
    if scope.session is not None:
        sql += f" AND {alias}.session = %s"
        params.append(scope.session)
    return sql, params


def filter_sql(
    filter_: Filter, now: datetime, alias: str = "r", *, without_tags: frozenset[str] = frozenset()
) -> tuple[str, list[Any]]:
    """SQL conditions for a filter, including validity and expiry at ``as_of`` (or now); none of ``without_tags``."""
    clauses: list[str] = []
    params: list[Any] = []
    if without_tags:
        clauses.append(f"NOT ({alias}.tags && %s::text[])")
        params.append(sorted(without_tags))
    if filter_.types:
        clauses.append(f"{alias}.type = ANY(%s)")
        params.append(sorted(t.value for t in filter_.types))
    if filter_.sources:
        clauses.append(f"{alias}.source_kind = ANY(%s)")
        params.append(sorted(s.value for s in filter_.sources))
    if filter_.tags:
        clauses.append(f"{alias}.tags && %s::text[]")
        params.append(sorted(filter_.tags))
    if filter_.time_from is not None:
        clauses.append(f"{alias}.valid_from >= %s")
        params.append(filter_.time_from)
    if filter_.time_to is not None:
        clauses.append(f"{alias}.valid_from <= %s")
        params.append(filter_.time_to)
    at = filter_.as_of or now
    if filter_.as_of is not None:
        clauses.append(f"{alias}.valid_from <= %s")
        params.append(at)
    if not filter_.with_closed:
        clauses.append(f"({alias}.valid_to IS NULL OR {alias}.valid_to > %s)")
        params.append(at)
    clauses.append(f"({alias}.expires_at IS NULL OR {alias}.expires_at > %s)")
    params.append(at)
    return " AND ".join(clauses), params


def row_to_record(row: tuple[Any, ...]) -> MemoryRecord:
    """A row selected as ``COLUMNS`` as a record."""
    (rid, tenant, user_key, agent, session, type_, content, source, trust, created, updated, vfrom, vto, expires,
     chash, model, tags, supersedes, metadata, version, context) = row  # fmt: skip
    return MemoryRecord(
        id=rid,
        scope=scope_of(tenant, user_key, agent, session),
        type=MemoryType(type_),
        content=content,
        source=source_of(source),
        trust=trust,
        created_at=created,
        updated_at=updated,
        valid_from=vfrom,
        valid_to=vto,
        expires_at=expires,
        content_hash=chash,
        embedding_model=model,
        tags=tuple(tags),
        supersedes=supersedes,
        metadata=MappingProxyType(json.loads(metadata)),
        version=version,
        context=context,
    )
