"""(internal) SQL shared by the SQLite store's parts: a scope, a filter at a moment, the rows holding a tag."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from tiermem.store.sql_where import Dialect, filter_where, scope_where
from tiermem.types import Filter, Scope

__all__ = ["DIALECT", "TAG_SETS_KEPT", "filter_sql", "scope_sql", "tagged_rowids"]

TAG_SETS_KEPT = 64
"""How many tag sets' rows a scope's held rows or vector index keep: bounded, for a caller asking ever new sets."""


def scope_sql(scope: Scope, alias: str = "r", *, by_key: bool = False) -> tuple[str, list[Any]]:
    """The scope as SQL conditions. ``by_key``: the query already narrows by id or rowid, so a unary '+'
    keeps the scope columns out of the planner's index choice and the unique index is used."""
    return scope_where(scope, "?", f"{'+' if by_key else ''}{alias}.")


def _one_of(column: str, values: list[str]) -> tuple[str, list[Any]]:
    return f"{column} IN ({','.join('?' * len(values))})", values


def _any_tag(alias: str, tags: list[str]) -> tuple[str, list[Any]]:
    return f"EXISTS (SELECT 1 FROM json_each({alias}.tags) WHERE value IN ({','.join('?' * len(tags))}))", tags


DIALECT = Dialect(mark="?", one_of=_one_of, any_tag=_any_tag, moment=datetime.timestamp)


def filter_sql(
    filter_: Filter, now: datetime, alias: str = "r", *, without_tags: frozenset[str] = frozenset()
) -> tuple[str, list[Any]]:
    """SQL conditions for a filter, including validity and expiry at ``as_of`` (or now); none of ``without_tags``."""
    return filter_where(filter_, now, alias, DIALECT, without_tags=without_tags)


def tagged_rowids(conn: sqlite3.Connection, key: tuple[str, str], tags: tuple[str, ...]) -> list[int]:
    """The rowids of the (tenant, user)'s records holding one of ``tags``."""
    rows = conn.execute(
        "SELECT r.rowid FROM records r WHERE r.tenant = ? AND r.user_key = ? AND EXISTS (SELECT 1 FROM"
        f" json_each(r.tags) WHERE value IN ({','.join('?' * len(tags))}))",
        [*key, *tags],
    )
    return [rowid for (rowid,) in rows]
