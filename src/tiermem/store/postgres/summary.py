"""(internal) PostgreSQL aggregates for the inspector: a scope's sessions (a mixin)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.store.postgres.sql import scope_sql
from tiermem.store.summary_base import MAX_SESSIONS, SessionSummary
from tiermem.types import Scope

__all__ = ["PgSummaryMixin"]


class PgSummaryMixin:
    """``list_sessions`` (``tally`` is ``ListingMixin``'s)."""

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
