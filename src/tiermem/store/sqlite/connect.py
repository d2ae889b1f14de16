"""(internal) Opening a SQLite file: never creating one unless asked, and driver errors turned into StoreError."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import Counter
from pathlib import Path

from tiermem.errors import NotFoundError, StorageFullError, StoreError
from tiermem.text_index import INDEX_FUNCTION, index_text

__all__ = ["connect", "driver_error", "is_open_here", "released"]

# Database files this process holds connections to. SQLite's locks are POSIX advisory locks, held per process:
# closing any descriptor of the file in this process drops every lock its connections hold, so nothing here may
# open such a file except SQLite itself (``files.find_bytes`` refuses, ``files.residue`` reads in a child).
_OPEN: Counter[str] = Counter()
_OPEN_LOCK = threading.Lock()


def _key(path: str | Path) -> str:
    return os.path.realpath(path)


def is_open_here(path: str | Path) -> bool:
    """Whether a connection of this process has the database file at ``path`` open."""
    with _OPEN_LOCK:
        return _OPEN[_key(path)] > 0


def released(path: str) -> None:
    """Record that one connection to ``path`` (as ``connect`` was given it) was closed."""
    if path == ":memory:":
        return
    with _OPEN_LOCK:
        key = _key(path)
        _OPEN[key] -= 1
        if _OPEN[key] <= 0:
            del _OPEN[key]


def connect(path: str, *, create: bool) -> sqlite3.Connection:
    """A connection to ``path``; with ``create`` False the file must already exist (nothing is created)."""
    if path == ":memory:":
        return _with_functions(sqlite3.connect(path, isolation_level=None, check_same_thread=False))
    file = Path(path)
    if file.is_dir():
        raise StoreError(f"cannot open the database {path}: it is a folder, not a database file")
    if file.exists() and not file.is_file():
        raise StoreError(f"cannot open the database {path}: it is a device or a pipe, not a database file")
    if not create and not file.exists():
        where = f" ({file.absolute()})" if not file.is_absolute() else ""
        raise NotFoundError(f"no database at {path}{where}: the file does not exist, and none was created")
    if create:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            blocker = next((p for p in file.parents if p.exists() and not p.is_dir()), None)
            why = f"{blocker} is a file" if blocker is not None else exc.strerror or str(exc)
            raise StoreError(f"cannot create the folder {file.parent} for the database: {why}") from exc
    # mode=rw: SQLite itself refuses to create the file, should it vanish between the check and the open.
    target = path if create else file.absolute().as_uri() + "?mode=rw"
    try:
        conn = sqlite3.connect(target, uri=not create, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise driver_error("open", path, exc) from exc
    with _OPEN_LOCK:
        _OPEN[_key(path)] += 1
    return _with_functions(conn)


def _with_functions(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` with the SQL function the full-text triggers index text through (``text_index.index_text``)."""
    conn.create_function(INDEX_FUNCTION, 1, index_text, deterministic=True)
    return conn


def driver_error(action: str, path: str, exc: sqlite3.Error) -> StoreError:
    """A StoreError that says what failed on which file, and what the driver's message means."""
    text = str(exc)
    if "full" in text:  # SQLITE_FULL: "database or disk is full" (also a max_page_count limit reached)
        return StorageFullError(f"cannot {action} {path}: the disk or the database's size limit is full ({text})")
    if "readonly" in text or "read-only" in text:
        meaning = "the database is read-only; check the permissions of the file and its folder"
    elif "not a database" in text:
        meaning = "the file is not a SQLite database"
    elif "locked" in text or "busy" in text:
        meaning = "another process holds the database locked"
    elif "unable to open" in text:
        meaning = "the file cannot be opened; check the path and its permissions"
    elif "malformed" in text or "corrupt" in text:
        meaning = "the database file is damaged"
    else:
        meaning = "the database driver failed"
    return StoreError(f"cannot {action} {path}: {meaning} (SQLite: {text})")
