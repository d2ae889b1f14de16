"""A file written record by record keeps its full-text index in a handful of segments, and finds the same rows."""

from __future__ import annotations

import random
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
