"""(internal) The inspector's charts as SVG drawn by the template: records per day by type, request latency.

Both show the viewer's own data only: the viewed user's records, and the latency of the signed-in credential's
own last requests (never the server's totals, which would tell one tenant about another's traffic). Each chart
has its axes' values: counts up the side, days or latency buckets along the bottom.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tiermem.server.metrics import BUCKETS
from tiermem.server.ui.overview import own_requests
from tiermem.server.ui.pages import base
from tiermem.server.ui.web import Page, UIRoute, render, runtime
from tiermem.types import MemoryRecord, MemoryType

__all__ = ["Axis", "axis", "latency_bars", "per_day", "router"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
MAX_RECORDS = 5000
MAX_DAYS = 30
MIN_DAYS = 14


@dataclass(frozen=True, slots=True)
class Axis:
    """A count axis: its top value and the ticks drawn up the side (top first)."""

    top: int
    ticks: tuple[int, ...]


def axis(largest: int) -> Axis:
    """An axis from 0 to a round number at or above ``largest``, with ticks at its top, middle and 0."""
    top = max(largest, 1)
    if top > 2 and top % 2:
        top += 1  # an even top keeps the middle tick a whole number
    return Axis(top, (top, top // 2, 0) if top >= 2 else (top, 0))


@dataclass(frozen=True, slots=True)
class Rect:
    """One bar piece in SVG user units (the chart is 100 wide and 100 high; the template scales it)."""

    label: str
    kind: str
    count: int
    x: float
    y: float
    width: float
    height: float


def per_day(records: list[MemoryRecord]) -> tuple[list[date], list[Rect]]:
    """Records created per day (every day up to MAX_DAYS before the last one with records), stacked by type."""
    counts: Counter[tuple[date, MemoryType]] = Counter((r.created_at.date(), r.type) for r in records)
    if not counts:
        return [], []
    first, last = min(d for d, _ in counts), max(d for d, _ in counts)
    start = max(first, last - timedelta(days=MAX_DAYS - 1))
    span = max((last - start).days + 1, MIN_DAYS)  # at least a fortnight: one day is not the whole chart
    days = [last - timedelta(days=span - 1 - i) for i in range(span)]
    top = axis(max((sum(counts[(d, t)] for t in MemoryType) for d in days), default=0)).top
    width = 100 / max(len(days), 1)
    rects = []
    for i, d in enumerate(days):
        y = 100.0
        for t in MemoryType:
            n = counts[(d, t)]
            if n:
                h = 100 * n / top
                y -= h
                rects.append(Rect(d.isoformat(), t.value, n, i * width + width * 0.1, y, width * 0.8, h))
    return days, rects


def latency_bars(milliseconds: list[float]) -> list[Rect]:
    """A histogram of requests per latency bucket (each bucket up to its bound, the last one beyond too)."""
    per = [0] * len(BUCKETS)
    for ms in milliseconds:
        i = next((i for i, bound in enumerate(BUCKETS) if ms <= bound * 1000), len(BUCKETS) - 1)
        per[i] += 1
    top = axis(max(per, default=0)).top
    width = 100 / len(per)
    return [
        Rect(
            f"≤ {bound * 1000:g} ms",
            "latency",
            n,
            i * width + width * 0.1,
            100 - 100 * n / top,
            width * 0.8,
            100 * n / top,
        )
        for i, (bound, n) in enumerate(zip(BUCKETS, per, strict=True))
    ]


@router.get("/charts", response_class=HTMLResponse)
def charts(request: Request, view: Page) -> Response:
    """The viewed user's records over time by type, and how long the signed-in credential's requests took."""
    rt = runtime(request)
    records: list[MemoryRecord] = []
    cursor = None
    while len(records) < MAX_RECORDS:
        page = rt.memory.list(view.scope, limit=1000, cursor=cursor)
        records.extend(page.records)
        cursor = page.next_cursor
        if not cursor:
            break
    days, rects = per_day(records)
    tallest = max((sum(r.count for r in rects if r.label == d.isoformat()) for d in days), default=0)
    lines = own_requests(request, view)
    latencies = [line.latency_ms for line in lines]
    bars = latency_bars(latencies)
    return render(
        request,
        "charts.html",
        **base(request, view, title="Charts"),
        days=days,
        rects=rects,
        day_axis=axis(tallest),
        types=[t.value for t in MemoryType],
        total=len(records),
        bars=bars,
        latency_axis=axis(max((b.count for b in bars), default=0)),
        requests=len(lines),
        mean=sum(latencies) / len(latencies) if latencies else None,
    )
