"""How much of the exact top 10 the sign-bit shortlist keeps, and what it costs, on real MiniLM vectors.

The vectors are LoCoMo dialogue turns embedded with the default model; to reach a large scope each turn is
repeated with small Gaussian noise (mean cosine to its source ~0.93 at --noise 0.02), which makes neighbours
near-ties, a harder case than distinct texts. The queries are LoCoMo's questions, embedded with the same model.
Recall@k compares the shortlist's top k with the exact scan's, per shortlist size; the latencies are of the
numpy scan alone, both paths in the same process. ``--queries-from turns --k 5`` asks what the write path asks:
the 5 nearest stored records of a new record (turns held out of the stored set).

    .venv/bin/python benchmarks/shortlist_recall.py DATA/locomo/locomo-dev.json [--records 100000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the scan is memory-bound; see README "Performance"

import numpy as np

from tiermem.embed import Vectors, get_embedder
from tiermem.eval.locomo import load_locomo
from tiermem.store.vector_index import IndexRow, ScopeVectors
from tiermem.store.vector_scan import SHORTLIST_MIN, nearest


def _index(vectors: Vectors) -> ScopeVectors:
    index = ScopeVectors(0, "bench", vectors.shape[1], capacity=len(vectors))
    index.upsert(IndexRow(i, f"r{i}", "episodic", "user", "", "", 0.0, None, None, v) for i, v in enumerate(vectors))
    return index


def measure(vectors: Vectors, queries: Vectors, sizes: list[int], k: int = 10) -> dict[str, object]:
    """Recall@k of the shortlist against the exact scan, and p50 scan times, for each shortlist size."""
    index = _index(vectors)
    matrix, codes, ids = index.view("matrix"), index.code_view(), index.view("ids")
    mask = np.ones(len(vectors), dtype=bool)
    exact, exact_ms = [], []
    for q in queries:
        t0 = time.perf_counter()
        exact.append({c.id for c in nearest(matrix, None, q, mask, ids, k)})
        exact_ms.append((time.perf_counter() - t0) * 1000)
    out: dict[str, object] = {"records": len(vectors), "queries": len(queries), "exact_p50_ms": _p50(exact_ms)}
    for size in sizes:
        overlap, ms = [], []
        for q, truth in zip(queries, exact, strict=True):
            t0 = time.perf_counter()
            found = nearest(matrix, codes, q, mask, ids, k, shortlist=size)
            ms.append((time.perf_counter() - t0) * 1000)
            overlap.append(len(truth & {c.id for c in found}) / k)
        out[f"shortlist_{size}"] = {f"recall@{k}": round(statistics.fmean(overlap), 4), "p50_ms": _p50(ms)}
    return out


def _p50(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("locomo", type=Path)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--noise", type=float, default=0.02)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--sizes", default=f"512,1024,{SHORTLIST_MIN},4096")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--k", type=int, default=10)
    # The write path looks up the 5 nearest stored records of each new one: records, not questions, ask.
    parser.add_argument("--queries-from", choices=("questions", "turns"), default="questions")
    args = parser.parse_args()
    conversations = load_locomo(args.locomo)
    turns = [t.content for c in conversations for t in c.turns]
    questions = [q.question for c in conversations for q in c.questions][: args.queries]
    if args.queries_from == "turns":  # every n-th turn, not stored: a new record is not in the scope yet
        step = max(2, len(turns) // args.queries)
        questions, turns = turns[::step][: args.queries], [t for i, t in enumerate(turns) if i % step]
    model = get_embedder(args.embedder)
    base, queries = model.embed_batch(turns), model.embed_batch(questions)
    rng = np.random.default_rng(0)
    reps = -(-args.records // len(base))
    big = np.repeat(base, reps, axis=0)[: args.records]
    big = big + rng.standard_normal(big.shape).astype(np.float32) * args.noise
    big /= np.linalg.norm(big, axis=1, keepdims=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        json.dumps(
            {"embedder": model.fingerprint, "noise": args.noise, **measure(big, queries, sizes, args.k)}, indent=2
        )
    )


if __name__ == "__main__":
    main()
