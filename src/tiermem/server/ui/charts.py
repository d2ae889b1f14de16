"""(internal) The inspector's charts as SVG drawn by the template: records per day by type, recall latency."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tiermem.server.metrics import BUCKETS
from tiermem.server.ui.pages import base
from tiermem.server.ui.web import Page, UIRoute, render, runtime
from tiermem.types import MemoryRecord, MemoryType

__all__ = ["router"]

router = APIRouter(prefix="/ui", route_class=UIRoute, include_in_schema=False)
MAX_RECORDS = 5000
MAX_DAYS = 30
MIN_DAYS = 14
RECALL_ROUTES = (
    ("/v1/memories/search", "searches through the API"),
    ("/ui/memories", "the inspector's memories page (lists and searches)"),
)


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
    top = max((sum(counts[(d, t)] for t in MemoryType) for d in days), default=0) or 1
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


def latency_bars(buckets: list[int]) -> list[Rect]:
    """A histogram of requests per latency bucket (from the cumulative counts)."""
    per = [n - (buckets[i - 1] if i else 0) for i, n in enumerate(buckets)]
    top = max(per, default=0) or 1
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
    """Records over time by type, and how long recall takes."""
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
    latencies = []
    for route, what in RECALL_ROUTES:
        buckets, seconds, count = rt.metrics.latency(route)
        mean = 1000 * seconds / count if count else None
        latencies.append((route, what, latency_bars(buckets), count, mean))
    return render(
        request,
        "charts.html",
        **base(request, view, title="Charts"),
        days=days,
        rects=rects,
        types=[t.value for t in MemoryType],
        total=len(records),
        latencies=latencies,
    )
