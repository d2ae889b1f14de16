"""(internal) SQL both backends write alike but for the placeholder: a scope, a filter's times, an audit read."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from tiermem.types import Filter, Scope

__all__ = ["audit_select", "scope_where", "validity_where"]


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


def validity_where(
    filter_: Filter, now: datetime, alias: str, mark: str, moment: Callable[[datetime], Any]
) -> tuple[list[str], list[Any]]:
    """The filter's time window, validity and expiry at ``as_of`` (or now); ``moment``: a time as stored."""
    clauses: list[str] = []
    params: list[Any] = []
    if filter_.time_from is not None:
        clauses.append(f"{alias}.valid_from >= {mark}")
        params.append(moment(filter_.time_from))
    if filter_.time_to is not None:
        clauses.append(f"{alias}.valid_from <= {mark}")
        params.append(moment(filter_.time_to))
    at = moment(filter_.as_of or now)
    if filter_.as_of is not None:
        clauses.append(f"{alias}.valid_from <= {mark}")
        params.append(at)
    if not filter_.with_closed:
        clauses.append(f"({alias}.valid_to IS NULL OR {alias}.valid_to > {mark})")
        params.append(at)
    clauses.append(f"({alias}.expires_at IS NULL OR {alias}.expires_at > {mark})")
    params.append(at)
    return clauses, params


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
