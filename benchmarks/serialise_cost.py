"""What serialising the writes of one user costs: write throughput with ``Store.serialise`` as shipped and with it
turned into a no-op (the write path as it was before), on SQLite and on PostgreSQL, in one run.

K writer processes each open the store and write N/K facts through ``Memory.remember_many`` (the whole write
path: dedupe, embedding with the hash embedder, near-duplicate and supersession detection, put, audit), batches of
``--batch``, all released at once; the figure is records per second from the release until the last writer is done.
Two layouts: every writer writes the same user (the lock is contended all the time: the worst case), or each its
own user (the usual case: the lock is per user). Each round runs both modes in alternating order, on fresh users;
the table gives medians over the rounds and the ratio shipped / no-op (1.00: free; 0.50: half the throughput).

On SQLite ``serialise`` takes nothing more than the write transaction's own file lock (``BEGIN IMMEDIATE``), so its
no-op is the same code: the ratio shows the noise of the measurement. On PostgreSQL it is an advisory lock per
(tenant, user) held to the end of the write's transaction.

    .venv/bin/python benchmarks/serialise_cost.py                         # both stores, an embedded PostgreSQL
    .venv/bin/python benchmarks/serialise_cost.py --records 2000 --writers 8 --rounds 7
    .venv/bin/python benchmarks/serialise_cost.py --store postgres --pg postgresql://...   # a schema tiermem init made
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.synchronize import Barrier
from pathlib import Path
from shutil import rmtree
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chaoslib.postgres import OwnPostgres  # the harness's own server: started here, stopped at the end

MODES = ("shipped", "no-op")
LAYOUTS = ("one user", "a user each")
_WORDS = "amber basil cobalt delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow nectar".split()


def _writer(url: str, mode: str, users: list[str], count: int, batch: int, tag: str, start: Barrier) -> None:
    """One writer process: open the store, wait for the others, write ``count`` facts spread over ``users``."""
    from tiermem import Memory, Scope
    from tiermem.embed import HashingEmbedder
    from tiermem.write.path import NewMemory

    with Memory.open(url, embedder=HashingEmbedder()) as memory:
        if mode == "no-op":
            type(memory.store).serialise = lambda self, scope: None  # type: ignore[method-assign]
        items = [
            NewMemory(f"{tag} fact {i}: {_WORDS[i % len(_WORDS)]} {_WORDS[(i * 7) % len(_WORDS)]} number {i * 13}")
            for i in range(count)
        ]
        start.wait()
        for at in range(0, count, batch):
            user = users[(at // batch) % len(users)]
            memory.remember_many(Scope("bench", user), items[at : at + batch])


def _round(url: str, mode: str, layout: str, records: int, writers: int, batch: int, tag: str) -> float:
    """Records per second of one round."""
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(writers + 1)
    per = records // writers
    procs = []
    for k in range(writers):
        users = [f"{tag}-one"] if layout == "one user" else [f"{tag}-w{k}"]
        args = (url, mode, users, per, batch, f"{tag}-w{k}", start)
        procs.append(context.Process(target=_writer, args=args))
    for p in procs:
        p.start()
    start.wait(timeout=300)
    began = time.perf_counter()
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise SystemExit(f"a writer failed (exit {p.exitcode}) in {mode}, {layout}")
    return per * writers / (time.perf_counter() - began)


@contextmanager
def _stores(which: list[str], pg_url: str | None) -> Iterator[dict[str, str]]:
    """The URL of each store to measure (a fresh SQLite file; a fresh PostgreSQL schema)."""
    root = Path(tempfile.mkdtemp(prefix="tiermem-serialise-"))
    pg: OwnPostgres | None = None
    try:
        urls: dict[str, str] = {}
        if "sqlite" in which:
            urls["sqlite"] = str(root / "bench.db")
        if "postgres" in which:
            if pg_url is None:
                pg = OwnPostgres(root)
                pg.start()
                _, pg_url = pg.prepare()
            urls["postgres"] = pg_url
        yield urls
    finally:
        if pg is not None:
            pg.stop()
        rmtree(root, ignore_errors=True)


def measure(args: argparse.Namespace) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (store, layout): each mode's records/s per round, their medians and the ratio shipped / no-op."""
    which = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    results: dict[tuple[str, str], dict[str, Any]] = {}
    with _stores(which, args.pg) as urls:
        for store, url in urls.items():
            for layout in LAYOUTS:
                rates: dict[str, list[float]] = {m: [] for m in MODES}
                for r in range(args.rounds):
                    for mode in MODES if r % 2 == 0 else reversed(MODES):
                        tag = f"{layout[0]}{r}{mode[0]}"
                        rate = _round(url, mode, layout, args.records, args.writers, args.batch, tag)
                        rates[mode].append(rate)
                        print(f"{store} {layout} round {r} {mode}: {rate:.0f} records/s", file=sys.stderr, flush=True)
                medians = {m: statistics.median(v) for m, v in rates.items()}
                results[(store, layout)] = {**medians, "ratio": medians["shipped"] / medians["no-op"], "rounds": rates}
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--records", type=int, default=400, help="facts written per round, all writers together")
    parser.add_argument("--writers", type=int, default=4, help="writer processes")
    parser.add_argument("--batch", type=int, default=1, help="facts per remember_many call (1: one write each)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per mode and layout (medians)")
    parser.add_argument(
        "--pg", help="a PostgreSQL URL of a schema `tiermem init` made (default: a throwaway embedded server)"
    )
    args = parser.parse_args(argv)
    for name in ("records", "writers", "batch", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1 (given {getattr(args, name)})")
    if args.records < args.writers:
        parser.error(f"--records must be at least --writers ({args.writers}); given {args.records}")
    results = measure(args)
    print(f"{args.records} facts per round from {args.writers} processes, batches of {args.batch}, "
          f"{args.rounds} rounds; medians")  # fmt: skip
    print("| store | writers write | shipped (records/s) | serialise a no-op (records/s) | shipped / no-op |")
    print("|---|---|---|---|---|")
    for (store, layout), row in results.items():
        print(f"| {store} | {layout} | {row['shipped']:.0f} | {row['no-op']:.0f} | {row['ratio']:.2f} |")


if __name__ == "__main__":
    main()
