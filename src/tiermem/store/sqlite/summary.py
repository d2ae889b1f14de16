"""(internal) SQLite aggregates: rows counted, the scopes held and a scope's sessions (a mixin of SQLiteStore)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

from tiermem.store.sqlite.sql import scope_sql
from tiermem.store.summary_base import MAX_SESSIONS, SessionSummary
from tiermem.types import Scope

__all__ = ["SQLiteSummaryMixin"]


class SQLiteSummaryMixin:
    """``count``, ``iter_scopes`` and ``list_sessions`` on the store's connection (``tally`` is ``ListingMixin``'s)."""

    _conn: sqlite3.Connection
    _lock: threading.RLock

    def count(self, scope: Scope | None = None) -> int:
        with self._lock:
            if scope is None:
                (n,) = self._conn.execute("SELECT COUNT(*) FROM records").fetchone()
            else:
                where, params = scope_sql(scope)
                (n,) = self._conn.execute(f"SELECT COUNT(*) FROM records r WHERE {where}", params).fetchone()
        return int(n)

    def iter_scopes(self) -> Iterator[Scope]:
        with self._lock:
            rows = self._conn.execute("SELECT DISTINCT tenant, user_key FROM records ORDER BY 1, 2").fetchall()
        for tenant, user_key in rows:
            yield Scope(tenant, user_key or None)

    def list_sessions(self, scope: Scope, *, limit: int = MAX_SESSIONS) -> list[SessionSummary]:
        where, params = scope_sql(scope)
        with self._lock:
            rows = self._conn.execute(
                f"SELECT r.session, r.agent, COUNT(*), MIN(r.created_at), MAX(r.created_at) FROM records r"
                f" WHERE {where} AND r.session != '' GROUP BY r.agent, r.session"
                " ORDER BY MAX(r.created_at) DESC, r.session LIMIT ?",
                [*params, min(limit, MAX_SESSIONS)],
            ).fetchall()
        return [
            SessionSummary(
                session, agent or None, n, datetime.fromtimestamp(first, UTC), datetime.fromtimestamp(last, UTC)
            )
            for session, agent, n, first, last in rows
        ]
