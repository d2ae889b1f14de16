"""A recall on SQLite reads its scope's state once (``store.sqlite.pin``) and still sees every write, from this
connection, another one or another process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from store_fixtures import ALICE, ANY, NOW, item, make_record
from tiermem import Memory, Scope
from tiermem.store.sqlite.fts import HOLD_ROWS_FROM
from tiermem.store.sqlite.store import SQLiteStore

WORDS = "kettle lantern harbour violin garden pepper ladder".split()
SCOPE = Scope("acme", "rowan")
QUESTIONS = ("where is the lantern kept", "who tuned the violin", "what grows in the garden")


def _fill(store: SQLiteStore, n: int) -> None:
    texts = [f"{WORDS[i % 7]} {WORDS[(i * 3) % 7]} note {i} {WORDS[(i * 5 + 1) % 7]}" for i in range(n)]
    store.put_many([item(make_record(ALICE, text)) for text in texts])


def _scored(store: SQLiteStore, terms: list[str]) -> list[tuple[str, float]]:
    return [(c.id, c.score) for c in store.keyword_candidates(ALICE, terms, ANY, now=NOW, limit=50)]


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    mem = Memory.open(tmp_path / "m.db", embedder="hash")
    for i in range(30):
        mem.remember(SCOPE, f"The {WORDS[i % 7]} by the {WORDS[(i * 3) % 7]} was moved on day {i}.")
    for _ in range(HOLD_ROWS_FROM + 1):  # every cache of the scope warm
        for question in QUESTIONS:
            mem.recall(SCOPE, question)
    yield mem
    mem.close()


def _statements(mem: Memory, question: str) -> list[str]:
    """The statements one recall runs on the store's connection (the full-text index's own left out)."""
    ran: list[str] = []
    conn = mem.store._conn  # type: ignore[attr-defined]
    conn.set_trace_callback(ran.append)
    try:
        mem.recall(SCOPE, question)
    finally:
        conn.set_trace_callback(None)
    return [s for s in ran if not s.startswith("--")]


def test_a_warm_recall_reads_its_scope_in_one_statement(memory: Memory) -> None:
    ran = _statements(memory, QUESTIONS[0])
    assert len(ran) == 1, ran


def test_keyword_candidates_from_the_terms_rows_held_equal_the_index(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        _fill(store, 60)
        terms = ["kettle", "violin", "kettle violin", "ladder"]
        asked = _scored(store, terms)
        for _ in range(HOLD_ROWS_FROM):
            _scored(store, terms)
        ran: list[str] = []
        store._conn.set_trace_callback(ran.append)
        with store.pinned(ALICE):
            held = _scored(store, terms)
        store._conn.set_trace_callback(None)
        assert held == asked
        assert not any("MATCH" in s for s in ran), ran
    finally:
        store.close()


def test_a_write_inside_a_pin_is_seen_by_the_pins_next_reads(tmp_path: Path) -> None:
    first, second = SQLiteStore(tmp_path / "m.db"), SQLiteStore(tmp_path / "m.db")
    try:
        _fill(first, 20)
        for _ in range(HOLD_ROWS_FROM):
            _scored(first, ["pepper"])
        with first.pinned(ALICE):
            before = _scored(first, ["pepper"])
            added = make_record(ALICE, "pepper pepper pepper")
            second.put_many([item(added)])
            assert first.get_many(ALICE, [added.id])[added.id].content == "pepper pepper pepper"
        after = _scored(first, ["pepper"])
        assert added.id not in dict(before)
        assert after[0][0] == added.id
    finally:
        first.close()
        second.close()


def test_a_recall_sees_a_record_another_memory_on_the_file_wrote(memory: Memory, tmp_path: Path) -> None:
    other = Memory.open(tmp_path / "m.db", embedder="hash")
    try:
        written = other.remember(SCOPE, "The lantern now hangs in the boathouse loft.")
    finally:
        other.close()
    assert written.record.id in [h.record.id for h in memory.recall(SCOPE, QUESTIONS[0])]


def test_a_recall_sees_a_record_another_process_wrote(memory: Memory, tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from tiermem import Memory, Scope\n"
        "mem = Memory.open(sys.argv[1], embedder='hash')\n"
        "print(mem.remember(Scope('acme', 'rowan'), 'The violin was tuned by the harbour master.').record.id)\n"
        "mem.close()\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "m.db")], env=env, capture_output=True, text=True, check=True
    )
    written = done.stdout.strip()
    assert written in [h.record.id for h in memory.recall(SCOPE, QUESTIONS[1])]
