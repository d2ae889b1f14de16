"""(internal) ``write_places`` on SQLite: records' places in their user's write order (a mixin of SQLiteStore)."""

from __future__ import annotations

from collections.abc import Sequence

from tiermem.store.sqlite.maintenance import Connected, run_sql, run_sql_in
from tiermem.store.sqlite.pin import SQLiteGenerationPin
from tiermem.store.sqlite.rows import SQL_VARS
from tiermem.store.sqlite.scope_text import ScopeText
from tiermem.store.sqlite.sql import scope_sql
from tiermem.store.write_order import gaps, places
from tiermem.types import Scope

__all__ = ["SQLiteWriteOrderMixin"]


class SQLiteWriteOrderMixin(SQLiteGenerationPin, Connected):
    """``write_places`` by rowid, the order of insertion, counting through the ``records_newest`` index."""

    _held_rows: dict[tuple[str, str], tuple[int, int | ScopeText]]

    def write_places(self, scope: Scope, record_ids: Sequence[str], window: int) -> dict[str, int]:
        keyed: list[tuple[str, int]] = []
        with self._lock:
            held = self._held_now(scope)
            if held is not None:
                return held.write_places(record_ids, window)
            where, params = scope_sql(scope, by_key=True)
            unique = list(dict.fromkeys(record_ids))
            keyed += run_sql_in(self, f"SELECT r.id, r.rowid FROM records r WHERE {where} AND r.id IN", params, unique)
            keyed.sort(key=lambda row: row[1])
            wide = gaps(keyed)
            counted: dict[int, int] = {}
            step = SQL_VARS // 3  # three variables a gap
            for start in range(0, len(wide), step):
                part = wide[start : start + step]
                rows = run_sql(
                    self,
                    f"WITH g(i, lo, hi) AS (VALUES {','.join(['(?, ?, ?)'] * len(part))})"
                    " SELECT g.i, (SELECT count(*) FROM (SELECT 1 FROM records r WHERE r.tenant = ?"
                    " AND r.user_key = ? AND r.rowid > g.lo AND r.rowid < g.hi LIMIT ?)) FROM g",
                    [v for gap in part for v in gap] + [scope.tenant, scope.user or "", window + 1],
                )
                counted.update((int(i), int(n)) for i, n in rows)
        return places(keyed, counted, window)

    def _held_now(self, scope: Scope) -> ScopeText | None:
        """The (tenant, user)'s rows the keyword queries hold (``scope_text``), if they are the file's now and
        the scope is the whole (tenant, user)."""
        if scope.agent is not None or scope.session is not None or self._conn.in_transaction:
            return None
        key = (scope.tenant, scope.user or "")
        cached = self._held_rows.get(key)
        if cached is None or not isinstance(cached[1], ScopeText):
            return None
        pin = self._pin(key)
        if pin is not None and pin.gen == cached[0]:
            return cached[1]
        row = self._conn.execute("SELECT gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key).fetchone()
        return cached[1] if row is not None and row[0] == cached[0] else None
