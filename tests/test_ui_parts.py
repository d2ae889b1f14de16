"""The inspector's parts without a server: the window bar, the timeline, charts, score steps, text, sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tiermem.recall.policy import RecallPolicy
from tiermem.server.auth import Principal
from tiermem.server.ui.charts import MIN_DAYS, axis, latency_bars, per_day
from tiermem.server.ui.context_page import segments
from tiermem.server.ui.record_page import believed
from tiermem.server.ui.scores import LISTS, steps
from tiermem.server.ui.session import UISessions
from tiermem.server.ui.text import clip, hidden_characters, visible
from tiermem.store import Candidate
from tiermem.store.access_base import KeyRole
from tiermem.types import Hit, MemoryRecord, MemoryType, Scope, ScorePart, Source, content_hash

T0 = datetime(2026, 2, 1, tzinfo=UTC)
ANN = Principal("acme", "ann", KeyRole.USER, "key:1")


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
    session = store.new(ANN)
    cookie = store.cookie_value(session)
    assert store.get(cookie) is session
    assert store.get(session.id + ".0000") is None
    assert store.get(UISessions().cookie_value(session)) is None  # signed by another process's key
    assert store.end_user("acme", "ann") == 1 and store.get(cookie) is None


def test_an_idle_session_expires() -> None:
    now = [0.0]
    store = UISessions(idle_seconds=60, clock=lambda: now[0])
    cookie = store.cookie_value(store.new(ANN))
    now[0] = 61
    assert store.get(cookie) is None


def test_sign_in_forms_store_nothing_and_their_token_holds_only_with_their_cookie() -> None:
    store = UISessions()
    forms = [store.login_form(None) for _ in range(1000)]
    assert len(store) == 0
    cookie, token = forms[0]
    assert store.login_ok(cookie, token) and store.login_form(cookie) == (cookie, token)  # a reload keeps both
    assert not store.login_ok(forms[1][0], token)  # another browser's cookie
    assert not store.login_ok(cookie, "guess") and not store.login_ok(None, token)
    assert not store.login_ok(cookie.split(".")[0] + ".0", token)  # a forged signature
    assert store.get(cookie) is None  # a sign-in cookie is no session


def test_sessions_past_the_bound_end_the_one_idle_longest() -> None:
    now = [0.0]
    store = UISessions(max_sessions=3, clock=lambda: now[0])
    cookies = []
    for i in range(3):
        now[0] = i
        cookies.append(store.cookie_value(store.new(ANN)))
    store.get(cookies[0])  # seen again: now the most recent
    store.new(ANN)
    assert len(store) == 3
    assert store.get(cookies[1]) is None and store.get(cookies[0]) is not None


def test_hidden_characters_are_shown_as_marked_code_points() -> None:
    spoof = "invoice\u202etxt.exe and a zero\u200bwidth space <b>"
    shown = str(visible(spoof))
    assert "\u202e" not in shown and "\u200b" not in shown
    assert "[U+202E]</span>txt.exe" in shown and "[U+200B]" in shown and "&lt;b&gt;" in shown
    assert hidden_characters(spoof) == ["U+202E RIGHT-TO-LEFT OVERRIDE", "U+200B ZERO WIDTH SPACE"]
    assert hidden_characters("plain text\twith a tab\n") == [] and str(visible("")) == ""


def test_a_long_text_is_clipped_at_a_space_and_kept_whole() -> None:
    text = "word " * 1000
    clipped = clip(text, 300)
    assert clipped.more and len(clipped.head) <= 300 and clipped.head.endswith("word") and clipped.full == text
    assert not clip("short", 300).more


def hit(parts: list[tuple[str, float]], score: float) -> Hit:
    return Hit(record("x", T0), score, tuple(ScorePart(n, None, None, c) for n, c in parts))


def test_score_steps_add_the_lists_then_multiply_the_factors_on_one_axis() -> None:
    one = hit([("keyword", 0.4), ("trust", 0.5), ("vector", 0.2)], 0.3)
    two = hit([("keyword", 0.03), ("recency", 1.5)], 0.045)
    drawn = steps([one, two])
    assert [(s.name, s.op, s.before, s.after) for s in drawn.rows[0]] == [
        ("keyword", "add", 0.0, 0.4),
        ("vector", "add", 0.4, pytest.approx(0.6)),
        ("trust", "multiply", pytest.approx(0.6), pytest.approx(0.3)),
    ]
    assert drawn.top == pytest.approx(0.6)  # the page's largest running score: one axis for every bar
    keyword, recency = drawn.rows[1]
    assert keyword.end == pytest.approx(5.0) and recency.end == pytest.approx(7.5)  # 0.03 and x1.5 are not full


def test_the_parts_that_add_are_the_policys_candidate_lists() -> None:
    lists = RecallPolicy().fusion().lists(keyword=[], vector=[], perspective=[Candidate("x", 1.0)])
    assert set(lists) == LISTS


def test_axes_end_on_a_round_number_and_latency_falls_in_its_bucket() -> None:
    assert axis(0).ticks == (1, 0) and axis(7).top == 8 and axis(8).ticks == (8, 4, 0)
    bars = latency_bars([0.5, 3.0, 3.0, 99_999.0])
    counts = {b.label: b.count for b in bars}
    assert counts["≤ 1 ms"] == 1 and counts["≤ 5 ms"] == 2 and counts["≤ 10000 ms"] == 1
    assert max(b.height for b in bars) == pytest.approx(100)


def test_relevance_evidence_parts_are_not_score_steps() -> None:
    one = hit([("keyword", 0.4), ("relevance:cosine", 1.0), ("trust", 0.5)], 0.2)
    assert [s.name for s in steps([one]).rows[0]] == ["keyword", "trust"]
