"""PostgreSQL recall in one transaction of at most three statements and two round trips, with the same hits."""

from __future__ import annotations

import logging
import os
import random
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
import pytest

import tiermem.recall.gather as gather_module
from pg_fixtures import OWNER_ROLE, PgServer, reported_transactions
from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.types import Filter, Hit, MemoryType

ANN = Scope("acme", "ann")
NOW = datetime(2026, 6, 1, tzinfo=UTC)
QUIET = "tiermem_trip"
WORDS = "river stone cloud paper market garden yellow window seven ticket coffee bridge lantern kite".split()


def _fill(mem: Memory) -> list[str]:
    """A user's memory with what ranking reads besides the lists: sessions, a stream of linked turns, a chain of
    four versions of a fact, another agent's notes; the chain's ids."""
    rng = random.Random(11)

    def said(n: int) -> list[dict[str, str]]:
        return [
            {"role": rng.choice(["user", "assistant"]), "name": "Ann", "content": " ".join(rng.sample(WORDS, 6))}
            for _ in range(n)
        ]

    for i in range(8):
        mem.remember_messages(ANN, said(12))
        mem.remember_messages(Scope("acme", "ann", session=f"s{i}"), said(8))
    bot = Scope("acme", "ann", agent="bot")
    for _ in range(20):
        mem.remember(bot, " ".join(rng.sample(WORDS, 5)), type=MemoryType.EPISODIC)
    chain: list[str] = []
    for n, city in enumerate(["Lyon", "Porto", "Graz", "Turku"]):
        at = NOW - timedelta(days=40 - 10 * n)
        record = mem.remember(
            ANN, f"Ann lives in {city} by the river", valid_from=at, supersedes=chain[-1] if chain else None
        ).record
        chain.append(record.id)
    mem.remember(ANN, "the web page says the river garden is closed", source="web:https://example.org/x")
    return chain


QUERIES: list[tuple[str, dict[str, Any]]] = [
    ("river stone market", {}),
    ("where does Ann live by the river", {}),
    ("coffee bridge lantern window", {"k": 3}),
    ("yellow kite garden", {"filter": Filter(types=frozenset({MemoryType.EPISODIC}))}),
    ("Lyon river", {"as_of": NOW - timedelta(days=35)}),
    ("seven ticket paper", {"k": 20}),
    ("cloud", {}),
    ("river garden", {"include_quarantined": True}),
]


def _recalled(mem: Memory, scope: Scope = ANN) -> list[list[tuple[Any, ...]]]:
    out = []
    for text, options in QUERIES:
        hits: list[Hit] = mem.recall(scope, text, now=NOW, **options)
        out.append([(h.record.id, h.score, h.parts, h.flags, h.relevance) for h in hits])
    return out


@pytest.fixture
def filled(pg_server: PgServer) -> Iterator[tuple[Memory, list[str]]]:
    with Memory.open(pg_server.schema_url(), embedder=HashingEmbedder()) as mem:
        yield mem, _fill(mem)


class _NoStore:
    """A capability no store has: recall then reads the store as a store without one is read."""


def test_one_trip_recall_gives_the_hits_and_scores_of_reading_the_store_step_by_step(
    filled: tuple[Memory, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    mem, chain = filled
    at_once = _recalled(mem)
    agent_scoped = _recalled(mem, Scope("acme", "ann", agent="bot"))
    monkeypatch.setattr(gather_module, "OneTripRecall", _NoStore)
    assert _recalled(mem) == at_once
    assert _recalled(mem, Scope("acme", "ann", agent="bot")) == agent_scoped
    # The chain's oldest version is found by its words and credited to the current one, three links on.
    where = at_once[1]
    assert where and where[0][0] == chain[-1]
    assert any(p.name == "current_version" for p in where[0][2])
    assert sum(len(hits) for hits in at_once) > 40


def _statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement this process sends from now on (counted at the client, in psycopg's cursor), but the
    BEGIN and COMMIT that delimit a transaction (the transactions are counted by the server)."""
    sent: list[str] = []
    execute: Callable[..., Any] = psycopg.Cursor.execute

    def counting(self: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        if query not in ("BEGIN", "COMMIT"):
            sent.append(query if isinstance(query, str) else repr(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counting)
    return sent


@pytest.fixture
def quiet_database(pg_server: PgServer) -> Iterator[tuple[PgServer, str]]:
    """A database of its own with autovacuum off (whose transactions would count too), and the administrator's
    URL of another database, to read the statistics from without adding to them."""
    parts = urlsplit(pg_server.admin_url)
    elsewhere = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, ""))

    def of(url: str) -> str:
        bits = urlsplit(url)
        return urlunsplit((bits.scheme, bits.netloc, f"/{QUIET}", bits.query, ""))

    with psycopg.connect(elsewhere, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {QUIET} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {QUIET} OWNER {OWNER_ROLE}")
    with psycopg.connect(of(pg_server.admin_url), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
    server = PgServer(of(pg_server.admin_url), of(pg_server.owner_url), of(pg_server.app_url))
    try:
        yield server, elsewhere
    finally:
        with psycopg.connect(elsewhere, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {QUIET} WITH (FORCE)")


def _transactions(elsewhere: str) -> int:
    return reported_transactions(elsewhere, QUIET)


def test_postgres_recall_is_one_transaction_of_at_most_three_statements(
    quiet_database: tuple[PgServer, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, elsewhere = quiet_database
    url = server.schema_url()
    tables = server.owner_execute(url, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    for (table,) in tables:
        server.owner_execute(url, f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)')
    with Memory.open(url, embedder=HashingEmbedder()) as mem:
        _fill(mem)
    # What opening and closing a store costs, then the same with the recalls between.
    before = _transactions(elsewhere)
    Memory.open(url, embedder=HashingEmbedder()).close()
    opening = _transactions(elsewhere) - before
    counted = []
    with Memory.open(url, embedder=HashingEmbedder()) as mem:
        sent = _statements(monkeypatch)
        for text, options in QUERIES:
            sent.clear()
            assert mem.recall(ANN, text, now=NOW, **options), text
            counted.append(len(sent))
        monkeypatch.undo()
    assert max(counted) <= 3, counted
    assert _transactions(elsewhere) - before - 2 * opening == len(QUERIES)


def test_a_postgres_write_is_one_transaction_after_a_read_only_duplicate_check(
    filled: tuple[Memory, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    mem, _ = filled
    transactions: list[list[str]] = []
    begin: Callable[..., Any] = psycopg.Connection.transaction

    def opening(self: psycopg.Connection[Any], *args: Any, **kwargs: Any) -> Any:
        if self.info.transaction_status.name == "IDLE":  # not a savepoint inside one
            transactions.append([])
        return begin(self, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "transaction", opening)
    execute: Callable[..., Any] = psycopg.Cursor.execute

    def filed(self: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        transactions[-1].append(query if isinstance(query, str) else repr(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", filed)
    mem.remember(ANN, "the lantern by the bridge is yellow now")
    monkeypatch.undo()
    assert len(transactions) == 2  # and no statement outside them (``filed`` would have failed)
    check, write = transactions
    assert all(s.lstrip().upper().startswith(("SET LOCAL", "SELECT", "COMPOSED")) for s in check), check
    assert any(s.lstrip().upper().startswith("INSERT INTO RECORDS") for s in write), write


class _TurnCounter:
    """A Unix-socket relay in front of the server that counts round trips per connection: each time a client speaks
    again after the server has answered it, one more turn on that connection.

    The server's answers are held back for ``HOLD`` seconds, as on a network: a client that sends its pipeline
    without waiting has sent all of it by then, so only a client that waits for an answer speaks after one (on a
    local socket the server may answer BEGIN while the client is still building its next statement).
    """

    HOLD = 0.02

    def __init__(self, server_dir: str, port: int) -> None:
        self.dir = tempfile.mkdtemp(prefix="tiermem-relay-")
        self._target = os.path.join(server_dir, f".s.PGSQL.{port}")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(os.path.join(self.dir, f".s.PGSQL.{port}"))
        self._listener.listen()
        self._turns: dict[int, int] = {}
        self._last: dict[int, str] = {}
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def turns(self) -> dict[int, int]:
        """Turns so far, per connection."""
        with self._lock:
            return dict(self._turns)

    def _accept(self) -> None:
        n = 0
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            upstream.connect(self._target)
            n += 1
            with self._lock:
                self._turns[n], self._last[n] = 0, "server"
            threading.Thread(target=self._pump, args=(n, client, upstream, "client"), daemon=True).start()
            threading.Thread(target=self._pump, args=(n, upstream, client, "server"), daemon=True).start()

    def _pump(self, n: int, source: socket.socket, sink: socket.socket, side: str) -> None:
        try:
            while data := source.recv(65536):
                if side == "server":
                    time.sleep(self.HOLD)
                with self._lock:
                    if side == "client" and self._last[n] == "server":
                        self._turns[n] += 1
                    self._last[n] = side
                sink.sendall(data)
        except OSError:  # the other direction closed this socket as the connection ended
            pass
        finally:
            sink.close()

    def close(self) -> None:
        self._listener.close()


def test_a_postgres_recall_is_two_round_trips(pg_server: PgServer) -> None:
    url = pg_server.schema_url()
    with Memory.open(url, embedder=HashingEmbedder()) as mem:
        _fill(mem)
    parts = urlsplit(url)
    options = dict(parse_qsl(parts.query))
    relay = _TurnCounter(options["host"], parts.port or 5432)
    relayed = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode({**options, "host": relay.dir}), ""))
    try:
        with Memory.open(relayed, embedder=HashingEmbedder()) as mem:
            mem.recall(ANN, "river stone market", now=NOW)  # the pool's first connection, opened and set up
            turns = []
            for text, options_ in QUERIES:
                before = relay.turns()
                assert mem.recall(ANN, text, now=NOW, **options_), text
                after = relay.turns()
                # A recall holds one connection; the pool may meanwhile open or check others in the background.
                turns.append(max(after[n] - before.get(n, 0) for n in after))
    finally:
        relay.close()
    assert turns == [2] * len(QUERIES), turns


def _prepared(mem: Memory) -> list[tuple[int, int]]:
    """(generic plans, custom plans) of each statement prepared on the store's one connection."""
    from tiermem.store.postgres import PostgresStore

    store = mem.store
    assert isinstance(store, PostgresStore)
    pool, conn = store._connection()
    try:
        rows = conn.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name").fetchall()
    finally:
        pool.putconn(conn)
    return [(int(g), int(c)) for g, c in rows]


def test_a_recall_searching_exactly_runs_a_plan_made_once_and_one_walking_hnsw_is_planned_each_time(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tiermem.store.postgres.vectors as vectors

    with Memory.open(pg_server.schema_url(), embedder=HashingEmbedder()) as mem:
        _fill(mem)  # a scope below EXACT_UP_TO: searched exactly
        for text, options in QUERIES[:3]:  # same filter shape: one statement
            assert mem.recall(ANN, text, now=NOW, **options), text
        assert _prepared(mem) == [(3, 0)]
        monkeypatch.setattr(vectors, "EXACT_UP_TO", 10)
        bob = Scope("acme", "bob")
        for i in range(30):  # now through HNSW
            mem.remember(bob, f"{WORDS[i % len(WORDS)]} river note {i}")
        for text, options in QUERIES[:3]:
            assert mem.recall(bob, text, now=NOW, **options), text
        assert _prepared(mem) == [(3, 0)]


def test_a_recall_that_fails_midway_leaves_its_connection_fit_for_the_next(
    filled: tuple[Memory, list[str]], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    mem, _ = filled
    caplog.set_level(logging.WARNING, logger="psycopg.pool")
    expected = _recalled(mem)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the second statement never went out")

    with monkeypatch.context() as patched:
        patched.setattr("tiermem.store.postgres.recall._evidence", broken)
        for _ in range(3):  # more than the pool holds idle, so a connection left in a transaction would come back
            with pytest.raises(RuntimeError):
                mem.recall(ANN, "river stone market", now=NOW)
    assert _recalled(mem) == expected
    # The store ended the transaction itself: the pool found no connection returned in one.
    assert not [r for r in caplog.records if "rolling back" in r.getMessage()], caplog.text
