"""``tiermem keys create`` and ``tiermem serve`` with ``--db postgresql://…``, on the session's real server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx

from pg_fixtures import PgServer
from test_cli_service import TIERMEM, _free_port


def test_tiermem_serve_on_postgres_remembers_recalls_and_reports_its_size(pg_server: PgServer) -> None:
    url = pg_server.schema_url("serve")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("TIERMEM_DB", None)
    secret = subprocess.run(
        [*TIERMEM, "keys", "create", "--db", url, "--tenant", "acme", "--user", "alice"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert secret.startswith("tmk_")
    port = _free_port()
    proc = subprocess.Popen(
        [*TIERMEM, "serve", "--db", url, "--port", str(port), "--embedder", "hash"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                ready = httpx.get(f"{base}/readyz")
                if ready.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.1)
        assert ready.json() == {"status": "ready", "store": True, "model": True}
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {secret}"}, timeout=30) as c:
            made = c.post("/v1/memories", json={"content": "the staging database listens on port 6543"})
            assert made.status_code == 201, made.text
            c.post("/v1/memories", json={"content": "lunch is at noon on Fridays"})
            hits = c.post("/v1/memories/search", json={"query": "which port does staging use", "k": 1}).json()
            assert [h["record"]["content"] for h in hits["hits"]] == ["the staging database listens on port 6543"]
            assert c.get("/v1/whoami").json()["tenant"] == "acme"
        assert httpx.get(f"{base}/v1/memories").status_code == 401
        metrics = httpx.get(f"{base}/metrics").text
        assert "tiermem_records 2" in metrics
        size = next(line for line in metrics.splitlines() if line.startswith("tiermem_store_bytes "))
        assert int(size.split()[1]) > 100_000  # tables and indexes of the schema, not 0 or a file's size
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode in (0, -signal.SIGTERM), err
    assert "Traceback" not in err
    assert "6543" not in err and secret not in err
