"""What merging the full-text index at every write saves a search: one conversation written twice, note by note,
with the per-write merge and without it, then the same questions asked of both, alternately.

Each turn is written with plain ``remember(scope, "Speaker: text")`` (one write transaction each, as an agent writes
its notes). The model embeds each text once for both files (its vectors are kept), so both files hold the same
records and vectors and differ only in how their full-text index was merged. The questions are then asked one by
one of each file in turn (each file opened anew, so its caches start empty, as a question asked once meets them),
and each recall's wall time and thread CPU are recorded; "without merging" replaces the merge statement with a
no-op. The turns and questions come from ``benchmarks/recall_profile.py`` (neutral templates, or ``--locomo FILE``
for one conversation of that file, read at run time).

    .venv/bin/python benchmarks/fts_segments.py [--locomo FILE --conversation 0] [--passes 3]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from tiermem import Memory, Scope
from tiermem.embed import EmbedderWrapper, MiniLMEmbedder, Vectors

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recall_profile import Turn, from_locomo, generated

sqlite_store = importlib.import_module("tiermem.store.sqlite.store")  # the module, not the package's name
SCOPE = Scope("bench", "plain")
NOW = datetime(2030, 1, 1, tzinfo=UTC)
NO_MERGE = "SELECT 1"


class Kept(EmbedderWrapper):
    """The model, each text embedded once: both files get the same vectors, and a search none of its time."""

    def __init__(self, inner: MiniLMEmbedder) -> None:
        super().__init__(inner)
        self.kept: dict[str, Vectors] = {}

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        todo = [t for t in dict.fromkeys(texts) if t not in self.kept]
        if todo:
            for text, row in zip(todo, self.inner.embed_batch(todo), strict=True):
                self.kept[text] = row
        return np.stack([self.kept[t] for t in texts]) if texts else self.inner.embed_batch(texts)


@contextmanager
def merging(merge: bool) -> Iterator[None]:
    """Writes (opening a file is one) merge the full-text index as shipped, or not at all."""
    saved = sqlite_store._MERGE_FULL_TEXT
    sqlite_store._MERGE_FULL_TEXT = saved if merge else NO_MERGE
    try:
        yield
    finally:
        sqlite_store._MERGE_FULL_TEXT = saved


def segments(memory: Memory) -> int:
    """How many segments the file's full-text index has."""
    (count,) = memory.store._conn.execute("SELECT count(DISTINCT segid) FROM records_fts_idx").fetchone()
    return int(count)


def write(path: Path, model: Kept, turns: list[Turn], *, merge: bool) -> float:
    """The conversation written note by note; ms per write."""
    with merging(merge):
        memory = Memory.open(path, embedder=model)
    with merging(merge):
        started = time.perf_counter()
        for t in turns:
            memory.remember(SCOPE, f"{t.speaker}: {t.text}", valid_from=t.time)
        per_write = (time.perf_counter() - started) * 1000 / len(turns)
    memory.close()
    return per_write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, help="read one LoCoMo conversation at run time")
    parser.add_argument("--conversation", type=int, default=0)
    parser.add_argument("--turns", type=int, default=600, help="generated turns (without --locomo)")
    parser.add_argument("--passes", type=int, default=3, help="passes over the questions, each on files opened anew")
    args = parser.parse_args()
    turns, questions = from_locomo(args.locomo, args.conversation, 200) if args.locomo else generated(args.turns, 200)
    model = Kept(MiniLMEmbedder())
    model.embed_batch(questions)
    wall: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as folder:
        paths = {merge: Path(folder) / f"merge-{merge}.db" for merge in (False, True)}
        write(Path(folder) / "warm.db", model, turns, merge=True)  # every text the writes embed, embedded once
        per_write = {merge: write(paths[merge], model, turns, merge=merge) for merge in (False, True)}
        for done in range(args.passes):
            memories: dict[bool, Memory] = {}
            for merge, path in paths.items():
                with merging(merge):  # opening writes (the file's set-up): no merge without merging
                    memories[merge] = Memory.open(path, embedder=model)
            for number, question in enumerate(questions):
                # Whichever file is asked a question first reads it (its parse is kept): first in turn.
                for merge in (False, True) if (number + done) % 2 == 0 else (True, False):
                    started, thread = time.perf_counter(), time.thread_time()
                    memories[merge].recall(SCOPE, question, k=10, now=NOW)
                    wall[merge].append((time.perf_counter() - started) * 1000)
                    cpu[merge].append((time.thread_time() - thread) * 1000)
            held = {merge: segments(memory) for merge, memory in memories.items()}
            for memory in memories.values():
                memory.close()
    print(f"{len(turns)} turns, {len(questions)} questions, {args.passes} passes, query vectors known")
    for merge in (False, True):
        label = "with the per-write merge" if merge else "without merging"
        print(
            f"{label}: {held[merge]} full-text segments, {per_write[merge]:.2f} ms a write (model time excluded);"
            f" recall p50 {statistics.median(wall[merge]):.2f} ms"
            f" (thread CPU p50 {statistics.median(cpu[merge]):.2f} ms)"
        )
    print(f"ratio with / without: {statistics.median(wall[True]) / statistics.median(wall[False]):.2f}")


if __name__ == "__main__":
    main()
