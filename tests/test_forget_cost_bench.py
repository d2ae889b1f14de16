"""The forget benchmark runs as docs/lifecycle.md shows it (on a small user) and prints its table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_forget_cost_prints_both_timings_and_their_ratio_per_size() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "forget_cost.py"), "--sizes", "300,600", "--forgets", "3"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    rows = [line for line in out.splitlines() if re.match(r"\| [\d,]+ \|", line)]
    assert [row.split(" | ")[0] for row in rows] == ["| 300", "| 600"]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert re.fullmatch(r"[\d.]+ / [\d.]+", cells[1]) and re.fullmatch(r"[\d.]+ / [\d.]+", cells[2])
        assert float(cells[3]) > 0
