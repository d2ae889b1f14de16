"""Faults: the server killed with SIGKILL in the middle of a burst of writes loses nothing it acknowledged."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

TIERMEM = [sys.executable, "-c", "from tiermem.cli import main; main()"]


def _env(db: Path) -> dict[str, str]:
    return {**os.environ, "TIERMEM_DB": str(db), "PYTHONPATH": os.pathsep.join(sys.path)}


@contextmanager
def _served(db: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [*TIERMEM, "serve", "--port", str(port), "--embedder", "hash", "--rate", "0"],
        env=_env(db), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/readyz").status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
    try:
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)


def test_sigkill_during_a_burst_keeps_every_acknowledged_write(tmp_path: Path) -> None:
    db = tmp_path / "burst.db"
    subprocess.run([*TIERMEM, "init"], env=_env(db), check=True, capture_output=True)
    create = [*TIERMEM, "keys", "create", "--tenant", "acme", "--user", "alice"]
    secret = subprocess.run(create, env=_env(db), capture_output=True, text=True, check=True).stdout.strip()
    headers = {"Authorization": f"Bearer {secret}"}
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    with _served(db) as (proc, url):

        def writer(n: int) -> None:
            with httpx.Client(base_url=url, headers=headers, timeout=10) as client:
                for i in range(10_000):
                    if stop.is_set():
                        return
                    try:
                        r = client.post("/v1/memories", json={"content": f"writer {n} note {i}", "tags": ["burst"]})
                    except httpx.TransportError:
                        return  # the server died: this write was never acknowledged
                    if r.status_code == 201:
                        with lock:
                            acknowledged.append(r.json()["record"]["id"])

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        while len(acknowledged) < 60:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        stop.set()
        for t in threads:
            t.join(timeout=30)

    assert len(acknowledged) >= 60
    with _served(db) as (_, url), httpx.Client(base_url=url, headers=headers, timeout=30) as client:
        stored: set[str] = set()
        cursor: str | None = None
        while True:
            params: dict[str, str | int] = {"limit": 1000, **({"cursor": cursor} if cursor else {})}
            page = client.get("/v1/memories", params=params).json()
            stored |= {r["id"] for r in page["records"]}
            cursor = page["next_cursor"]
            if cursor is None:
                break
    assert set(acknowledged) <= stored
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
