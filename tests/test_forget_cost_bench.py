"""The forget benchmark runs as docs/lifecycle.md shows it (on a small user), on SQLite and on PostgreSQL, and prints
its table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pg_fixtures import PgServer

ROOT = Path(__file__).resolve().parents[1]


def _table(*options: str) -> list[str]:
    """The benchmark's table rows, run on sizes 300 and 600 with ``options``."""
    bench = str(ROOT / "benchmarks" / "forget_cost.py")
    out = subprocess.run(
        [sys.executable, bench, "--sizes", "300,600", "--forgets", "3", *options],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return [line for line in out.splitlines() if re.match(r"\| [\d,]+ \|", line)]


def _check(rows: list[str]) -> None:
    assert [row.split(" | ")[0] for row in rows] == ["| 300", "| 600"]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert re.fullmatch(r"[\d.]+ / [\d.]+", cells[1]) and re.fullmatch(r"[\d.]+ / [\d.]+", cells[2])
        assert float(cells[3]) > 0


def test_forget_cost_prints_both_timings_and_their_ratio_per_size() -> None:
    _check(_table())


def test_forget_cost_runs_on_a_postgresql_database(pg_server: PgServer) -> None:
    _check(_table("--pg", pg_server.owner_url))  # it makes, bulk-loads and drops schemas: the owner's work
