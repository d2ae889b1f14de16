"""A file written record by record keeps its full-text index in a handful of segments, and finds the same rows."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from store_fixtures import ANY, NOW, item, make_record
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import Scope

SCOPE = Scope("t", "u")
WORDS = "river stone lamp garden ticket piano winter harbour letter window bread violin kettle meadow".split()


def _segments(store: SQLiteStore) -> int:
    (count,) = store._conn.execute("SELECT count(DISTINCT segid) FROM records_fts_idx").fetchone()
    return int(count)


def test_a_scope_written_record_by_record_keeps_few_full_text_segments(tmp_path: Path) -> None:
    rng = random.Random(3)
    store = SQLiteStore(tmp_path / "m.db")
    try:
        for _ in range(300):  # one write transaction each, as remember() writes a note
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12)))
            store.put_many([item(make_record(SCOPE, text))])
        assert _segments(store) <= 8
        found = store.keyword_candidates(SCOPE, ["piano", "kettle"], ANY, now=NOW, limit=500)
        store._conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")  # one segment
        assert _segments(store) == 1
        assert store.keyword_candidates(SCOPE, ["piano", "kettle"], ANY, now=NOW, limit=500) == found
    finally:
        store.close()


def test_the_segments_benchmark_writes_both_ways_and_the_merge_keeps_fewer_segments() -> None:
    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, "benchmarks/fts_segments.py", "--turns", "300", "--passes", "1"]
    out = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True, timeout=300).stdout
    held = {
        line.split(":")[0]: int(re.search(r"(\d+) full-text segments", line).group(1))  # type: ignore[union-attr]
        for line in out.splitlines()
        if "full-text segments" in line
    }
    assert held["with the per-write merge"] < held["without merging"]
    assert "ratio with / without" in out
