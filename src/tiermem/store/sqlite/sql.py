"""(internal) SQL shared by the SQLite store's parts: a scope, a filter at a moment, the rows holding a tag."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from tiermem.store.sql_where import scope_where, validity_where
from tiermem.types import Filter, Scope

__all__ = ["TAG_SETS_KEPT", "filter_sql", "scope_sql", "tagged_rowids"]

TAG_SETS_KEPT = 64
"""How many tag sets' rows a scope's held rows or vector index keep: bounded, for a caller asking ever new sets."""


def scope_sql(scope: Scope, alias: str = "r", *, by_key: bool = False) -> tuple[str, list[Any]]:
    """The scope as SQL conditions. ``by_key``: the query already narrows by id or rowid, so a unary '+'
    keeps the scope columns out of the planner's index choice and the unique index is used."""
    return scope_where(scope, "?", f"{'+' if by_key else ''}{alias}.")


def filter_sql(
    filter_: Filter, now: datetime, alias: str = "r", *, without_tags: frozenset[str] = frozenset()
) -> tuple[str, list[Any]]:
    """SQL conditions for a filter, including validity and expiry at ``as_of`` (or now); none of ``without_tags``."""
    clauses: list[str] = []
    params: list[Any] = []
    if without_tags:
        marks = ",".join("?" * len(without_tags))
        clauses.append(f"NOT EXISTS (SELECT 1 FROM json_each({alias}.tags) WHERE value IN ({marks}))")
        params += sorted(without_tags)
    if filter_.types:
        clauses.append(f"{alias}.type IN ({','.join('?' * len(filter_.types))})")
        params += sorted(t.value for t in filter_.types)
    if filter_.sources:
        clauses.append(f"{alias}.source_kind IN ({','.join('?' * len(filter_.sources))})")
        params += sorted(s.value for s in filter_.sources)
    if filter_.tags:
        clauses.append(
            f"EXISTS (SELECT 1 FROM json_each({alias}.tags) WHERE value IN ({','.join('?' * len(filter_.tags))}))"
        )
        params += sorted(filter_.tags)
    times, moments = validity_where(filter_, now, alias, "?", datetime.timestamp)
    return " AND ".join([*clauses, *times]), [*params, *moments]


def tagged_rowids(conn: sqlite3.Connection, key: tuple[str, str], tags: tuple[str, ...]) -> list[int]:
    """The rowids of the (tenant, user)'s records holding one of ``tags``."""
    rows = conn.execute(
        "SELECT r.rowid FROM records r WHERE r.tenant = ? AND r.user_key = ? AND EXISTS (SELECT 1 FROM"
        f" json_each(r.tags) WHERE value IN ({','.join('?' * len(tags))}))",
        [*key, *tags],
    )
    return [rowid for (rowid,) in rows]
