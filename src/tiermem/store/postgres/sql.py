"""(internal) SQL conditions shared by the PostgreSQL store's parts: a scope, a filter at a moment, record rows."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg import sql

from tiermem.store.row_values import record_of
from tiermem.store.sql_where import Dialect, filter_where, scope_where
from tiermem.types import Filter, MemoryRecord, Scope

__all__ = ["COLUMNS", "DIALECT", "as_is", "filter_sql", "row_to_record", "scope_sql", "set_tenant"]
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
    return scope_where(scope, "%s", f"{alias}.")


def as_is(t: datetime) -> datetime:
    """A moment as a timestamptz column holds it and psycopg reads it: unchanged."""
    return t


DIALECT = Dialect(
    mark="%s",
    one_of=lambda column, values: (f"{column} = ANY(%s)", [values]),
    any_tag=lambda alias, tags: (f"{alias}.tags && %s::text[]", [tags]),
    moment=as_is,
)


def filter_sql(
    filter_: Filter, now: datetime, alias: str = "r", *, without_tags: frozenset[str] = frozenset()
) -> tuple[str, list[Any]]:
    """SQL conditions for a filter, including validity and expiry at ``as_of`` (or now); none of ``without_tags``."""
    return filter_where(filter_, now, alias, DIALECT, without_tags=without_tags)


def row_to_record(row: tuple[Any, ...]) -> MemoryRecord:
    """A row selected as ``COLUMNS`` as a record."""
    return record_of(row, as_is, tuple)
