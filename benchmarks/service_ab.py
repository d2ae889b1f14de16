"""Two servers side by side, A and B (two source trees), against the library: which one adds less?

On a shared machine a change worth a few tenths of a millisecond a request is lost between two runs of
service_load.py minutes apart. Here both servers run at once on the same seeded data, so a busy moment hits
both alike:

1. one client: a request to A, one to B (in alternating order), then the same operation on the library
   in-process; p50 of each, what each adds over the library, and the CPU a request of each server, of its
   event loop's thread alone, and of the library;
2. ``--clients`` concurrent clients, half on each server, for ``--seconds``: requests, errors, CPU a request.

    .venv/bin/python benchmarks/service_ab.py --a /path/to/old/src --b src [--seconds 25] [--clients 50]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as `tiermem serve` runs (service_load.py says why)

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from raw_http import Connection
from service_load import cpu_seconds, draw, load, note, op, run_loop, start_server

from tiermem import Memory, NewMemory, Scope
from tiermem.store.sqlite import SQLiteStore

SCOPE = Scope("bench", "user")


def loop_seconds(pid: int) -> float:
    """CPU seconds of a process's main thread (uvicorn's event loop in `tiermem serve`)."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="source folder of server A (the folder holding tiermem/)")
    parser.add_argument("--b", required=True, help="source folder of server B")
    parser.add_argument("--seconds", type=float, default=25.0, help="seconds of each phase")
    parser.add_argument("--clients", type=int, default=50, help="clients of the second phase, half on each")
    parser.add_argument("--embedder", default="minilm")
    args = parser.parse_args()
    rng = random.Random(7)
    seed_notes = [note(rng) + f" (entry {i})" for i in range(1000)]  # as service_load.py seeds
    tiermem = [sys.executable, "-c", "from tiermem.cli import main; main()"]
    with tempfile.TemporaryDirectory() as folder:
        servers: dict[str, tuple[subprocess.Popen[bytes], str, str]] = {}
        try:
            for name, src in (("A", args.a), ("B", args.b)):
                env = {**os.environ, "TIERMEM_DB": str(Path(folder) / f"{name}.db"), "PYTHONPATH": src}
                subprocess.run([*tiermem, "init"], env=env, capture_output=True, check=True)  # keys never creates one
                create = [*tiermem, "keys", "create", "--tenant", "bench", "--user", "user"]
                key = subprocess.run(create, env=env, capture_output=True, text=True, check=True).stdout.strip()
                server, url = start_server(tiermem, env, args.embedder, "full")
                servers[name] = (server, url, key)
            mem = Memory.open(Path(folder) / "lib.db", embedder=args.embedder)
            assert isinstance(mem.store, SQLiteStore)
            mem.store.set_synchronous("FULL")
            for start in range(0, len(seed_notes), 200):  # the same batches everywhere (service_load.py says why)
                batch = seed_notes[start : start + 200]
                for _, url, key in servers.values():
                    items = {"items": [{"content": t} for t in batch]}
                    httpx.post(f"{url}/v1/memories/batch", json=items, headers={"Authorization": f"Bearer {key}"})
                mem.remember_many(SCOPE, [NewMemory(t) for t in batch])
            one_client(servers, mem, args.seconds)
            many_clients(servers, args.clients, args.seconds)
            mem.close()
        finally:
            for server, _, _ in servers.values():
                server.terminate()
                server.wait()


def one_client(servers: dict[str, tuple[subprocess.Popen[bytes], str, str]], mem: Memory, seconds: float) -> None:
    """Phase 1: A, B and the library in turn, one request at a time."""
    conns = {}
    for name, (_, url, key) in servers.items():
        host, _, port = url.removeprefix("http://").partition(":")
        conns[name] = Connection(host, int(port), {"Authorization": f"Bearer {key}"})
        conns[name].request("POST", *draw(random.Random(0)))  # connected before timing
    latency: dict[str, list[float]] = {"A": [], "B": [], "library": []}
    cpu0 = {name: (cpu_seconds(s.pid), loop_seconds(s.pid)) for name, (s, _, _) in servers.items()}
    library_cpu = 0.0
    n = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        n += 1
        for name in ("A", "B") if n % 2 else ("B", "A"):
            start = time.perf_counter()
            conns[name].request("POST", *draw(random.Random(n)))
            latency[name].append(time.perf_counter() - start)
        start, cpu = time.perf_counter(), time.process_time()
        op(mem, SCOPE, random.Random(n))
        latency["library"].append(time.perf_counter() - start)
        library_cpu += time.process_time() - cpu
    p50 = {k: statistics.median(v) * 1000 for k, v in latency.items()}
    print(f"one client, {n} rounds; load average {os.getloadavg()[0]:.1f}")
    for name, (s, _, _) in servers.items():
        cpu = (cpu_seconds(s.pid) - cpu0[name][0]) * 1000 / n
        loop = (loop_seconds(s.pid) - cpu0[name][1]) * 1000 / n
        added = p50[name] - p50["library"]
        print(f"  {name}: p50 {p50[name]:.2f} ms (adds {added:.2f}); CPU a request {cpu:.2f} ms, its loop {loop:.2f}")
    print(f"  library: p50 {p50['library']:.2f} ms; CPU a request {library_cpu * 1000 / n:.2f} ms")


def many_clients(servers: dict[str, tuple[subprocess.Popen[bytes], str, str]], clients: int, seconds: float) -> None:
    """Phase 2: half the clients on each server at once."""

    async def both() -> list[tuple[list[float], int]]:
        runs = [load(url, key, clients // 2, seconds, 1) for _, url, key in servers.values()]
        return list(await asyncio.gather(*runs))

    cpu0 = {name: (cpu_seconds(s.pid), loop_seconds(s.pid)) for name, (s, _, _) in servers.items()}
    results = run_loop(both())
    print(f"{clients} clients, half on each; load average {os.getloadavg()[0]:.1f}")
    for (name, (s, _, _)), (latencies, errors) in zip(servers.items(), results, strict=True):
        count = max(1, len(latencies) + errors)
        cpu = (cpu_seconds(s.pid) - cpu0[name][0]) * 1000 / count
        loop = (loop_seconds(s.pid) - cpu0[name][1]) * 1000 / count
        print(f"  {name}: {len(latencies)} requests, {errors} errors; CPU a request {cpu:.2f} ms, its loop {loop:.2f}")


if __name__ == "__main__":
    main()
