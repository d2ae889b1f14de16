"""(internal) The SQLite database as files: a string in their bytes (what an erase must leave none of), rows held.

This is what only a file-backed store can offer. A server store (PostgreSQL) cannot be read byte by byte by its
client; there the equivalent check is on the server: no row of the scope left in any table (``held_rows``) and
``compact(full=True)`` (VACUUM FULL) run, so the dead tuples are gone from the heap and index files too.

The bytes are read without SQLite, so never by a process that has the database open: SQLite's locks are POSIX
advisory locks, held per process, and closing any descriptor of the file drops all of them (another process
could then checkpoint or reset the log under this one's connections). ``find_bytes`` refuses such a read;
``residue`` does it in a child process, which holds no locks to lose. Run as a module, this file is that child.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tiermem.errors import StoreError, ValidationError
from tiermem.store.sqlite.connect import is_open_here, locked_alone

__all__ = ["find_bytes", "holds_rows", "remove_files", "remove_if_unused", "residue", "stored_bytes"]

_SUFFIXES = ("", "-wal", "-journal", "-shm")
_CHILD_TIMEOUT = 300.0  # seconds: a multi-gigabyte file is read at disk speed


def find_bytes(db_path: str | Path, needle: str | bytes) -> list[str]:
    """The files of the database (main, -wal, -journal, -shm) whose bytes contain ``needle`` (UTF-8).

    StoreError when this process has the database open (use the store's ``residue``, which reads in a child).
    """
    if is_open_here(db_path):
        raise StoreError(
            f"{db_path} is open in this process: reading its files here would drop SQLite's locks; "
            "close the store first, or use its residue() check"
        )
    return _find(Path(db_path), _needle(needle))


def residue(db_path: str | Path, needles: Sequence[bytes]) -> list[bytes]:
    """Which of ``needles`` still occur in the database's files, read by a child process."""
    wanted = [_needle(n) for n in needles]
    if not wanted:
        return []
    request = json.dumps({"path": str(db_path), "needles": [n.hex() for n in wanted]})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", __name__],
            input=request,
            capture_output=True,
            text=True,
            env=env,
            timeout=_CHILD_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StoreError(f"cannot check the files of {db_path} for left-over bytes: {exc}") from exc
    if done.returncode != 0:
        why = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise StoreError(f"cannot check the files of {db_path} for left-over bytes: {why[0]}")
    return [wanted[i] for i in json.loads(done.stdout)]


def stored_bytes(db_path: str | Path) -> int:
    """The database file's bytes with its write-ahead log's."""
    base = Path(db_path)
    return sum(p.stat().st_size for p in (base, base.with_name(base.name + "-wal")) if p.exists())


def holds_rows(file: Path) -> bool:
    """Whether the file holds a record, held write, core block or audit entry (read only; True when unsure)."""
    try:
        conn = sqlite3.connect(file.absolute().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error:
        return True
    try:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return any(
            table in tables and conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None
            for table in ("records", "pending_writes", "core_blocks", "audit_log")
        )
    except sqlite3.Error:  # locked by a writer, or not a database: not ours to remove
        return True
    finally:
        conn.close()


def remove_if_unused(file: Path) -> bool:
    """Remove the database file and its logs unless a process has it open or it holds rows; whether it did.

    Removed under an exclusive flock: every process holds a shared one while it has the file open (``connect``).
    """
    if is_open_here(file):
        return False
    try:
        fd = os.open(file, os.O_RDONLY)
    except OSError:
        return False  # gone already, or not ours to open
    try:
        if not locked_alone(fd):
            return False  # another process has it open: its writes go to this file
        if holds_rows(file):
            return False
        remove_files(file)
        return True
    finally:
        os.close(fd)


def remove_files(file: Path) -> None:
    """Remove the database file and its log files."""
    for path in (file.with_name(file.name + s) for s in _SUFFIXES):
        path.unlink(missing_ok=True)


def _needle(value: str | bytes) -> bytes:
    pattern = value.encode("utf-8") if isinstance(value, str) else value
    if not pattern:
        raise ValidationError("needle", "must not be empty")
    return pattern


def _find(base: Path, pattern: bytes) -> list[str]:
    found: list[str] = []
    for path in (base.with_name(base.name + s) for s in _SUFFIXES):
        if path.is_file() and _file_contains(path, pattern):
            found.append(str(path))
    return found


def _file_contains(path: Path, pattern: bytes, block: int = 1 << 20) -> bool:
    tail = b""
    with path.open("rb") as fh:
        while chunk := fh.read(block):
            if pattern in tail + chunk:
                return True
            tail = (tail + chunk)[-(len(pattern) - 1) :] if len(pattern) > 1 else b""
    return False


def _child() -> None:
    """Read ``{"path", "needles": [hex]}`` on stdin; print the indexes of the needles found, as JSON."""
    request = json.loads(sys.stdin.read())
    base = Path(request["path"])
    found = [i for i, hexed in enumerate(request["needles"]) if _find(base, bytes.fromhex(hexed))]
    print(json.dumps(found))


if __name__ == "__main__":
    _child()
