"""``tiermem serve`` processes the harness starts, SIGKILLs and starts again on the same port and database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from chaoslib.postgres import free_port

TIERMEM = [sys.executable, "-c", "from tiermem.cli import main; main()"]
READY_TIMEOUT = 120.0  # a start waits for the database too (PostgreSQL may be in crash recovery)


def child_env(db: str) -> dict[str, str]:
    """The environment of a tiermem child: this interpreter's import path, ``db`` as its database."""
    return {**os.environ, "TIERMEM_DB": db, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def tiermem(db: str, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """Run a ``tiermem`` command on ``db`` (not checked: the caller reads the exit status)."""
    return subprocess.run([*TIERMEM, *args], env=child_env(db), capture_output=True, text=True, timeout=timeout)


@dataclass
class Server:
    """One ``tiermem serve`` on a fixed port; ``kill`` is a SIGKILL, ``start`` runs it again on the same port."""

    name: str
    store: str  # "sqlite" or "postgres"
    db: str
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    kills: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> None:
        """Start the process (not waiting for it to be ready)."""
        command = [*TIERMEM, "serve", "--port", str(self.port), "--embedder", "hash", "--rate", "0"]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, env=child_env(self.db), stdout=log, stderr=log)

    def wait_ready(self, timeout: float = READY_TIMEOUT, *, relaunch: bool = False) -> None:
        """Until ``/readyz`` answers 200 (SystemExit if the process exits or the time runs out).

        ``relaunch`` starts an exited process again, as a supervisor would: a server refuses to start while its
        database cannot be reached, which happens when a restart falls inside a PostgreSQL outage."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.process is None or self.process.poll() is not None:
                if not relaunch or time.monotonic() > deadline:
                    raise SystemExit(f"server {self.name} exited; see {self.log}")
                time.sleep(0.5)
                self.launch()
            if time.monotonic() > deadline:
                raise SystemExit(f"server {self.name} was not ready in {timeout:.0f} s; see {self.log}")
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL: no shutdown, requests in flight are cut off."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.kills += 1

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """SIGTERM and wait (uvicorn finishes the requests it has)."""
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
