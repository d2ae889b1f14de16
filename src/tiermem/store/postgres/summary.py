"""(internal) PostgreSQL aggregates for the inspector: a scope's sessions and its live records counted (a mixin)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.store.postgres.sql import filter_sql, scope_sql
from tiermem.store.summary_base import MAX_SESSIONS, SessionSummary, Tally
from tiermem.types import Filter, MemoryType, Scope, SourceKind

__all__ = ["PgSummaryMixin"]


class PgSummaryMixin:
    """``list_sessions`` and ``tally``."""

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def list_sessions(self, scope: Scope, *, limit: int = MAX_SESSIONS) -> list[SessionSummary]:
        where, params = scope_sql(scope)
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                f"SELECT r.session, r.agent, COUNT(*), MIN(r.created_at), MAX(r.created_at) FROM records r"
                f" WHERE {where} AND r.session <> '' GROUP BY r.agent, r.session"
                " ORDER BY MAX(r.created_at) DESC, r.session LIMIT %s",
                [*params, min(limit, MAX_SESSIONS)],
            ).fetchall()
        return [SessionSummary(session, agent or None, n, first, last) for session, agent, n, first, last in rows]

    def tally(self, scope: Scope, *, now: datetime) -> list[Tally]:
        where, params = scope_sql(scope)
        live, live_params = filter_sql(Filter(), now)
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                f"SELECT r.type, r.source_kind, r.trust, COUNT(*) FROM records r WHERE {where} AND {live}"
                " GROUP BY r.type, r.source_kind, r.trust ORDER BY 1, 2, 3",
                [*params, *live_params],
            ).fetchall()
        return [Tally(MemoryType(t), SourceKind(k), float(trust), n) for t, k, trust, n in rows]
