"""PostgreSQL operations: write and recall throughput of two versions of the code in one run, and fail-fast.

``--before SRC`` names another checkout's ``src`` folder (e.g. a worktree of main): each round runs the same
workload with that code and with this one, alternating which goes first, each in a child process of its own
on a fresh schema of the same embedded server (``--rounds``, medians reported). The workload: ``--records``
notes remembered one by one through the write path (dedupe, supersession, full-text and vector upkeep) in one
user, then ``--queries`` hybrid recalls (k 10). The code before runs as the owner of its schema (its tables are
FORCEd under row security then); this code as the runtime role (``tiermem init --grant``); row security binds
both. The hash embedder stands in for the model: the store is measured, not the embedding.

``--outage`` also times, on a running ``tiermem serve``, searches and ``/readyz`` while the server is stopped,
and how long until ``/readyz`` is 200 again after it restarts. ``--rate R`` counts the requests three workers
on one database admit in ``--seconds``, one client thread per worker as fast as it can, with ``--rate R/3`` on
each and then with ``--rate R`` on each (``--burst 5``; the figure is also given less the three bursts).

    .venv/bin/python benchmarks/pg_ops.py --before /tmp/main/src --rounds 5 --outage --rate 60
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

BURST = 5
_CHILD = r"""
import json, random, sys, time
from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
url, records, queries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
words = "river stone cloud paper market garden yellow window seven eleven ticket coffee bridge lantern".split()
rng = random.Random(7)
scope = Scope("bench", "alice")
with Memory.open(url, embedder=HashingEmbedder()) as mem:
    notes = [" ".join(rng.choice(words) for _ in range(8)) + f" note {i}" for i in range(records)]
    started = time.perf_counter()
    for note in notes:
        mem.remember(scope, note)
    wrote = time.perf_counter() - started
    asks = [" ".join(rng.choice(words) for _ in range(4)) for _ in range(queries)]
    took = []
    for ask in asks:
        t = time.perf_counter()
        mem.recall(scope, ask, k=10)
        took.append(time.perf_counter() - t)
print(json.dumps({"writes_per_s": records / wrote, "recall_ms": [x * 1000 for x in took]}))
"""


def _run(src: Path, url: str, records: int, queries: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, url, str(records), str(queries)], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"the workload failed with {src}:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    recall = sorted(out["recall_ms"])
    return {
        "writes_per_s": out["writes_per_s"],
        "recall_p50_ms": statistics.median(recall),
        "recall_p95_ms": recall[int(0.95 * (len(recall) - 1))],
        "recalls_per_s": 1000 * len(recall) / sum(recall),
    }


def _throughput(args: argparse.Namespace, server: object) -> None:
    mine = ROOT / "src"
    results: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for n in range(args.rounds):
        order = ["before", "after"] if n % 2 == 0 else ["after", "before"]
        for which in order:
            if which == "before":
                url = server.owner_schema_url("before")  # type: ignore[attr-defined]
                results[which].append(_run(args.before, url, args.records, args.queries))
            else:
                url = server.schema_url("after")  # type: ignore[attr-defined]
                results[which].append(_run(mine, url, args.records, args.queries))
        print(f"round {n + 1}: " + json.dumps({k: v[-1] for k, v in results.items()}), file=sys.stderr)
    print(f"{'median of ' + str(args.rounds) + ' rounds':<26} {'before':>10} {'after':>10} {'after/before':>13}")
    for metric in ("writes_per_s", "recalls_per_s", "recall_p50_ms", "recall_p95_ms"):
        before = statistics.median(r[metric] for r in results["before"])
        after = statistics.median(r[metric] for r in results["after"])
        print(f"{metric:<26} {before:>10.1f} {after:>10.1f} {after / before:>13.2f}")


def _outage(pg: object, searches: int) -> None:
    import httpx

    from test_pg_outage import _key, _served

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        url = pg.urls.schema_url("outage")  # type: ignore[attr-defined]
        secret = _key(url, tmp)
        with _served(url, tmp) as (base, _log):
            auth = {"Authorization": f"Bearer {secret}"}
            with httpx.Client(base_url=base, headers=auth, timeout=60) as c:
                c.post("/v1/memories", json={"content": "the boiler is serviced in March"})
                pg.stop()  # type: ignore[attr-defined]
                took, codes = [], []
                for _ in range(searches):
                    t = time.perf_counter()
                    codes.append(c.post("/v1/memories/search", json={"query": "boiler"}).status_code)
                    took.append(time.perf_counter() - t)
                ready = []
                for _ in range(20):
                    t = time.perf_counter()
                    httpx.get(f"{base}/readyz", timeout=60)
                    ready.append(time.perf_counter() - t)
                pg.start()  # type: ignore[attr-defined]
                back = time.perf_counter()
                while httpx.get(f"{base}/readyz").status_code != 200:
                    time.sleep(0.05)
                again = time.perf_counter() - back
    took.sort()
    ready.sort()
    print(f"PostgreSQL stopped: {searches} searches, statuses {sorted(set(codes))}")
    p95 = took[int(0.95 * (len(took) - 1))]
    print(
        f"  search p50 / p95 / max: {statistics.median(took) * 1000:.1f} / {p95 * 1000:.1f} / {took[-1] * 1000:.1f} ms"
    )
    print(f"  /readyz p50 / max: {statistics.median(ready) * 1000:.1f} / {ready[-1] * 1000:.1f} ms")
    print(f"  /readyz 200 again {again:.2f} s after the server was started again (no restart of tiermem)")


def _rate(pg: object, total: float, seconds: float) -> None:
    from test_pg_workers import WORKERS, _cli, _workers, admitted

    with tempfile.TemporaryDirectory() as folder:
        url = pg.urls.schema_url("rate")  # type: ignore[attr-defined]
        secret = _cli(url, "keys", "create", "--tenant", "acme", "--user", "alice")
        for each in (total / WORKERS, total):
            with _workers(url, Path(folder), "--rate", f"{each:g}", "--burst", str(BURST)) as bases:
                accepted = admitted(bases, secret, seconds)
            steady = (sum(accepted) - WORKERS * BURST) / seconds  # less each worker's burst, spent once
            print(
                f"{WORKERS} workers at --rate {each:g} --burst {BURST} each: {sum(accepted) / seconds:.1f} accepted/s"
                f" in all, {steady:.1f} less the bursts ({steady / total:.2f} x {total:g}); per worker {accepted}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout's src folder, measured against this one")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--records", type=int, default=400)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--outage", action="store_true", help="time the service with its database stopped")
    parser.add_argument("--searches", type=int, default=50)
    parser.add_argument("--rate", type=float, default=0, help="requests/s in all for three workers (0: skip)")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    from pg_fixtures import private_pg

    with private_pg() as pg:
        if args.before is not None:
            _throughput(args, pg.urls)
        print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        if args.outage:
            _outage(pg, args.searches)
        if args.rate:
            _rate(pg, args.rate, args.seconds)


if __name__ == "__main__":
    main()
