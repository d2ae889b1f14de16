"""``tiermem serve`` starts or says why in one line: no traceback, a non-zero exit, and no database made by it."""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

import httpx
import pytest

from served_process import TIERMEM, env_for


def _serve(db: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[int, str]:
    command = [*TIERMEM, "serve", "--db", db, "--embedder", "hash", "--port", "0", *args]
    done = subprocess.run(
        command, env={**env_for(Path(db)), **(env or {})}, capture_output=True, text=True, timeout=120, cwd=cwd
    )
    return done.returncode, done.stdout + done.stderr


def _one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert lines[0].startswith("error: ") and "Traceback" not in output and "serving" not in output, output
    return lines[0]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    db = tmp_path / "ok.db"
    subprocess.run([*TIERMEM, "init", "--db", str(db)], env=env_for(db), check=True, capture_output=True)
    return db


def test_a_corrupt_database_file_is_one_line(tmp_path: Path, database: Path) -> None:
    damaged = tmp_path / "damaged.db"
    data = bytearray(database.read_bytes())
    data[4096:12288] = b"\xff" * 8192  # the pages after the header: a file SQLite opens, then finds malformed
    damaged.write_bytes(bytes(data))
    not_sqlite = tmp_path / "text.db"
    not_sqlite.write_text("these bytes were never a database\n")
    for db, says in ((damaged, "damaged"), (not_sqlite, "not a SQLite database")):
        code, output = _serve(str(db))
        assert code == 1 and says in _one_line(output), output


def test_a_path_that_cannot_be_a_database_is_one_line(tmp_path: Path) -> None:
    for db, says in (
        (str(tmp_path), "it is a folder"),
        ("/dev/null", "not a database file"),
        ("/dev/null/memory.db", "no database at /dev/null/memory.db"),
    ):
        code, output = _serve(db)
        assert code != 0 and says in _one_line(output), (db, output)


def test_a_mistyped_db_creates_nothing_and_names_tiermem_init(tmp_path: Path) -> None:
    db = tmp_path / "typo" / "memroy.db"
    code, output = _serve(str(db))
    assert code == 3 and "tiermem init" in _one_line(output)
    keys = subprocess.run(
        [*TIERMEM, "keys", "create", "--db", str(db), "--tenant", "acme"],
        env=env_for(db),
        capture_output=True,
        text=True,
    )
    assert keys.returncode == 3 and "tiermem init" in _one_line(keys.stderr)
    assert not (tmp_path / "typo").exists()


def test_an_unwritable_path_is_one_line_for_init(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for db in (str(blocker / "memory.db"), "/proc/tiermem.db"):
        done = subprocess.run([*TIERMEM, "init", "--db", db], env=env_for(Path(db)), capture_output=True, text=True)
        assert done.returncode == 1 and "cannot" in _one_line(done.stderr), done.stderr
    assert not Path("/proc/tiermem.db").exists()


def test_a_missing_or_invalid_jwks_file_is_one_line(tmp_path: Path, database: Path) -> None:
    invalid, empty = tmp_path / "invalid.json", tmp_path / "empty.json"
    invalid.write_text("not json")
    empty.write_text(json.dumps({"keys": []}))
    for jwks in (tmp_path / "missing.json", invalid, empty):
        env = {"TIERMEM_JWT_ISSUER": "https://id.example", "TIERMEM_JWT_AUDIENCE": "tiermem"}
        code, output = _serve(str(database), env={**env, "TIERMEM_JWT_JWKS_FILE": str(jwks)})
        assert code == 1 and "JWKS file" in _one_line(output), output


def test_a_port_in_use_is_one_line(database: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*TIERMEM, "serve", "--db", str(database), "--embedder", "hash", "--port", str(port)],
            env=env_for(database), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 1 and f"port {port}" in _one_line(done.stderr) and "in use" in done.stderr


def test_the_serving_line_comes_once_connections_are_accepted(database: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [*TIERMEM, "serve", "--db", str(database), "--embedder", "hash", "--port", str(port)]
    proc = subprocess.Popen(command, env=env_for(database), stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        while line and "serving" not in line:
            line = proc.stderr.readline()
        assert "tiermem serving" in line, line
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200  # no retry needed
    finally:
        proc.terminate()
        proc.wait(timeout=30)
