"""(internal) Taking a deleted record's words out of the copies other rows hold (a mixin of PostgresStore).

A turn's search context quotes the turn before it, and a write held for approval carries such a context too;
when the quoted record is forgotten or swept, ``drop_context_lines`` and ``drop_held_context_lines`` take the
words out. The old row versions keep the text until the next ``compact`` (VACUUM) reclaims them.

A forget looks for the records whose context holds its lines through the full-text postings, not by reading
every context of the user: a line that is part of a context has its terms among that record's terms, so the
records holding a line are among those holding the line's rarest term (``fts_terms`` counts them), found by
equality on the postings' key, which row-level security lets through the index (a ``LIKE`` or trigram match
is not leakproof, so under the policy it would read every row of the user all the same).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from tiermem.store.base import StoredItem
from tiermem.store.fulltext import query_stems
from tiermem.store.maintenance_base import changed_contexts, held_without_lines, snapshots_without_lines
from tiermem.store.postgres.sql import scope_sql
from tiermem.text_index import index_text
from tiermem.types import MemoryRecord, Scope

__all__ = ["PgQuotesMixin"]

_FEW_LINES = 32  # up to this many lines to drop are looked for in SQL; more (a sweep) are matched in Python


def _jsonb(value: dict[str, Any] | None) -> Jsonb | None:
    return None if value is None else Jsonb(value)


class PgQuotesMixin:
    """``drop_context_lines`` and ``drop_held_context_lines`` on the store's connections."""

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

        def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]: ...

        def put_many(self, items: Sequence[StoredItem]) -> None: ...

    def drop_context_lines(self, scope: Scope, lines: Collection[str]) -> int:
        wanted = frozenset(line for line in lines if line)
        if not wanted:
            return 0
        with self._tenant(scope.tenant) as conn:
            changed = changed_contexts(_holding(conn, scope, wanted), wanted)
            if not changed:
                return 0
            records = self.get_many(scope, list(changed)).values()
            # keep_vector: the context is full-text indexed only, so the vectors stay as they are.
            self.put_many([StoredItem(replace(r, context=changed[r.id]), None, keep_vector=True) for r in records])
            entries = conn.execute(
                "SELECT seq, before, after FROM audit_log WHERE tenant = %s AND user_key = %s AND record_id = ANY(%s)",
                [scope.tenant, scope.user or "", list(changed)],
            ).fetchall()
            for seq, before, after in entries:
                snapshots = snapshots_without_lines(before, after, wanted)
                if snapshots is not None:
                    conn.execute(
                        "UPDATE audit_log SET before = %s, after = %s WHERE tenant = %s AND seq = %s",
                        [_jsonb(snapshots[0]), _jsonb(snapshots[1]), scope.tenant, seq],
                    )
        return len(changed)

    def drop_held_context_lines(self, scope: Scope, lines: Collection[str]) -> int:
        wanted = frozenset(line for line in lines if line)
        if not wanted:
            return 0
        with self._tenant(scope.tenant) as conn:
            # Only the rows whose context holds a line are decoded: the user's held writes are not indexed.
            rows = conn.execute(
                "SELECT id, record FROM pending_writes WHERE tenant = %s AND user_key = %s AND EXISTS"
                " (SELECT 1 FROM unnest(%s::text[]) AS line WHERE strpos(record ->> 'context', line) > 0)",
                [scope.tenant, scope.user or "", sorted(wanted)],
            ).fetchall()
            changed = held_without_lines(rows, wanted)
            for pending_id, record in changed.items():
                conn.execute(
                    "UPDATE pending_writes SET record = %s WHERE tenant = %s AND id = %s",
                    [Jsonb(record), scope.tenant, pending_id],
                )
        return len(changed)


def _holding(conn: psycopg.Connection[Any], scope: Scope, wanted: frozenset[str]) -> list[tuple[str, str]]:
    """(id, context) of the scope's records whose context may hold one of ``wanted``; a superset."""
    where, params = scope_sql(scope, "r")
    stems = query_stems([index_text(line) or "" for line in sorted(wanted)]) if len(wanted) <= _FEW_LINES else []
    rarest = _rarest_terms(conn, scope, stems) if stems and all(stems) else None
    if rarest is not None:  # a forget's lines, each with words: the records holding each line's rarest term
        where += (
            " AND r.seq IN (SELECT p.seq FROM fts_postings p WHERE p.tenant = %s AND p.user_key = %s"
            " AND p.term = ANY(%s))"
        )
        params += [scope.tenant, scope.user or "", rarest]
    elif stems:  # no postings to go by: let the database skip the rows that cannot hold the lines
        where += " AND EXISTS (SELECT 1 FROM unnest(%s::text[]) AS line WHERE strpos(r.context, line) > 0)"
        params.append(sorted(wanted))
    rows = conn.execute(f"SELECT r.id, r.context FROM records r WHERE {where} AND r.context IS NOT NULL", params)
    return rows.fetchall()


def _rarest_terms(conn: psycopg.Connection[Any], scope: Scope, stems: Sequence[tuple[str, ...]]) -> list[str] | None:
    """Each line's rarest term by the user's document frequencies; None when they are so common that reading
    their postings would cost more than reading every context of the user."""
    key = [scope.tenant, scope.user or ""]
    df = dict(
        conn.execute(
            "SELECT term, df FROM fts_terms WHERE tenant = %s AND user_key = %s AND term = ANY(%s)",
            [*key, sorted({s for line in stems for s in line})],
        ).fetchall()
    )
    rarest = {min(line, key=lambda s: int(df.get(s, 0))) for line in stems}
    row = conn.execute("SELECT docs FROM scope_stats WHERE tenant = %s AND user_key = %s", key).fetchone()
    # A posting costs more than a row's strpos (an index entry, then a join), so past half the user's records
    # the scan is the cheaper read.
    if row is not None and sum(int(df.get(s, 0)) for s in rarest) * 2 > int(row[0]):
        return None
    return sorted(rarest)
