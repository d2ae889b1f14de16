"""``tiermem serve`` as a real child process on a free loopback port, for tests that restart or kill it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

TIERMEM = [sys.executable, "-c", "from tiermem.cli import main; main()"]


def env_for(db: Path | str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child that uses this test's source tree and ``db`` (a file or a PostgreSQL URL)."""
    return {**os.environ, "TIERMEM_DB": str(db), "PYTHONPATH": os.pathsep.join(sys.path), **(extra or {})}


def make_key(db: Path | str, tenant: str, user: str | None, *, role: str = "user") -> str:
    """A new API key's secret, made with ``tiermem keys create`` (the database made first by ``tiermem init`` if
    it is a file not there yet: no command but init, add and import creates one)."""
    if "://" not in str(db) and not Path(db).exists():
        subprocess.run([*TIERMEM, "init"], env=env_for(db), capture_output=True, text=True, check=True)
    create = [*TIERMEM, "keys", "create", "--tenant", tenant, "--role", role, *(["--user", user] if user else [])]
    return subprocess.run(create, env=env_for(db), capture_output=True, text=True, check=True).stdout.strip()


def wait_ready(url: str, proc: subprocess.Popen[Any], output: Callable[[], str]) -> None:
    """Until ``url``'s /readyz answers 200; AssertionError with the server's ``output`` if it exits or takes 60 s."""
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/readyz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {output()}")
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


@contextmanager
def served(db: Path | str, args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> Iterator[str]:
    """The base URL of ``tiermem serve --embedder hash --rate 0 *args`` on ``db``; SIGTERM at the end."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [*TIERMEM, "serve", "--port", str(port), "--embedder", "hash", "--rate", "0", *args]
    proc = subprocess.Popen(command, env=env_for(db, env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, proc, lambda: proc.stderr.read() if proc.stderr else "")
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
        if proc.stderr is not None:
            proc.stderr.close()


@contextmanager
def served_to_file(db: Path | str, log: Path, *args: str) -> Iterator[str]:
    """The base URL of ``tiermem serve --db db --embedder hash *args``, its output written to ``log`` (a file, not
    a pipe: a busy server's request log must never block it); SIGTERM at the end."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [*TIERMEM, "serve", "--db", str(db), "--port", str(port), "--embedder", "hash", *args]
    with log.open("w") as out:
        proc = subprocess.Popen(command, env=env_for(db), stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, proc, log.read_text)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
