"""The command line's bad input is a field error with exit 2, never "unexpected ... (a bug)": undecodable bytes
in an argument, a cursor no listing returned, JSON nested too deeply. The real `tiermem` in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tiermem

SRC = str(Path(tiermem.__file__).resolve().parents[1])


def _tiermem(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TIERMEM_", "XDG_"))}
    env.update(HOME=str(folder), PYTHONPATH=SRC, TIERMEM_EMBEDDER="hash")
    code = "from tiermem.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=folder, env=env, timeout=120
    )


def _bad_input(proc: subprocess.CompletedProcess[str], *wanted: str) -> None:
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert "Traceback" not in out and "unexpected" not in out, out
    for text in wanted:
        assert text in proc.stderr, proc.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "c.db")
    assert _tiermem(tmp_path, "add", "--db", path, "--user", "ann", "the shed key hangs by the door").returncode == 0
    return path


def test_undecodable_bytes_in_an_argument_are_a_field_error(tmp_path: Path, db: str) -> None:
    proc = _tiermem(tmp_path, "add", "--db", db, "--user", "ann", "the shed \udcff\udcfe key")  # bytes ff fe
    _bad_input(proc, "content: must be valid Unicode", "lone surrogate")


def test_a_cursor_out_of_range_is_a_field_error(tmp_path: Path, db: str) -> None:
    proc = _tiermem(tmp_path, "list", "--db", db, "--user", "ann", "--cursor", "99999999999999999999999")
    _bad_input(proc, "cursor: is not a cursor this store returned", "1 to 18 digits")


@pytest.mark.parametrize("command", [["add-messages", "--user", "ann", "--session", "s1"], ["scan"]])
def test_json_nested_too_deeply_is_a_field_error(tmp_path: Path, db: str, command: list[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    args = [*command[:1], "--db", db, *command[1:]] if command[0] != "scan" else command
    _bad_input(_tiermem(tmp_path, *args, str(deep)), "nests arrays or objects too deeply to read")
