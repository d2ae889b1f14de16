"""Reads racing writes, forgets and supersessions of one user, on a SQLite file and on PostgreSQL.

Recall, listing, related and history read in several statements; whatever commits between them, a read returns
records that were written, fails with nothing but NotFoundError for a record forgotten under it, and once the
writers are done, forgotten and replaced notes are gone from recall.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from at_once import at_once
from tiermem.embed import HashingEmbedder
from tiermem.errors import NotFoundError
from tiermem.memory import Memory
from tiermem.types import Filter, Scope, utcnow

ANN = Scope("acme", "ann")
DAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_WORDS = "amber basil cobalt delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow nectar".split()


@pytest.fixture(params=["sqlite-file", "postgres"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    """A memory on a SQLite file (so that threads really share it) and on a fresh PostgreSQL schema."""
    url = (
        str(tmp_path / "races.db")
        if request.param == "sqlite-file"
        else request.getfixturevalue("pg_server").schema_url("reads")
    )
    with Memory.open(url, embedder=HashingEmbedder(dim=64)) as mem:
        yield mem


def _notes(prefix: str, count: int) -> list[str]:
    """Notes that share the word "lantern" and little else, so that none is merged into another."""
    return [
        f"The lantern of {prefix}{i} stands by {' and '.join(_WORDS[(i + j * 3) % 14] + prefix for j in range(3))}."
        for i in range(count)
    ]


def test_reads_racing_writes_forgets_and_replacements_see_only_written_records(memory: Memory) -> None:
    first = [memory.remember(ANN, t, valid_from=DAY).record for t in _notes("old", 14)]
    ids = [r.id for r in first if r is not None]
    written = set(_notes("old", 14)) | set(_notes("new", 14)) | set(_notes("newer", 5))
    doomed, replaced = ids[:5], ids[5:10]

    def write() -> None:
        for text in _notes("new", 14):
            memory.remember(ANN, text, valid_from=DAY)

    def forget() -> None:
        for rid in doomed:
            memory.forget(ANN, rid)

    def replace() -> None:
        for rid, text in zip(replaced, _notes("newer", 5), strict=True):
            memory.remember(ANN, text, valid_from=DAY, supersedes=rid)

    def read(asked: str) -> None:
        for _ in range(14):
            hits = memory.recall(ANN, asked, k=10)
            assert {h.record.content for h in hits} <= written
            assert {r.content for r in memory.list(ANN, limit=50).records} <= written
            assert {r.text for r in memory.related(ANN, "lantern").records} <= written
            for rid in doomed + replaced:
                try:
                    assert {r.content for r in memory.history(ANN, rid)} <= written
                except NotFoundError:
                    assert rid in doomed

    at_once(write, forget, replace, *(functools.partial(read, q) for q in ("lantern gate", "where is the lantern")))
    after = {h.record.id for h in memory.recall(ANN, "lantern gate", k=50)}
    assert not after & set(doomed + replaced)
    assert len(after) == 14 - 10 + 14 + 5


_WRITER = """
import sys
from tiermem.embed import HashingEmbedder
from tiermem.memory import Memory
from tiermem.types import Scope
with Memory.open(sys.argv[1], embedder=HashingEmbedder(dim=64)) as memory:
    for i in range(int(sys.argv[2])):
        record = memory.remember(Scope("acme", "ann"), f"The lantern of note{i} by gate{i} and tower{i}.").record
        if i % 2 == 0 and record is not None:
            memory.forget(Scope("acme", "ann"), record.id)
"""


def test_keyword_reads_racing_another_process_writing_the_same_sqlite_file_never_fail(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    with Memory.open(path, embedder=HashingEmbedder(dim=64)) as memory:
        memory.remember(ANN, "The lantern stands by the gate.", valid_from=DAY)
        writer = subprocess.Popen([sys.executable, "-c", _WRITER, path, "600"])
        reads = 0
        try:
            while writer.poll() is None:
                # Each read counts the scope's rows, its matches and their sizes in separate statements.
                found = memory.store.keyword_candidates(ANN, ["lantern", "gate"], Filter(), now=utcnow(), limit=50)
                assert found and all(c.score > 0 for c in found)
                memory.store.term_document_counts(ANN, ["lantern"])
                reads += 1
        finally:
            writer.kill() if writer.poll() is None else None
        assert writer.wait() == 0
        assert reads > 100  # the reads really overlapped the writes
