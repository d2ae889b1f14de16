"""(internal) ``write_places`` on PostgreSQL: records' places in their user's write order (a mixin of PostgresStore)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.store.postgres.sql import scope_sql
from tiermem.store.write_order import places
from tiermem.types import Scope

__all__ = ["PgWriteOrderMixin"]


class PgWriteOrderMixin:
    """``write_places`` by ``seq``, the order of insertion, counting through the ``records_seq`` index."""

    if TYPE_CHECKING:  # provided by PostgresStore

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def write_places(self, scope: Scope, record_ids: Sequence[str], window: int) -> dict[str, int]:
        if not record_ids:
            return {}
        where, params = scope_sql(scope)
        # One round trip: the records' keys in order, and for each the user's records between it and the one
        # before (at most window + 1 read).
        with self._tenant(scope.tenant) as conn:
            rows = conn.execute(
                f"WITH k AS (SELECT r.id, r.seq, lag(r.seq) OVER (ORDER BY r.seq) AS prev FROM records r"
                f" WHERE r.id = ANY(%s) AND {where})"
                " SELECT k.id, k.seq, CASE WHEN k.prev IS NULL OR k.seq - k.prev <= 1 THEN 0 ELSE"
                " (SELECT count(*) FROM (SELECT 1 FROM records r WHERE r.tenant = %s AND r.user_key = %s"
                " AND r.seq > k.prev AND r.seq < k.seq LIMIT %s) x) END FROM k ORDER BY k.seq",
                [list(dict.fromkeys(record_ids)), *params, scope.tenant, scope.user or "", window + 1],
            ).fetchall()
        keyed = [(str(rid), int(seq)) for rid, seq, _n in rows]
        return places(keyed, {i - 1: int(n) for i, (_rid, _seq, n) in enumerate(rows) if i}, window)
