"""Load on the REST service against the library in-process: the same mixed operations, in the same run.

The server runs in a second process (`tiermem serve` on a fresh database, seeded through the API); the load
comes from this process: ``--clients`` concurrent HTTP clients (one asyncio loop, one connection each) for
``--duration`` seconds, each request a recall (80%) or a remember (20%) of generated everyday notes. Then the
library does the same operations in-process with ``--threads`` threads for the same time. Printed: requests/s,
p50/p95/p99 latency and errors of both, the model's seconds per request (from /metrics) and the server's
resident memory at the start and the end of the load.

    .venv/bin/python benchmarks/service_load.py [--duration 30] [--clients 50] [--embedder minilm|hash]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tiermem import Memory, NewMemory, Scope

PEOPLE = ["my sister", "my manager", "the landlord", "our neighbour", "my dentist", "the plumber", "my cousin"]
THINGS = ["the blue bike", "the spare keys", "the tax forms", "the camping stove", "the old laptop", "the router"]
PLACES = ["in the garage", "at the office", "in the hallway cupboard", "at my parents' house", "in the car"]
DAYS = ["on Monday", "next Thursday", "at the weekend", "after the holidays", "ahead of the spring fair"]
VERBS = ["borrowed", "returned", "fixed", "lost", "found", "sold", "lent me"]
QUESTIONS = ["where are {t}?", "who {v} {t}?", "what did {p} say about {t}?", "when is {p} coming?"]


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


def model_seconds(url: str) -> float:
    """The server's tiermem_model_seconds_total."""
    text = httpx.get(f"{url}/metrics").text
    return float(next(x for x in text.splitlines() if x.startswith("tiermem_model_seconds_total")).split()[1])


async def load(url: str, key: str, clients: int, duration: float, seed: int) -> tuple[list[float], int]:
    """``clients`` concurrent clients for ``duration`` seconds; latencies of the successes and the error count."""
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + duration

    async def client(n: int) -> None:
        nonlocal errors
        rng = random.Random(seed + n)
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as http:
            while time.perf_counter() < deadline:
                start = time.perf_counter()
                try:
                    if rng.random() < 0.8:
                        r = await http.post("/v1/memories/search", json={"query": question(rng), "k": 5})
                    else:
                        r = await http.post("/v1/memories", json={"content": note(rng)})
                    ok = r.status_code in (200, 201)
                except httpx.HTTPError:
                    ok = False
                if ok:
                    latencies.append(time.perf_counter() - start)
                else:
                    errors += 1

    await asyncio.gather(*(client(n) for n in range(clients)))
    return latencies, errors


def library(db: Path, embedder: str, seed_notes: list[str], threads: int, duration: float) -> dict[str, Any]:
    """The same operations on the library in-process."""
    scope = Scope("bench", "user")
    latencies: list[float] = []
    lock = threading.Lock()
    with Memory.open(db, embedder=embedder) as mem:
        mem.remember_many(scope, [NewMemory(t) for t in seed_notes])
        mem.recall(scope, "warm up", k=5)
        deadline = time.perf_counter() + duration

        def work(n: int) -> None:
            rng = random.Random(1000 + n)
            while time.perf_counter() < deadline:
                start = time.perf_counter()
                if rng.random() < 0.8:
                    mem.recall(scope, question(rng), k=5)
                else:
                    mem.remember(scope, note(rng))
                with lock:
                    latencies.append(time.perf_counter() - start)

        pool = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
        began = time.perf_counter()
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        elapsed = time.perf_counter() - began
    return summary(f"library in-process ({threads} threads)", latencies, 0, elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2, help="library threads (the machine's cores)")
    parser.add_argument("--seed-records", type=int, default=1000)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    seed_notes = [note(rng) + f" (entry {i})" for i in range(args.seed_records)]
    tiermem = [sys.executable, "-c", "from tiermem.cli import main; main()"]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "served.db"
        env = {**os.environ, "TIERMEM_DB": str(db)}
        create = [*tiermem, "keys", "create", "--tenant", "bench", "--user", "user"]
        key = subprocess.run(create, env=env, capture_output=True, text=True, check=True).stdout.strip()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        serve = [*tiermem, "serve", "--port", str(port), "--embedder", args.embedder, "--rate", "0"]
        server = subprocess.Popen(serve, env=env, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            while True:
                try:
                    if httpx.get(f"{url}/readyz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
            headers = {"Authorization": f"Bearer {key}"}
            for start in range(0, len(seed_notes), 200):
                items = [{"content": t} for t in seed_notes[start : start + 200]]
                httpx.post(f"{url}/v1/memories/batch", json={"items": items}, headers=headers, timeout=600)
            rss_before, model_before = rss_kib(server.pid), model_seconds(url)
            began = time.perf_counter()
            latencies, errors = asyncio.run(load(url, key, args.clients, args.duration, seed=1))
            elapsed = time.perf_counter() - began
            http_run = summary(f"HTTP, {args.clients} clients", latencies, errors, elapsed)
            per_request = (model_seconds(url) - model_before) / max(1, len(latencies) + errors)
            http_run["model_ms_per_request"] = round(per_request * 1000, 2)
            http_run["server_rss_mib"] = [round(rss_before / 1024, 1), round(rss_kib(server.pid) / 1024, 1)]
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
        lib_run = library(Path(folder) / "lib.db", args.embedder, seed_notes, args.threads, args.duration)
    report = {"embedder": args.embedder, "duration_s": args.duration, "runs": [http_run, lib_run]}
    report["throughput_ratio"] = round(http_run["requests_per_s"] / max(lib_run["requests_per_s"], 1e-9), 3)
    report["p50_added_ms"] = round(http_run["p50_ms"] - lib_run["p50_ms"], 2)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for run in report["runs"]:
        print(
            f"{run['run']:<34} {run['requests_per_s']:>8} req/s  p50 {run['p50_ms']:>7} ms  p95 {run['p95_ms']:>7} ms"
            f"  p99 {run['p99_ms']:>7} ms  errors {run['errors']}"
        )
    print(f"model per HTTP request: {http_run['model_ms_per_request']} ms; server RSS {http_run['server_rss_mib']} MiB")
    print(f"HTTP / library throughput: {report['throughput_ratio']}; HTTP adds {report['p50_added_ms']} ms at p50")
    print("(p50 under load includes queueing: 50 clients share the cores)", file=sys.stderr)


if __name__ == "__main__":
    main()
