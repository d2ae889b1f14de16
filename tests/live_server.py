"""A real tiermem server on a free loopback port, in a thread of the test process, for tests that speak HTTP."""

from __future__ import annotations

import io
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from tiermem.server.serve import make_server
from tiermem.server.settings import ServerSettings


class LiveServer:
    """A running server: its base URL, its settings and the JSON lines it logged."""

    def __init__(self, settings: ServerSettings, log: io.StringIO) -> None:
        self.settings = settings
        self._log = log
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and without it every
        # response body waits ~40 ms for the client's delayed ACK of the headers (Nagle).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server = make_server(replace(settings, port=self.port))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 60
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    @property
    def app(self) -> Any:
        return self._server.config.app

    @property
    def runtime(self) -> Any:
        return self.app.state.runtime

    def log_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self._log.getvalue().splitlines() if line.strip()]

    def key(self, tenant: str, user: str | None, role: str = "user") -> str:
        from tiermem.server.keys import create_key

        return create_key(self.runtime.access, tenant, user, role).secret

    def client(self, secret: str | None = None, **kwargs: Any) -> httpx.Client:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30, **kwargs)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)


def same_problem(one: httpx.Response, two: httpx.Response, *ids: str) -> None:
    """Equal status and body but for the ids named and the request id (nothing tells one answer from the other)."""

    def norm(r: httpx.Response) -> Any:
        body = r.json() if r.content else None
        if isinstance(body, dict):
            body.pop("request_id", None)
            text = body.get("detail", "")
            for i in ids:
                text = text.replace(i, "<id>")
            body["detail"] = text
        return r.status_code, r.headers.get("content-type"), body

    assert norm(one) == norm(two)


STORES = ("sqlite", "postgres")  # the stores a live server is run on by the tests that try both


def database_url(request: pytest.FixtureRequest, folder: Path, store: str) -> str:
    """A new database of ``store``: a SQLite file in ``folder``, or a fresh schema on the session's PostgreSQL."""
    if store == "postgres":
        return str(request.getfixturevalue("pg_server").schema_url("iso"))
    return str(folder / "iso.db")


@contextmanager
def live_server(db: Path | str, **settings: Any) -> Iterator[LiveServer]:
    """Start a server on ``db`` (made first if new, as ``tiermem init`` would; hashing embedder unless told) and
    stop it afterwards."""
    from tiermem.store import open_store

    open_store(db, create=True).close()
    log = io.StringIO()
    fields: dict[str, Any] = {"embedder": "hash", "log_stream": log}
    fields.update(settings)
    server = LiveServer(ServerSettings(db_url=str(db), **fields), log)
    try:
        yield server
    finally:
        server.stop()


def keyed_post(server: LiveServer, secret: str, path: str, body: object, key: str) -> httpx.Response:
    """POST ``body`` to ``path`` with an ``Idempotency-Key``."""
    headers = {"Authorization": f"Bearer {secret}", "Idempotency-Key": key}
    return httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=60)


def kept_answer(server: LiveServer, secret: str, path: str, body: object, key: str) -> httpx.Response:
    """The keyed request sent again once its first answer is kept (it is kept just after it is sent)."""
    deadline = time.monotonic() + 10
    while (answer := keyed_post(server, secret, path, body, key)).status_code == 409:
        assert time.monotonic() < deadline, "the answer was never kept"
        time.sleep(0.05)
    return answer
