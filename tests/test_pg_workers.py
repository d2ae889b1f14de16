"""Three ``tiermem serve`` workers on one PostgreSQL database, as behind a load balancer: stateless (any worker
answers any request), keys and revocations from the CLI reach all of them, and the rate limit is per worker, so
``--rate R/N`` on each of N workers admits R per second in all (docs/postgres.md, "Many workers")."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx

from pg_fixtures import PgServer
from served_process import TIERMEM, env_for, served_to_file

WORKERS = 3


@contextmanager
def _workers(url: str, tmp_path: Path, *args: str) -> Iterator[list[str]]:
    with ExitStack() as stack:
        yield [stack.enter_context(served_to_file(url, tmp_path / f"worker{i}.log", *args)) for i in range(WORKERS)]


def _cli(url: str, *args: str) -> str:
    done = subprocess.run([*TIERMEM, *args, "--db", url], env=env_for(url), capture_output=True, text=True, check=True)
    return done.stdout.strip()


def admitted(bases: list[str], secret: str, seconds: float) -> list[int]:
    """Requests each worker admitted (200) in ``seconds``, one client thread per worker asking as fast as it can."""
    accepted = [0] * len(bases)

    def hammer(i: int, stop: float) -> None:
        with httpx.Client(base_url=bases[i], headers={"Authorization": f"Bearer {secret}"}) as c:
            while time.monotonic() < stop:
                accepted[i] += c.get("/v1/whoami").status_code == 200

    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=hammer, args=(i, stop)) for i in range(len(bases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return accepted


def test_any_worker_answers_any_request_and_a_revoked_key_is_refused_by_all(
    pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.schema_url("workers")
    secret = _cli(url, "keys", "create", "--tenant", "acme", "--user", "alice")
    with _workers(url, tmp_path, "--rate", "0") as bases:
        auth = {"Authorization": f"Bearer {secret}"}
        for i, base in enumerate(bases):
            made = httpx.post(f"{base}/v1/memories", json={"content": f"note {i} about the blue kayak"}, headers=auth)
            assert made.status_code == 201, made.text
        for base in bases:  # every worker sees every worker's writes: no state is kept in a process
            hits = httpx.post(f"{base}/v1/memories/search", json={"query": "blue kayak", "k": 10}, headers=auth)
            assert sorted(h["record"]["content"] for h in hits.json()["hits"]) == [
                f"note {i} about the blue kayak" for i in range(WORKERS)
            ]
        key_id = secret.split("_")[1]
        _cli(url, "keys", "revoke", key_id)
        deadline = time.monotonic() + 5
        while any(httpx.get(f"{b}/v1/whoami", headers=auth).status_code != 401 for b in bases):
            assert time.monotonic() < deadline, "a worker still accepts the revoked key"
            time.sleep(0.1)


def test_n_workers_at_rate_r_over_n_admit_r_per_second_in_all(pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.schema_url("rate")
    secret = _cli(url, "keys", "create", "--tenant", "acme", "--user", "alice")
    total, burst, seconds = 30.0, 5, 4.0
    with _workers(url, tmp_path, "--rate", f"{total / WORKERS:g}", "--burst", str(burst)) as bases:
        accepted = admitted(bases, secret, seconds)
    # Each worker: its burst, then rate/N a second. In all: R a second, and the bursts once.
    ceiling = WORKERS * burst + total * seconds * 1.2
    floor = WORKERS * burst + total * seconds * 0.8
    assert floor <= sum(accepted) <= ceiling, accepted
