"""``tiermem serve`` as a real child process on a free loopback port, for tests that restart or kill it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

TIERMEM = [sys.executable, "-c", "from tiermem.cli import main; main()"]


def env_for(db: Path | str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child that uses this test's source tree and ``db`` (a file or a PostgreSQL URL)."""
    return {**os.environ, "TIERMEM_DB": str(db), "PYTHONPATH": os.pathsep.join(sys.path), **(extra or {})}


def make_key(db: Path | str, tenant: str, user: str | None, *, role: str = "user") -> str:
    """A new API key's secret, made with ``tiermem keys create``."""
    create = [*TIERMEM, "keys", "create", "--tenant", tenant, "--role", role, *(["--user", user] if user else [])]
    return subprocess.run(create, env=env_for(db), capture_output=True, text=True, check=True).stdout.strip()


@contextmanager
def served(db: Path | str, args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> Iterator[str]:
    """The base URL of ``tiermem serve --embedder hash --rate 0 *args`` on ``db``; SIGTERM at the end."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [*TIERMEM, "serve", "--port", str(port), "--embedder", "hash", "--rate", "0", *args]
    proc = subprocess.Popen(command, env=env_for(db, env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                if httpx.get(f"{url}/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None:
                raise AssertionError(f"the server exited: {proc.stderr.read() if proc.stderr else ''}")
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
        if proc.stderr is not None:
            proc.stderr.close()
