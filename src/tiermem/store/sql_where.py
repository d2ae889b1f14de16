"""(internal) SQL both backends write alike but for their dialect: scope, filter, audit read, listing, tally."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from tiermem.errors import ValidationError
from tiermem.store.base import Page
from tiermem.store.summary_base import Tally
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope, SourceKind

__all__ = [
    "Dialect",
    "ListingMixin",
    "audit_select",
    "cursor_position",
    "filter_where",
    "listing_page",
    "listing_select",
    "scope_where",
]


def scope_where(scope: Scope, mark: str, prefix: str = "", *, with_session: bool = True) -> tuple[str, list[Any]]:
    """The scope as conditions on the columns ``prefix`` + name, values as ``mark`` (agent, session when given)."""
    statement = f"{prefix}tenant = {mark} AND {prefix}user_key = {mark}"
    params: list[Any] = [scope.tenant, scope.user or ""]
    if scope.agent is not None:
        statement += f" AND {prefix}agent = {mark}"
        params.append(scope.agent)
    if with_session and scope.session is not None:
        statement += f" AND {prefix}session = {mark}"
        params.append(scope.session)
    return statement, params


Condition = tuple[str, list[Any]]


@dataclass(frozen=True, slots=True)
class Dialect:
    """What a backend writes its own way: its placeholder, a column among values, a row holding a tag, a time."""

    mark: str
    one_of: Callable[[str, list[str]], Condition]  # (column, values): the column holds one of the values
    any_tag: Callable[[str, list[str]], Condition]  # (alias, tags): the row's tags hold one of these
    moment: Callable[[datetime], Any]  # a time as the tables hold it


def filter_where(
    filter_: Filter, now: datetime, alias: str, dialect: Dialect, *, without_tags: frozenset[str]
) -> Condition:
    """SQL conditions for a filter, including validity and expiry at ``as_of`` (or now); none of ``without_tags``."""
    conditions: list[Condition] = []
    if without_tags:
        held, tags = dialect.any_tag(alias, sorted(without_tags))
        conditions.append((f"NOT ({held})", tags))
    if filter_.types:
        conditions.append(dialect.one_of(f"{alias}.type", sorted(t.value for t in filter_.types)))
    if filter_.sources:
        conditions.append(dialect.one_of(f"{alias}.source_kind", sorted(s.value for s in filter_.sources)))
    if filter_.tags:
        conditions.append(dialect.any_tag(alias, sorted(filter_.tags)))
    m = dialect.mark
    if filter_.time_from is not None:
        conditions.append((f"{alias}.valid_from >= {m}", [dialect.moment(filter_.time_from)]))
    if filter_.time_to is not None:
        conditions.append((f"{alias}.valid_from <= {m}", [dialect.moment(filter_.time_to)]))
    at = dialect.moment(filter_.as_of or now)
    if filter_.as_of is not None:
        conditions.append((f"{alias}.valid_from <= {m}", [at]))
    if not filter_.with_closed:
        conditions.append((f"({alias}.valid_to IS NULL OR {alias}.valid_to > {m})", [at]))
    conditions.append((f"({alias}.expires_at IS NULL OR {alias}.expires_at > {m})", [at]))
    return " AND ".join(c for c, _ in conditions), [p for _, params in conditions for p in params]


def audit_select(scope: Scope, record_id: str | None, limit: int, mark: str) -> tuple[str, list[object]]:
    """The statement reading a user's first ``limit`` audit entries (of one record when given), oldest first."""
    statement = (
        "SELECT seq, record_id, at, actor, op, version, before, after, detail FROM audit_log"
        f" WHERE tenant = {mark} AND user_key = {mark}"
    )
    params: list[object] = [scope.tenant, scope.user or ""]
    if record_id is not None:
        statement += f" AND record_id = {mark}"
        params.append(record_id)
    return f"{statement} ORDER BY seq LIMIT {mark}", [*params, limit]


_CURSOR = re.compile(r"[0-9]{1,18}")  # a position in the insertion order: below 2**63, the column's limit


def cursor_position(cursor: str) -> int:
    """The insertion-order position a listing's cursor names; ValidationError for anything no listing returned."""
    if not isinstance(cursor, str) or not _CURSOR.fullmatch(cursor):
        raise ValidationError("cursor", "is not a cursor this store returned", given=cursor, limit="1 to 18 digits")
    return int(cursor)


def listing_select(
    columns: str, order: str, scope: Condition, filter_: Condition, cursor: str | None, limit: int, mark: str
) -> Condition:
    """The statement reading a listing's next page: ``columns`` and ``order`` last, newest first, one row extra."""
    (where, params), (fwhere, fparams) = scope, filter_
    after = ""
    if cursor is not None:
        after = f" AND {order} < {mark}"
        fparams = [*fparams, cursor_position(cursor)]
    statement = f"SELECT {columns}, {order} FROM records r WHERE {where} AND {fwhere}{after} ORDER BY {order} DESC"
    return f"{statement} LIMIT {mark}", [*params, *fparams, limit + 1]


def listing_page(rows: Sequence[Sequence[Any]], limit: int, record: Callable[[Any], MemoryRecord]) -> Page:
    """The page ``listing_select``'s rows make: ``limit`` records, and the last one's order as the next cursor."""
    more = len(rows) > limit
    rows = rows[:limit]
    return Page(tuple(record(row[:-1]) for row in rows), str(rows[-1][-1]) if more and rows else None)


class ListingMixin:
    """``list_records`` and ``tally`` written once: a backend gives its dialect, columns, insertion order and reads."""

    DIALECT: ClassVar[Dialect]
    LISTED_COLUMNS: ClassVar[str]  # the records columns ``listed_record`` decodes, with alias ``r``
    INSERTION_ORDER: ClassVar[str]  # the column that grows with each insert: newest first, and the cursor

    if TYPE_CHECKING:  # a backend's: the rows of a read as the tenant, and a row as its record

        def listed_rows(self, tenant: str, statement: str, params: list[Any]) -> Sequence[Sequence[Any]]: ...

        def listed_record(self, row: Any) -> MemoryRecord: ...

    def list_records(
        self,
        scope: Scope,
        filter_: Filter,
        *,
        now: datetime,
        limit: int,
        cursor: str | None,
        without_tags: frozenset[str] = frozenset(),
    ) -> Page:
        mark = self.DIALECT.mark
        filtered = filter_where(filter_, now, "r", self.DIALECT, without_tags=without_tags)
        where = scope_where(scope, mark, "r.")
        statement, params = listing_select(
            self.LISTED_COLUMNS, self.INSERTION_ORDER, where, filtered, cursor, limit, mark
        )
        return listing_page(self.listed_rows(scope.tenant, statement, params), limit, self.listed_record)

    def tally(self, scope: Scope, *, now: datetime) -> list[Tally]:
        where, params = scope_where(scope, self.DIALECT.mark, "r.")
        live, live_params = filter_where(Filter(), now, "r", self.DIALECT, without_tags=frozenset())
        rows = self.listed_rows(
            scope.tenant,
            f"SELECT r.type, r.source_kind, r.trust, COUNT(*) FROM records r WHERE {where} AND {live}"
            " GROUP BY r.type, r.source_kind, r.trust ORDER BY 1, 2, 3",
            [*params, *live_params],
        )
        return [Tally(MemoryType(t), SourceKind(k), float(trust), n) for t, k, trust, n in rows]
