"""One harness run: start the database and the servers, write through every door while killing servers and the
database at random moments, stop, check the database, report."""

from __future__ import annotations

import functools
import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from shutil import rmtree
from typing import Any

from chaoslib.checks import check, snapshot
from chaoslib.fleet import Server
from chaoslib.inspector import InspectorWriter
from chaoslib.ledger import Erased, Ledger
from chaoslib.postgres import OwnPostgres
from chaoslib.workload import GENERAL, SLOTS, TENANT, BlockPool, Run, Target, Words
from chaoslib.writers import RestWriter, cli_writer, mcp_writer


@dataclass(frozen=True, slots=True)
class Config:
    """How long, how many of each, which stores."""

    duration: float = 120.0
    stores: tuple[str, ...] = ("sqlite", "postgres")
    pg_servers: int = 3
    rest_writers: int = 4  # per store
    mcp_writers: int = 1  # per store
    cli_writers: int = 1  # per store
    server_kills: int = 6
    pg_kills: int = 2
    seed: int = 1
    retry_for: float = 45.0  # how long a client retries one operation before it counts it unresolved
    keep: Path | None = None  # keep the databases and logs here (default: a temporary folder, removed)


def _keys(db: str) -> tuple[str, dict[str, str]]:
    """An admin key of the tenant and a key per user, made in this process before any server runs."""
    from tiermem.server.keys import create_key, open_access

    store, access = open_access(db, create=True)
    try:
        admin = create_key(access, TENANT, None, "admin", "chaos harness").secret
        users = {u: create_key(access, TENANT, u, "user").secret for u in (*GENERAL, *SLOTS)}
    finally:
        store.close()
    return admin, users


class Chaos:
    """Kills at random moments: servers (SIGKILL, then started again on the same port) and the postmaster."""

    def __init__(
        self, config: Config, servers: list[Server], pg: OwnPostgres | None, ledger: Ledger, released: threading.Event
    ) -> None:
        self.rng = random.Random(config.seed)
        self.servers, self.pg, self.ledger = servers, pg, ledger
        # Moments as shares of the duration, early enough for the last restart to be over soon after the end.
        moments = [("server", self.rng.uniform(0.05, 0.7)) for _ in range(config.server_kills)]
        moments += [("postgres", self.rng.uniform(0.1, 0.65)) for _ in range(config.pg_kills if pg else 0)]
        self.plan = sorted(((at * config.duration, what) for what, at in moments))
        order = list(servers)
        self.rng.shuffle(order)
        self.order = order  # servers are killed in turn, so each is killed when there are kills enough
        self.restarts: list[threading.Thread] = []
        self.pg_lock = threading.Lock()
        self.released = released  # the run is over (or interrupted): start nothing again

    def __call__(self, started: float, stop: threading.Event) -> None:
        turn = 0
        for at, what in self.plan:
            if stop.wait(max(0.0, started + at - time.monotonic())):
                break
            if what == "postgres":
                self._restart_in_background(self._postgres)
                continue
            for _ in range(len(self.order)):
                server = self.order[turn % len(self.order)]
                turn += 1
                if server.lock.acquire(blocking=False):  # not in the middle of its own restart
                    self._restart_in_background(functools.partial(self._server, server))
                    break
        for thread in self.restarts:
            thread.join()

    def _restart_in_background(self, job: Callable[[], None]) -> None:
        thread = threading.Thread(target=job, daemon=True)
        thread.start()
        self.restarts.append(thread)

    def _server(self, server: Server) -> None:
        try:
            server.kill()
            killed = time.monotonic()
            self.ledger.event(f"SIGKILL {server.store} server")
            time.sleep(self.rng.uniform(0.2, 1.5))
            if self.released.is_set():
                return
            server.launch()
            try:
                server.wait_ready(relaunch=True)
            except SystemExit:  # the report says so; the writers' unresolved operations show the cost
                self.ledger.event(f"{server.store} server not restarted")
                return
            self.ledger.downtime(f"{server.store} server", time.monotonic() - killed)
        finally:
            server.lock.release()

    def _postgres(self) -> None:
        assert self.pg is not None
        with self.pg_lock:  # a kill waits for the previous restart: each is a kill of a running server
            self.pg.kill()
            killed = time.monotonic()
            self.ledger.event("SIGKILL postgres")
            time.sleep(self.rng.uniform(0.5, 3.0))
            if self.released.is_set():
                return
            self.pg.start()
            self.ledger.downtime("postgres", time.monotonic() - killed)


@dataclass
class _Held:
    """What a run started, to stop whatever happens."""

    servers: list[Server] = field(default_factory=list)
    pg: OwnPostgres | None = None
    stop: threading.Event = field(default_factory=threading.Event)  # writers and kills end when it is set
    released: threading.Event = field(default_factory=threading.Event)  # no process starts after it is set

    def release(self) -> None:
        self.stop.set()
        self.released.set()
        for server in self.servers:
            with server.lock:  # a restart in progress ends first (it launches nothing once released)
                server.stop()
        if self.pg is not None:
            self.pg.stop()


def run(config: Config, progress: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the harness; the report (``findings`` empty when every check passed)."""
    root = config.keep or Path(tempfile.mkdtemp(prefix="tiermem-chaos-"))
    root.mkdir(parents=True, exist_ok=True)
    held = _Held()
    try:
        return _run(config, root, progress, held)
    finally:
        held.release()
        if config.keep is None:
            rmtree(root, ignore_errors=True)


def _run(config: Config, root: Path, progress: Callable[[str], None], held: _Held) -> dict[str, Any]:
    ledger = Ledger()
    stop = held.stop
    shared = Run(ledger, Words(config.seed), stop, config.retry_for, config.seed)
    rng = random.Random(config.seed)
    targets: list[Target] = []
    servers = held.servers
    pg: OwnPostgres | None = None
    where: dict[str, str] = {}
    for store in sorted(config.stores, key=lambda name: name != "sqlite"):  # SQLite's server starts during initdb
        if store == "postgres":
            progress("starting PostgreSQL")
            pg = held.pg = OwnPostgres(root)
            pg.start()
            where[store], db = pg.prepare()
            count = config.pg_servers
        else:
            db = where[store] = str(root / "chaos.db")
            count = 1
        admin, users = _keys(db)
        mine = [Server(f"{store}-{i}", store, db, root / f"{store}-{i}.log") for i in range(count)]
        for server in mine:
            server.launch()
        servers.extend(mine)
        targets.append(Target(store, db, mine, admin, users, BlockPool(store, random.Random(rng.random()))))
    progress(f"waiting for {len(servers)} servers")
    for server in servers:
        server.wait_ready()
    threads: list[threading.Thread] = []
    for target in targets:  # each writer has its own index: its random stream and its transcripts' names
        for _ in range(config.rest_writers):
            threads.append(threading.Thread(target=RestWriter(shared, target, len(threads)), daemon=True))
        for _ in range(config.mcp_writers):
            threads.append(threading.Thread(target=mcp_writer, args=(shared, target, len(threads)), daemon=True))
        for _ in range(config.cli_writers):
            threads.append(threading.Thread(target=cli_writer, args=(shared, target, len(threads)), daemon=True))
        threads.append(threading.Thread(target=InspectorWriter(shared, target, config.duration), daemon=True))
    chaos = Chaos(config, servers, pg, ledger, held.released)
    started = time.monotonic()
    killer = threading.Thread(target=chaos, args=(started, stop), daemon=True)
    progress(f"writing for {config.duration:.0f} s with {len(threads)} writers; {len(chaos.plan)} kills planned")
    for thread in [*threads, killer]:
        thread.start()
    stop.wait(config.duration)
    stop.set()
    killer.join()
    progress("stopping the writers (each finishes or gives up its last operation)")
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    for server in servers:
        server.stop()
    progress("checking the databases")
    erased = {t.store: [e.user for e in ledger.expectations if isinstance(e, Erased) and e.store == t.store]
              for t in targets}  # fmt: skip
    findings = {t.store: check(t.store, snapshot(t.store, where[t.store], erased[t.store]), ledger.expectations)
                for t in targets}  # fmt: skip
    return _report(config, ledger, servers, pg, findings, elapsed)


def _report(
    config: Config, ledger: Ledger, servers: list[Server], pg: OwnPostgres | None, findings: dict[str, Any],
    elapsed: float,
) -> dict[str, Any]:  # fmt: skip
    ops = ledger.summary()
    trouble = {
        f"{kind} ({store})": n for store, found in findings.items() for kind, n in found.counts.items()
    }  # fmt: skip
    for name, row in ops.items():
        for bad in ("failed", "mismatch"):
            if row.get(bad):
                trouble[f"{name}: {bad}"] = row[bad]
    return {
        "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(config).items()},
        "seconds": round(elapsed, 1),
        "acknowledged_writes": {store: ledger.acked_writes(store) for store in config.stores},
        "acknowledged_by_server": ledger.acked_by_server(),
        "server_processes": {store: sum(s.store == store for s in servers) for store in config.stores},
        "kills": dict(ledger.events),
        "down_seconds": ledger.downtimes(),
        "operations": ops,
        "not_acknowledged": ledger.troubles(),
        "checks": {
            store: {"checked": f.checked, "counts": dict(f.counts), "examples": dict(f.examples)}
            for store, f in findings.items()
        },
        "findings": trouble,
    }
