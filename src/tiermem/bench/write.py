"""(internal) ``tiermem bench --write-path``: writes/s through the full write path at a given scope size.

Each write is validated, hashed against exact duplicates, embedded, compared with its nearest stored facts
(merge and supersession decisions), stored with its index rows and audited. The scope is first filled with
Zipf-distributed facts and random unit vectors (detection off, which only makes the fill fast); the timed
writes then run with detection on, once with the real model and once with precomputed-cost-free random
vectors, so the figures separate the model's cost from the write path's own.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from tiermem.bench.recall import _RandomVectors, zipf_texts
from tiermem.embed import Embedder, get_embedder
from tiermem.memory import Memory
from tiermem.types import Scope
from tiermem.write.path import NewMemory, WritePolicy

__all__ = ["run_write_bench"]


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else float("inf")


def _timed_writes(mem: Memory, scope: Scope, texts: list[str], batch: int) -> float:
    start = time.perf_counter()
    if batch == 1:
        for text in texts:
            mem.remember(scope, text)
    else:
        for i in range(0, len(texts), batch):
            mem.remember_many(scope, [NewMemory(t) for t in texts[i : i + batch]])
    return time.perf_counter() - start


def run_write_bench(
    *, sizes: tuple[int, ...], singles: int = 200, batched: int = 1000, batch: int = 100, embedder: str = "minilm"
) -> dict[str, Any]:
    """Writes/s single and batched, with the real model and without it, at each scope size."""
    real: Embedder = get_embedder(embedder)
    real.embed_batch(["warm up"])
    report: dict[str, Any] = {"embedder": real.fingerprint, "batch": batch}
    with tempfile.TemporaryDirectory(prefix="tiermem-wbench-") as tmp:
        for size in sizes:
            scope = Scope("bench", f"w{size}")
            random_vectors = _RandomVectors(real)
            with Memory.open(
                Path(tmp) / f"w{size}.db", embedder=random_vectors, write_policy=WritePolicy(detect=False)
            ) as filler:
                texts = zipf_texts(size)
                for i in range(0, size, 5000):
                    filler.remember_many(scope, [NewMemory(t) for t in texts[i : i + 5000]])
            fresh = iter(zipf_texts(4 * (singles + batched), seed=size + 1))
            figures: dict[str, Any] = {}
            for label, model in (("with_embedding", real), ("without_embedding", random_vectors)):
                with Memory.open(Path(tmp) / f"w{size}.db", embedder=model) as mem:
                    mem.recall(scope, "warm the caches", k=1)
                    one = [next(fresh) for _ in range(singles)]
                    many = [next(fresh) for _ in range(batched)]
                    figures[label] = {
                        "single_writes_per_s": _rate(singles, _timed_writes(mem, scope, one, 1)),
                        "batched_writes_per_s": _rate(batched, _timed_writes(mem, scope, many, batch)),
                    }
            figures["records_after"] = size + 2 * (singles + batched)
            report[f"scope_{size}"] = figures
    return report
