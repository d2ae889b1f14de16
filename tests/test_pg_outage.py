"""With PostgreSQL stopped the service answers 503 at once and says why, and serves again when it is back,
without a restart; the database's password is never printed, logged or answered, whatever fails."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest

from pg_fixtures import EmbeddedPg, private_pg
from served_process import TIERMEM, env_for, served_to_file

PASSWORD = "PASSWORD-d8Qz1"  # the test's own: it must appear nowhere


@pytest.fixture(scope="module")
def pg() -> Iterator[EmbeddedPg]:
    with private_pg() as server:
        yield server


def _with_password(url: str) -> str:
    parts = urlsplit(url)
    user, _, host = parts.netloc.rpartition("@")
    return urlunsplit((parts.scheme, f"{user.split(':')[0]}:{PASSWORD}@{host}", parts.path, parts.query, ""))


@contextmanager
def _served(url: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    log = tmp_path / "serve.log"
    with served_to_file(url, log, "--rate", "0") as base:
        yield base, log


def _key(url: str, tmp_path: Path) -> str:
    made = subprocess.run(
        [*TIERMEM, "keys", "create", "--db", url, "--tenant", "acme", "--user", "alice"],
        env=env_for(tmp_path / "unused.db"), capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert PASSWORD not in made.stdout + made.stderr
    return made.stdout.strip()


def test_with_the_database_stopped_search_is_503_at_once_and_readyz_says_why(pg: EmbeddedPg, tmp_path: Path) -> None:
    url = pg.urls.schema_url("outage")
    secret = _key(url, tmp_path)
    with _served(url, tmp_path) as (base, _log):
        auth = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=base, headers=auth, timeout=30) as c:
            assert c.post("/v1/memories", json={"content": "the boiler is serviced in March"}).status_code == 201
            assert c.post("/v1/memories/search", json={"query": "boiler"}).status_code == 200
            pg.stop()
            try:
                took: list[float] = []
                for _ in range(20):
                    started = time.perf_counter()
                    r = c.post("/v1/memories/search", json={"query": "when is the boiler serviced"})
                    took.append(time.perf_counter() - started)
                    assert r.status_code == 503 and r.headers["retry-after"] == "1", r.text
                    assert "cannot be reached" in r.json()["detail"]
                started = time.perf_counter()
                ready = httpx.get(f"{base}/readyz", timeout=30)
                ready_s = time.perf_counter() - started
            finally:
                pg.start()
            p95 = statistics.quantiles(took, n=20)[-1]
            assert p95 < 2.0, took
            assert ready.status_code == 503 and ready_s < 1.0, (ready_s, ready.text)
            assert "the database server cannot be reached" in ready.json()["detail"]
            deadline = time.monotonic() + 10
            while httpx.get(f"{base}/readyz").status_code != 200:  # back, the same process
                assert time.monotonic() < deadline, "not ready again 10 s after the database came back"
                time.sleep(0.1)
            hits = c.post("/v1/memories/search", json={"query": "when is the boiler serviced"}).json()["hits"]
            assert hits[0]["record"]["content"] == "the boiler is serviced in March"


def test_the_database_password_is_in_no_output_log_line_or_response(pg: EmbeddedPg, tmp_path: Path) -> None:
    url = _with_password(pg.urls.schema_url("secret"))
    assert PASSWORD in url
    secret = _key(url, tmp_path)
    seen: list[str] = []
    with _served(url, tmp_path) as (base, log):
        auth = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=base, headers=auth, timeout=30) as c:
            seen += [c.post("/v1/memories", json={"content": "a note"}).text, c.get("/metrics").text]
            seen += [c.get("/readyz").text, c.get("/docs").text, c.get("/v1/whoami").text]
            pg.stop()
            try:
                seen += [c.post("/v1/memories/search", json={"query": "note"}).text, c.get("/readyz").text]
                seen += [c.get("/metrics").text, c.get("/v1/memories").text]
            finally:
                pg.start()
        seen.append(log.read_text())
    assert "tiermem serving postgresql://" in seen[-1]  # the start-up line names the database, without secrets
    wrong = url.replace("/tiermem_test", "/no_such_database")
    failed = subprocess.run(
        [*TIERMEM, "serve", "--db", wrong, "--embedder", "hash", "--port", "0"],
        env=env_for(tmp_path / "unused.db"), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert failed.returncode != 0 and "no_such_database" in failed.stderr
    seen += [failed.stdout, failed.stderr]
    assert [text for text in seen if PASSWORD in text] == []
    bodies = " ".join(seen[:-3])  # the responses: no role, socket or schema either
    assert "tiermem_app" not in bodies and ".s.PGSQL" not in bodies and "secret_" not in bodies


def test_a_server_started_while_the_database_is_away_exits_1_saying_so(tmp_path: Path) -> None:
    """A supervisor (systemd's Restart=on-failure, a container's restart policy) then starts it again."""
    away = "postgresql://tiermem@127.0.0.1:1/tiermem"  # nothing listens on port 1
    done = subprocess.run(
        [*TIERMEM, "serve", "--db", away, "--port", "0", "--embedder", "hash"],
        env=env_for(tmp_path / "unused.db"), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "cannot be reached" in done.stderr, done.stderr[-500:]
