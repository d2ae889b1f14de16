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

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from tiermem.store.fulltext import query_stems
from tiermem.store.postgres.sql import scope_sql
from tiermem.store.quotes_base import QuotesBase, Snapshot
from tiermem.text_index import index_text
from tiermem.types import Scope

__all__ = ["PgQuotesMixin"]

_FEW_LINES = 32  # up to this many lines to drop are looked for in SQL; more (a sweep) are matched in Python


def _jsonb(value: dict[str, Any] | None) -> Jsonb | None:
    return None if value is None else Jsonb(value)


class PgQuotesMixin(QuotesBase):
    """``drop_context_lines`` and ``drop_held_context_lines`` on the store's connections."""

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def _quotes_transaction(self, scope: Scope) -> AbstractContextManager[psycopg.Connection[Any]]:
        return self._tenant(scope.tenant)

    def _quoting_records(
        self, conn: psycopg.Connection[Any], scope: Scope, wanted: frozenset[str]
    ) -> list[tuple[str, str]]:
        return _holding(conn, scope, wanted)

    def _audit_snapshots(self, conn: psycopg.Connection[Any], scope: Scope, ids: list[str]) -> list[tuple[Any, ...]]:
        return conn.execute(
            "SELECT seq, before, after FROM audit_log WHERE tenant = %s AND user_key = %s AND record_id = ANY(%s)",
            [scope.tenant, scope.user or "", ids],
        ).fetchall()

    def _set_audit_snapshots(
        self, conn: psycopg.Connection[Any], scope: Scope, seq: Any, before: Snapshot, after: Snapshot
    ) -> None:
        conn.execute(
            "UPDATE audit_log SET before = %s, after = %s WHERE tenant = %s AND seq = %s",
            [_jsonb(before), _jsonb(after), scope.tenant, seq],
        )

    def _quoting_held(
        self, conn: psycopg.Connection[Any], scope: Scope, wanted: frozenset[str]
    ) -> list[tuple[str, dict[str, Any]]]:
        # Only the rows whose context holds a line are decoded: the user's held writes are not indexed.
        return conn.execute(
            "SELECT id, record FROM pending_writes WHERE tenant = %s AND user_key = %s AND EXISTS"
            " (SELECT 1 FROM unnest(%s::text[]) AS line WHERE strpos(record ->> 'context', line) > 0)",
            [scope.tenant, scope.user or "", sorted(wanted)],
        ).fetchall()

    def _set_held(self, conn: psycopg.Connection[Any], scope: Scope, pending_id: str, record: dict[str, Any]) -> None:
        conn.execute(
            "UPDATE pending_writes SET record = %s WHERE tenant = %s AND id = %s",
            [Jsonb(record), scope.tenant, pending_id],
        )


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
