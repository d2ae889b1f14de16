"""Load on the REST service against the library in-process: the same mixed operations, in the same run.

The server runs in a second process (`tiermem serve` on a fresh database, seeded through the API with the same
notes the library gets). Three phases, each comparing the two under the same machine load:

1. latency: one client, requests one at a time, each HTTP request followed by the same operation on the
   library in-process (interleaved, so a busy moment of the machine hits both alike): p50 of each and the
   difference, which is what HTTP adds to one request;
2. throughput: ``--clients`` concurrent HTTP clients (one asyncio loop, one connection each) for
   ``--duration`` seconds, and the library with ``--threads`` threads (by default as many as clients) for as
   long, taking turns in ``--slices`` rounds (library then HTTP, then HTTP then library, ...) so a busy spell
   of a shared machine falls on both: requests/s, p50/p95/p99, errors;
3. all along: the server's resident memory sampled every second, and the model's share of each request (its
   seconds from /metrics over the requests served).

Both phases also count CPU: the server's (from /proc), the client's and the library's (this process), each a
request. The clients share the machine's cores with the server, so they are kept cheap: a bare HTTP/1.1
keep-alive client (raw_http.py), under 1 ms of CPU a request where httpx takes 5-10 (``--client httpx``).

Operations: 80% recall (k=5), 20% remember, of generated everyday notes and questions (no benchmark text).

    .venv/bin/python benchmarks/service_load.py [--duration 120] [--clients 50] [--embedder minilm|hash]
    .venv/bin/python benchmarks/service_load.py --duration 600   # the 10-minute run: is the memory flat?
"""

from __future__ import annotations

import os

# The same BLAS threads as the server's: `tiermem serve` (the CLI) sets one before numpy loads; without it the
# library in this process pays for idle BLAS threads the server never has (measured: 36 vs 19 ms CPU a request).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import asyncio
import json
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
from raw_http import AsyncConnection, Connection, ProtocolError

from tiermem import Memory, NewMemory, Scope
from tiermem.errors import MemError
from tiermem.store.sqlite import SQLiteStore

T = TypeVar("T")

PEOPLE = ["my sister", "my manager", "the landlord", "our neighbour", "my dentist", "the plumber", "my cousin"]
THINGS = ["the blue bike", "the spare keys", "the tax forms", "the camping stove", "the old laptop", "the router"]
PLACES = ["in the garage", "at the office", "in the hallway cupboard", "at my parents' house", "in the car"]
DAYS = ["on Monday", "next Thursday", "at the weekend", "after the holidays", "ahead of the spring fair"]
VERBS = ["borrowed", "returned", "fixed", "lost", "found", "sold", "lent me"]
QUESTIONS = ["where are {t}?", "who {v} {t}?", "what did {p} say about {t}?", "when is {p} coming?"]


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the clients on uvloop when it is installed (with the server extra, not on Windows): every CPU
    second the load generator spends on the machine's cores is one the server does not get."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def note(rng: random.Random) -> str:
    """A generated everyday note."""
    return (
        f"{rng.choice(PEOPLE).capitalize()} {rng.choice(VERBS)} {rng.choice(THINGS)} "
        f"{rng.choice(PLACES)} {rng.choice(DAYS)}."
    )


def question(rng: random.Random) -> str:
    """A generated question about the notes."""
    return rng.choice(QUESTIONS).format(t=rng.choice(THINGS), v=rng.choice(VERBS), p=rng.choice(PEOPLE))


def pct(values: list[float], q: float) -> float:
    """The q-quantile in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def summary(name: str, latencies: list[float], errors: int, seconds: float) -> dict[str, Any]:
    """Throughput and latency figures of one run."""
    return {
        "run": name,
        "requests": len(latencies),
        "errors": errors,
        "requests_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": round(pct(latencies, 0.50), 2),
        "p95_ms": round(pct(latencies, 0.95), 2),
        "p99_ms": round(pct(latencies, 0.99), 2),
    }


def rss_kib(pid: int) -> int:
    """Resident memory of a process (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int | None = None) -> float:
    """User + system CPU seconds of a process (Linux /proc; None: this process, all its threads)."""
    if pid is None:
        t = os.times()
        return t.user + t.system
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (fields 14, 15)


def model_seconds(url: str) -> float:
    """The server's tiermem_model_seconds_total."""
    text = httpx.get(f"{url}/metrics").text
    return float(next(x for x in text.splitlines() if x.startswith("tiermem_model_seconds_total")).split()[1])


async def load(
    url: str, key: str, clients: int, duration: float, seed: int, client_kind: str = "raw"
) -> tuple[list[float], int]:
    """``clients`` concurrent clients for ``duration`` seconds; latencies of the successes and the error count."""
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + duration
    headers = {"Authorization": f"Bearer {key}"}
    host, _, port = url.removeprefix("http://").partition(":")

    async def client(n: int) -> None:
        nonlocal errors
        rng = random.Random(seed + n)
        raw = AsyncConnection(host, int(port), headers)
        http = httpx.AsyncClient(base_url=url, headers=headers, timeout=60) if client_kind == "httpx" else None
        try:
            while time.perf_counter() < deadline:
                path, payload = draw(rng)
                start = time.perf_counter()
                try:
                    if http is not None:
                        status = (await http.post(path, json=payload)).status_code
                    else:
                        status, _ = await raw.request("POST", path, payload)
                    ok = status in (200, 201)
                except (httpx.HTTPError, OSError, asyncio.IncompleteReadError, ProtocolError):
                    ok = False
                if ok:
                    latencies.append(time.perf_counter() - start)
                else:
                    errors += 1
        finally:
            await raw.close()
            if http is not None:
                await http.aclose()

    await asyncio.gather(*(client(n) for n in range(clients)))
    return latencies, errors


# With --repeat-notes, the notes both sides remember are drawn from the seeded ones: exact repeats, which change
# no row, so the database keeps its size and what the server's memory does over a long run is its own.
REPEATS: list[str] = []


def remembered(rng: random.Random) -> str:
    """The next note to remember: a new one, or with --repeat-notes one already stored."""
    return rng.choice(REPEATS) if REPEATS else note(rng)


def draw(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The next HTTP operation: recall (80%) or remember (20%), drawn as ``op`` draws the library's."""
    if rng.random() < 0.8:
        return "/v1/memories/search", {"query": question(rng), "k": 5}
    return "/v1/memories", {"content": remembered(rng)}


def op(mem: Memory, scope: Scope, rng: random.Random) -> None:
    """One library operation: recall (80%) or remember (20%), drawn as the HTTP clients draw theirs."""
    if rng.random() < 0.8:
        mem.recall(scope, question(rng), k=5)
    else:
        mem.remember(scope, remembered(rng))


def http_op(http: Connection, rng: random.Random) -> bool:
    """The same operation over HTTP; True when it succeeded."""
    try:
        status, _ = http.request("POST", *draw(rng))
    except (OSError, ProtocolError):
        return False
    return status in (200, 201)


def paired_latency(url: str, key: str, mem: Memory, seconds: float, server_pid: int) -> dict[str, Any]:
    """One client: an HTTP request, then the same operation in-process, alternately, for ``seconds``."""
    scope = Scope("bench", "user")
    http_lat: list[float] = []
    lib_lat: list[float] = []
    errors = 0
    client_cpu = library_cpu = 0.0
    host, _, port = url.removeprefix("http://").partition(":")
    http = Connection(host, int(port), {"Authorization": f"Bearer {key}"})
    try:
        http_op(http, random.Random(0))  # the connection is opened before timing
        deadline = time.perf_counter() + seconds
        server_cpu = cpu_seconds(server_pid)
        n = 0
        while time.perf_counter() < deadline:
            n += 1
            start, cpu = time.perf_counter(), time.thread_time()
            ok = http_op(http, random.Random(n))
            http_lat.append(time.perf_counter() - start)
            client_cpu += time.thread_time() - cpu
            errors += not ok
            start, cpu = time.perf_counter(), time.process_time()  # the library's own threads count too
            op(mem, scope, random.Random(n))
            lib_lat.append(time.perf_counter() - start)
            library_cpu += time.process_time() - cpu
        server_cpu = cpu_seconds(server_pid) - server_cpu
    finally:
        http.close()
    per = 1000 / max(1, n)
    return {
        "requests": n,
        "errors": errors,
        "http_p50_ms": round(pct(http_lat, 0.5), 2),
        "library_p50_ms": round(pct(lib_lat, 0.5), 2),
        "http_mean_ms": round(sum(http_lat) * per, 2),
        "p50_added_ms": round(pct(http_lat, 0.5) - pct(lib_lat, 0.5), 2),
        "cpu_ms": {
            "server": round(server_cpu * per, 2),
            "library": round(library_cpu * per, 2),
            "client": round(client_cpu * per, 2),
        },
    }


def library(mem: Memory, threads: int, duration: float, seed: int) -> tuple[list[float], int, float]:
    """The operations on the library in-process with ``threads`` threads: latencies, errors, seconds taken."""
    scope = Scope("bench", "user")
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    deadline = time.perf_counter() + duration

    def work(n: int) -> None:
        nonlocal errors
        rng = random.Random(seed + n)
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            try:
                op(mem, scope, rng)
            except MemError:
                with lock:
                    errors += 1
                continue
            with lock:
                latencies.append(time.perf_counter() - start)

    pool = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    began = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return latencies, errors, time.perf_counter() - began


@dataclass(slots=True)
class Side:
    """One side's totals over its slices."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # this process's CPU seconds while the side ran (the library's, or the HTTP clients')
    server_cpu: float = 0.0
    model: float = 0.0  # the server's model seconds (from /metrics)


def compare(url: str, key: str, mem: Memory, server_pid: int, args: argparse.Namespace) -> tuple[Side, Side]:
    """The 50-client phase: HTTP and the library take turns in ``--slices`` rounds, so a busy moment hits both.

    Each side runs ``--duration`` seconds in all, in slices of ``duration / slices``; the order alternates
    (library then HTTP, then HTTP then library) so neither always follows the other."""
    http, lib = Side(), Side()
    share = args.duration / args.slices
    for n in range(args.slices):
        order = ("lib", "http") if n % 2 == 0 else ("http", "lib")
        for side in order:
            if side == "lib":
                cpu0 = cpu_seconds()
                latencies, errors, seconds = library(mem, args.threads, share, seed=1000 * (n + 1))
                lib.cpu += cpu_seconds() - cpu0
            else:
                server0, model0 = cpu_seconds(server_pid), model_seconds(url)
                began, cpu0 = time.perf_counter(), cpu_seconds()
                latencies, errors = run_loop(load(url, key, args.clients, share, 1 + 1000 * n, args.client))
                seconds = time.perf_counter() - began
                http.cpu += cpu_seconds() - cpu0
                http.server_cpu += cpu_seconds(server_pid) - server0
                http.model += model_seconds(url) - model0
            totals = lib if side == "lib" else http
            totals.latencies += latencies
            totals.errors += errors
            totals.seconds += seconds
    return http, lib


class RssSampler:
    """The server's resident memory, sampled every ``every`` seconds in a thread."""

    def __init__(self, pid: int, every: float = 1.0) -> None:
        self.pid, self.every = pid, every
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(rss_kib(self.pid))
            self._stop.wait(self.every)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def report(self) -> dict[str, Any]:
        """First, highest and last sample, and the growth over the second half of the run (MiB)."""
        mib = [round(k / 1024, 1) for k in self.samples] or [0.0]
        half = mib[len(mib) // 2 :]
        return {
            "samples": len(mib),
            "first": mib[0],
            "max": max(mib),
            "last": mib[-1],
            "second_half_growth": round(half[-1] - half[0], 1),
        }


def start_server(
    tiermem: list[str], env: dict[str, str], embedder: str, sync: str
) -> tuple[subprocess.Popen[bytes], str]:
    """``tiermem serve`` on a free port, ready."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    serve = [*tiermem, "serve", "--port", str(port), "--embedder", embedder, "--rate", "0", "--sync", sync]
    server = subprocess.Popen(serve, env=env, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    while True:
        try:
            if httpx.get(f"{url}/readyz").status_code == 200:
                return server, url
        except httpx.TransportError:
            pass
        if server.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of the 50-client phase")
    parser.add_argument("--latency-seconds", type=float, default=15.0, help="seconds of the one-client phase")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--slices", type=int, default=4, help="rounds in which the library and HTTP take turns")
    parser.add_argument("--threads", type=int, default=None, help="library threads (default: as many as --clients)")
    parser.add_argument("--seed-records", type=int, default=1000)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--sync", choices=["full", "normal"], default="full", help="SQLite synchronous, both sides")
    parser.add_argument(
        "--client", choices=["raw", "httpx"], default="raw", help="the 50 clients' HTTP code (httpx costs more CPU)"
    )
    parser.add_argument(
        "--repeat-notes", action="store_true", help="remember only notes already stored: the database keeps its size"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.threads is None:  # the same concurrency on both sides: fewer threads leave the library idle on I/O
        args.threads = args.clients
    rng = random.Random(7)
    seed_notes = [note(rng) + f" (entry {i})" for i in range(args.seed_records)]
    if args.repeat_notes:
        REPEATS.extend(seed_notes)
    tiermem = [sys.executable, "-c", "from tiermem.cli import main; main()"]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "served.db"
        env = {**os.environ, "TIERMEM_DB": str(db)}
        subprocess.run([*tiermem, "init"], env=env, capture_output=True, check=True)  # keys never creates one
        create = [*tiermem, "keys", "create", "--tenant", "bench", "--user", "user"]
        key = subprocess.run(create, env=env, capture_output=True, text=True, check=True).stdout.strip()
        server, url = start_server(tiermem, env, args.embedder, args.sync)
        mem = Memory.open(Path(folder) / "lib.db", embedder=args.embedder)
        store = mem.store
        assert isinstance(store, SQLiteStore)
        store.set_synchronous(args.sync.upper())  # the same durability as the server's, or the race is unfair
        try:
            headers = {"Authorization": f"Bearer {key}"}
            for start in range(0, len(seed_notes), 200):
                items = [{"content": t} for t in seed_notes[start : start + 200]]
                httpx.post(f"{url}/v1/memories/batch", json={"items": items}, headers=headers, timeout=600)
                # The same batches as the server's: which notes supersede which depends on the batching
                # (one batch of 1,000: 813 closed; five of 200: 791), and recall walks those chains.
                mem.remember_many(Scope("bench", "user"), [NewMemory(t) for t in seed_notes[start : start + 200]])
            with RssSampler(server.pid) as rss:
                model_before = model_seconds(url)
                latency = paired_latency(url, key, mem, args.latency_seconds, server.pid)
                served = latency["requests"] + 1
                http_side, lib_side = compare(url, key, mem, server.pid, args)
                served += len(http_side.latencies) + http_side.errors
                model_ms = (model_seconds(url) - model_before) / max(1, served) * 1000
        finally:
            mem.close()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    http_run = summary(f"HTTP, {args.clients} clients", http_side.latencies, http_side.errors, http_side.seconds)
    lib_run = summary(
        f"library in-process, {args.threads} threads", lib_side.latencies, lib_side.errors, lib_side.seconds
    )
    requests = http_run["requests"] + http_side.errors
    report: dict[str, Any] = {
        "embedder": args.embedder,
        "repeat_notes": args.repeat_notes,
        "sync": args.sync,
        "duration_s": args.duration,
        "slices": args.slices,
        "one_client": latency,
        "runs": [http_run, lib_run],
        "throughput_ratio": round(http_run["requests_per_s"] / max(lib_run["requests_per_s"], 1e-9), 3),
        "model_ms_per_request": round(model_ms, 3),
        "model_share_of_one_client_request": round(model_ms / max(latency["http_mean_ms"], 1e-9), 3),
        "cpu_ms_per_request": {
            "server": round(1000 * http_side.server_cpu / max(1, requests), 2),
            "client": round(1000 * http_side.cpu / max(1, requests), 2),
            "model_wall_in_server": round(1000 * http_side.model / max(1, requests), 2),
            "library": round(1000 * lib_side.cpu / max(1, lib_run["requests"] + lib_run["errors"]), 2),
        },
        "server_rss_mib": rss.report(),
        "load_average": os.getloadavg(),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    one = report["one_client"]
    print(
        f"one client: HTTP p50 {one['http_p50_ms']} ms, library p50 {one['library_p50_ms']} ms: HTTP adds "
        f"{one['p50_added_ms']} ms ({one['requests']} pairs, {one['errors']} errors)"
    )
    c = one["cpu_ms"]
    print(
        f"  CPU ms a request: server {c['server']} (library in-process {c['library']}: HTTP costs the server "
        f"{c['server'] - c['library']:.2f} more), client {c['client']}"
    )
    for run in report["runs"]:
        print(
            f"{run['run']:<34} {run['requests_per_s']:>8} req/s  p50 {run['p50_ms']:>7} ms  p95 {run['p95_ms']:>7} ms"
            f"  p99 {run['p99_ms']:>7} ms  errors {run['errors']}"
        )
    print(f"HTTP / library throughput: {report['throughput_ratio']}")
    share = report["model_share_of_one_client_request"]
    print(f"model: {report['model_ms_per_request']} ms a request ({share:.0%} of a one-client request)")
    print(f"CPU ms a request (50-client phase): {report['cpu_ms_per_request']}")
    print(f"server RSS (MiB): {report['server_rss_mib']}; load average {report['load_average']}")


if __name__ == "__main__":
    main()
