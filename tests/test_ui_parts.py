"""The inspector's layout arithmetic, without a server: the window bar, the timeline, the per-day chart, sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tiermem.server.auth import Principal
from tiermem.server.ui.charts import MIN_DAYS, per_day
from tiermem.server.ui.context_page import segments
from tiermem.server.ui.pages import believed
from tiermem.server.ui.session import UISessions
from tiermem.store.access_base import KeyRole
from tiermem.types import MemoryRecord, MemoryType, Scope, Source, content_hash

T0 = datetime(2026, 2, 1, tzinfo=UTC)


def record(text: str, valid_from: datetime, valid_to: datetime | None = None, type_: str = "semantic") -> MemoryRecord:
    return MemoryRecord(
        id=text,
        scope=Scope("acme", "ann"),
        type=MemoryType(type_),
        content=text,
        source=Source.parse("user"),
        trust=0.9,
        created_at=valid_from,
        valid_from=valid_from,
        content_hash=content_hash(text),
        valid_to=valid_to,
    )


def test_window_bar_fills_the_window_and_free_is_what_is_left() -> None:
    bar = segments(1000, [("system", 100), ("messages", 300)])
    assert [s.name for s in bar] == ["system", "messages", "free"]
    assert bar[-1].tokens == 600 and sum(s.width for s in bar) == pytest.approx(100)
    assert bar[1].x == pytest.approx(10)


def test_window_bar_over_the_window_scales_to_the_total_and_free_is_zero() -> None:
    bar = segments(100, [("system", 80), ("messages", 120)])
    assert bar[-1].tokens == 0 and sum(s.width for s in bar) == pytest.approx(100)


def test_as_of_names_the_version_valid_then() -> None:
    old = record("old", T0, T0 + timedelta(days=10))
    new = record("new", T0 + timedelta(days=10))
    chain = [old, new]
    assert believed(chain, T0 - timedelta(days=1)) is None
    assert believed(chain, T0 + timedelta(days=9)) is old
    assert believed(chain, T0 + timedelta(days=10)) is new


def test_records_per_day_has_a_continuous_axis_of_at_least_a_fortnight() -> None:
    days, rects = per_day([record("a", T0), record("b", T0), record("c", T0 + timedelta(days=2), type_="episodic")])
    assert len(days) == MIN_DAYS and days[-1] == (T0 + timedelta(days=2)).date()
    assert {(r.label, r.kind, r.count) for r in rects} == {("2026-02-01", "semantic", 2), ("2026-02-03", "episodic", 1)}
    tallest = max(rects, key=lambda r: r.height)
    assert tallest.height == pytest.approx(100) and tallest.y == pytest.approx(0)


def test_a_forged_or_unknown_session_cookie_is_no_session() -> None:
    store = UISessions()
    session = store.new(Principal("acme", "ann", KeyRole.USER, "key:1"))
    cookie = store.cookie_value(session)
    assert store.get(cookie) is session
    assert store.get(session.id + ".0000") is None
    assert store.get(UISessions().cookie_value(session)) is None  # signed by another process's key
    assert store.end_user("acme", "ann") == 1 and store.get(cookie) is None


def test_an_idle_session_expires() -> None:
    now = [0.0]
    store = UISessions(idle_seconds=60, clock=lambda: now[0])
    cookie = store.cookie_value(store.new())
    now[0] = 61
    assert store.get(cookie) is None
