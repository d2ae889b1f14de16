"""(internal) The SQLite database as files: find a string in their bytes (the check that an erase left nothing behind).

This is what only a file-backed store can offer. A server store (PostgreSQL) cannot be read byte by byte by its
client; there the equivalent check is on the server: no row of the scope left in any table (``held_rows``) and
``compact(full=True)`` (VACUUM FULL) run, so the dead tuples are gone from the heap and index files too.
"""

from __future__ import annotations

from pathlib import Path

from tiermem.errors import ConfigError, ValidationError
from tiermem.store.base import Store
from tiermem.store.sqlite.store import SQLiteStore

__all__ = ["find_bytes", "require_sqlite"]


def require_sqlite(store: Store) -> SQLiteStore:
    """The store as a SQLiteStore, or a ConfigError: for what needs the database file itself."""
    if not isinstance(store, SQLiteStore):
        raise ConfigError(f"this needs the SQLite store (a database file), not {type(store).__name__}")
    return store


def find_bytes(db_path: str | Path, needle: str | bytes) -> list[str]:
    """The files of the database (main, -wal, -journal, -shm) whose bytes contain ``needle`` (UTF-8)."""
    pattern = needle.encode("utf-8") if isinstance(needle, str) else needle
    if not pattern:
        raise ValidationError("needle", "must not be empty")
    base = Path(db_path)
    found: list[str] = []
    for path in (base, *(base.with_name(base.name + s) for s in ("-wal", "-journal", "-shm"))):
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
