"""What a search's vector scan costs as a BLAS matrix-vector product against one dot product per row.

A search scores a scope's vectors once, between stretches of Python work (the keyword lists, fusion, the
stages). A BLAS product of that size wakes the library's thread pool each time; on a machine whose cores are
busy the waking threads wait for a core. The scan is timed alone, after the same stretch of Python work each
time, idle and beside ``--busy`` processes that spin. numpy as installed; its BLAS threads as the environment
sets them (unset: one per core).

    .venv/bin/python benchmarks/scan_threads.py [--rows 1313,20000] [--busy 0,1] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from collections.abc import Callable

import numpy as np

from tiermem.embed import Vectors
from tiermem.store.vector_scan import similarities

DIM = 384


def _spin() -> None:
    while True:
        pass


def _between() -> int:
    """About a millisecond of interpreter work, as a search does between its scans."""
    return sum(i * i for i in range(20_000))


def _p50(scan: Callable[[Vectors, Vectors], object], matrix: Vectors, query: Vectors, calls: int) -> float:
    times = []
    for _ in range(calls):
        _between()
        start = time.perf_counter()
        scan(matrix, query)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1313,20000", help="scope sizes (vectors), comma-separated")
    parser.add_argument("--busy", default="0,1", help="spinning processes beside the scan, comma-separated")
    parser.add_argument("--runs", type=int, default=5, help="runs of each case; the median of their p50s is shown")
    parser.add_argument("--calls", type=int, default=200, help="scans a run")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    out = []
    for busy in (int(b) for b in args.busy.split(",")):
        spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(busy)]
        for p in spinners:
            p.start()
        try:
            for rows in (int(r) for r in args.rows.split(",")):
                matrix = rng.standard_normal((rows, DIM)).astype(np.float32)
                query = rng.standard_normal(DIM).astype(np.float32)
                blas, row_dot = [], []
                for _ in range(args.runs):  # alternately, so a busy spell falls on both
                    blas.append(_p50(np.matmul, matrix, query, args.calls))
                    row_dot.append(_p50(similarities, matrix, query, args.calls))
                b, r = statistics.median(blas), statistics.median(row_dot)
                out.append({"busy": busy, "rows": rows, "blas_p50_ms": round(b, 3), "row_dot_p50_ms": round(r, 3)})
                print(f"busy {busy}  rows {rows:>6}  BLAS product p50 {b:7.3f} ms  row dot {r:7.3f} ms  ({b / r:.1f}x)")
        finally:
            for p in spinners:
                p.terminate()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
