"""``tiermem keys`` and ``tiermem serve`` as a user runs them, and the service with the real model."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from live_server import live_server
from tiermem.cli.main import cli

TIERMEM = [sys.executable, "-c", "from tiermem.cli import main; main()"]


def test_keys_create_shows_the_secret_once_and_list_never(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["init", "--db", db]).exit_code == 0
    made = runner.invoke(cli, ["keys", "create", "--db", db, "--tenant", "acme", "--user", "alice"])
    assert made.exit_code == 0, made.output
    secret = made.stdout.strip()
    assert secret.startswith("tmk_")
    admin = runner.invoke(cli, ["keys", "create", "--db", db, "--tenant", "acme", "--role", "admin", "--json"])
    admin_key = json.loads(admin.stdout)
    assert admin_key["role"] == "admin" and admin_key["user"] is None
    listed = runner.invoke(cli, ["keys", "list", "--db", db, "--json"])
    rows = json.loads(listed.stdout)
    assert [(r["tenant"], r["user"], r["role"]) for r in rows] == [("acme", "alice", "user"), ("acme", None, "admin")]
    assert secret not in listed.stdout and secret.split("_", 2)[2] not in listed.stdout
    assert "secret" not in rows[0] and "secret_hash" not in rows[0]
    key_id = rows[0]["id"]
    assert runner.invoke(cli, ["keys", "revoke", "--db", db, key_id]).exit_code == 0
    text = runner.invoke(cli, ["keys", "list", "--db", db]).stdout
    assert f"{key_id}  acme/alice" in text and "revoked" in text


def test_keys_errors_have_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "k.db")
    assert runner.invoke(cli, ["keys", "list", "--db", db]).exit_code == 3  # no database: nothing created
    assert not Path(db).exists()
    assert runner.invoke(cli, ["keys", "create", "--db", db, "--tenant", "acme"]).exit_code == 3  # not made either
    assert not Path(db).exists()
    assert runner.invoke(cli, ["init", "--db", db]).exit_code == 0
    bad = runner.invoke(cli, ["keys", "create", "--db", db, "--tenant", "ac/me"])
    assert bad.exit_code == 2 and "tenant" in bad.output
    runner.invoke(cli, ["keys", "create", "--db", db, "--tenant", "acme"])
    assert runner.invoke(cli, ["keys", "revoke", "--db", db, "000000000000"]).exit_code == 3


def test_init_with_a_grant_on_a_sqlite_file_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    refused = CliRunner().invoke(cli, ["init", "--db", str(db), "--grant", "tiermem_app"])
    assert refused.exit_code != 0 and "PostgreSQL" in refused.output
    assert not db.exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_tiermem_serve_runs_answers_and_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "served.db"
    env = {**os.environ, "TIERMEM_DB": str(db), "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([*TIERMEM, "init"], env=env, check=True, capture_output=True)
    secret = subprocess.run(
        [*TIERMEM, "keys", "create", "--tenant", "acme", "--user", "alice"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    port = _free_port()
    proc = subprocess.Popen(
        [*TIERMEM, "serve", "--port", str(port), "--embedder", "hash"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.1)
        headers = {"Authorization": f"Bearer {secret}"}
        made = httpx.post(f"{url}/v1/memories", json={"content": "served note"}, headers=headers)
        assert made.status_code == 201
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    # uvicorn shuts down gracefully (the lifespan closes the store), then re-raises the signal it caught.
    assert proc.returncode in (0, -signal.SIGTERM), err
    assert "Traceback" not in err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert any(line["route"] == "/v1/memories" and line["status"] == 201 for line in lines)
    assert "served note" not in err and secret not in err


def test_serve_refuses_an_unknown_embedder_before_starting() -> None:
    result = CliRunner().invoke(cli, ["serve", "--embedder", "nope"])
    assert result.exit_code == 2 and "unknown embedder" in result.output


@pytest.mark.slow
def test_the_service_with_the_real_model_finds_a_paraphrase(tmp_path: Path) -> None:
    with live_server(tmp_path / "real.db", embedder="minilm") as server, server.client(server.key("acme", "ann")) as c:
        c.post("/v1/memories", json={"content": "My VPN connection keeps dropping since the update"})
        c.post("/v1/memories", json={"content": "I had pasta for lunch"})
        hits = c.post("/v1/memories/search", json={"query": "network tunnel disconnects", "k": 2}).json()["hits"]
        assert hits[0]["record"]["content"].startswith("My VPN")
        assert hits[0]["record"]["embedding_model"] == "all-MiniLM-L6-v2-onnx-int8-384"
        metrics = httpx.get(f"{server.url}/metrics").text
        seconds = float(next(x for x in metrics.splitlines() if x.startswith("tiermem_model_seconds_total")).split()[1])
        assert seconds > 0
