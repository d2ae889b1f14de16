"""Synchronous remember() against write-behind, same notes, same model, same run.

    PYTHONPATH=src python benchmarks/write_behind.py [--notes 200] [--runs 3] [--seed 7]

Prints, per run and as the median of the runs: synchronous writes/s (each acknowledged once embedded, its
sentences too, and checked for near-duplicates), write-behind acknowledged writes/s (stored, full-text indexed,
scanned, durable), and write-behind fully indexed throughput (the same writes, timed until ``flush`` returns:
every vector stored, merges and supersessions decided), with their ratios; and, as the peers' reference, one
model call per note on its whole text (what LangGraph's InMemoryStore pays per put, without any store). The
notes are generated: neutral multi-sentence notes about made-up people, places and things, each different, on
the real MiniLM model.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from tiermem import Memory, Scope
from tiermem.embed import Embedder, MiniLMEmbedder

SCOPE = Scope("bench", "notes")
NAMES = ["Arlo", "Bea", "Cyril", "Dagny", "Emeka", "Fenna", "Goran", "Hedda", "Ilse", "Joaquin", "Kaito", "Liesel"]
THINGS = ["bicycle pump", "sourdough starter", "tide table", "spare key", "tent pegs", "sketchbook", "tuning fork"]
PLACES = ["boathouse", "attic", "garden shed", "library annex", "workshop", "pantry", "bell tower", "greenhouse"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ACTIVITIES = ["rowing", "pottery", "choir practice", "chess club", "bouldering", "bird counts", "map reading"]
TAILS = [
    "{name} says it is easier to find there than anywhere else.",
    "The group meets on {day} mornings before the market opens.",
    "{name} started {activity} three years ago and still goes every week.",
    "Nobody else in the house uses the {place} much.",
    "The last time it went missing it turned up in the {place}.",
    "{name} would like to try {activity} with a friend next spring.",
]


def notes(count: int, seed: int) -> list[str]:
    """``count`` different notes of two to four sentences."""
    rng = random.Random(seed)
    out: list[str] = []
    for i in range(count):
        name, thing, place = rng.choice(NAMES), rng.choice(THINGS), rng.choice(PLACES)
        fill = {"name": name, "day": rng.choice(DAYS), "activity": rng.choice(ACTIVITIES), "place": rng.choice(PLACES)}
        tails = [t.format(**fill) for t in rng.sample(TAILS, rng.randint(1, 3))]
        out.append(f"{name} keeps the {thing} number {i} in the {place}. " + " ".join(tails))
    return out


def timed_model(model: Embedder, texts: list[str]) -> float:
    """Notes per second of the model alone, one call per note on its whole text (a peer's embedding per put)."""
    started = time.perf_counter()
    for text in texts:
        model.embed_batch([text])
    return len(texts) / (time.perf_counter() - started)


def timed_sync(model: Embedder, texts: list[str], folder: Path) -> float:
    """Writes per second of plain remember(): each returns once embedded and checked."""
    with Memory.open(folder / "sync.db", embedder=model) as memory:
        started = time.perf_counter()
        for text in texts:
            memory.remember(SCOPE, text)
        return len(texts) / (time.perf_counter() - started)


def timed_behind(model: Embedder, texts: list[str], folder: Path) -> tuple[float, float]:
    """Acknowledged writes per second, and fully indexed writes per second (until flush returns)."""
    with Memory.open(folder / "behind.db", embedder=model, write_behind=True) as memory:
        started = time.perf_counter()
        for text in texts:
            memory.remember(SCOPE, text)
        acknowledged = time.perf_counter() - started
        memory.flush()
        indexed = time.perf_counter() - started
        assert memory.store.unindexed() == []
        return len(texts) / acknowledged, len(texts) / indexed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    model = MiniLMEmbedder(cache_size=0)  # every text is new anyway; no cache flatters either mode
    model.embed_batch(["warm the model up before anything is timed"])
    load_before = os.getloadavg()[0]
    rows: list[dict[str, float]] = []
    for run in range(args.runs):
        texts = notes(args.notes, args.seed + run)
        with tempfile.TemporaryDirectory() as folder:
            peer = timed_model(model, texts)
            sync = timed_sync(model, texts, Path(folder))
            acknowledged, indexed = timed_behind(model, texts, Path(folder))
        rows.append({"one_model_call_per_note": peer, "sync": sync, "acknowledged": acknowledged, "indexed": indexed})
        print(
            f"run {run + 1}: model alone {peer:.1f}/s, sync {sync:.1f}/s, write-behind acknowledged"
            f" {acknowledged:.0f}/s, fully indexed {indexed:.1f}/s (load {os.getloadavg()[0]:.1f})",
            file=sys.stderr,
        )
    median = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
    report = {
        "notes": args.notes,
        "runs": args.runs,
        "model": model.fingerprint,
        "load_average_before_after": [load_before, os.getloadavg()[0]],
        "median_writes_per_s": median,
        "acknowledged_vs_sync": median["acknowledged"] / median["sync"],
        "indexed_vs_sync": median["indexed"] / median["sync"],
        "acknowledged_vs_one_model_call_per_note (issue 21: >= 10)": median["acknowledged"]
        / median["one_model_call_per_note"],
        "indexed_vs_one_model_call_per_note (issue 21: >= 1)": median["indexed"] / median["one_model_call_per_note"],
        "runs_writes_per_s": rows,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
