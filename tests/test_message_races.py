"""Messages sent by two writers at once (a transcript re-sent through two servers) are stored and audited once.

``remember_messages`` looks for a message's record by its derived id before it takes the user's write lock, so a
second writer can find nothing and then write the same ids after the first committed. The write path must then
leave the stored records as they are: the chaos harness (benchmarks/chaos.py) found each such record audited as
added twice.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pg_fixtures import PgServer
from tiermem import Memory, Scope, WriteStatus
from tiermem.embed import HashingEmbedder
from tiermem.types import utcnow
from tiermem.write.path import NewMemory, write_many

ANN = Scope("acme", "ann", None, "s1")
TURNS = [
    {"role": "user", "content": "The lighthouse keeper paints the rail every spring", "id": "m1"},
    {"role": "assistant", "content": "Which colour does the keeper choose this year", "id": "m2"},
]


@pytest.fixture(params=["sqlite", "postgres"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    if request.param == "sqlite":
        url = str(tmp_path / "races.db")
    else:
        pg: PgServer = request.getfixturevalue("pg_server")
        url = pg.schema_url("msgraces")
    with Memory.open(url, embedder=HashingEmbedder()) as opened:
        yield opened


def _adds(memory: Memory, record_id: str) -> list[tuple[str, int]]:
    return [(e.op, e.version) for e in memory.audit(ANN, record_id)]


def test_a_record_id_a_racing_writer_stored_first_is_left_as_it_is_and_audited_once(memory: Memory) -> None:
    first = memory.remember_messages(ANN, TURNS)
    ids = [r.record.id for r in first]
    # The second writer looked before the first committed: it writes the same derived ids.
    items = [NewMemory(t["content"], type="episodic", dedupe=False) for t in TURNS]
    second = write_many(memory.store, memory.embedder, ANN, items, utcnow(), ids=ids)
    assert [r.status for r in second] == [WriteStatus.UNCHANGED] * len(TURNS)
    assert [r.record for r in second] == [r.record for r in first]  # as the first writer stored them
    for record_id in ids:
        assert _adds(memory, record_id) == [("add", 1)]


def test_the_same_messages_from_two_threads_at_once_are_stored_and_audited_once(memory: Memory) -> None:
    start = threading.Barrier(2)
    for lap in range(5):
        session = Scope("acme", "ann", None, f"lap{lap}")
        turns = [{**t, "content": f"{t['content']} (lap {lap})"} for t in TURNS]

        def send() -> None:
            start.wait()
            memory.remember_messages(session, turns)  # noqa: B023  (each lap's threads end inside it)

        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        records = [r for r in memory.store.scope_records(session) if r.scope.session == session.session]
        assert sorted(r.content for r in records) == sorted(t["content"] for t in turns)
        for record in records:
            assert [(e.op, e.version) for e in memory.audit(session, record.id)] == [("add", 1)]
