"""(internal) Opening a SQLite file: never creating one unless asked, and driver errors turned into StoreError.

While a process has the file open it also holds a shared ``flock`` on it (one descriptor per process, closed with
its last connection: closing a descriptor of the file earlier would drop SQLite's POSIX locks). A command that
created the file and failed removes it only under an exclusive ``flock`` (``files.remove_if_unused``), so never
while another process uses it; an opener that was waiting meanwhile finds the path no longer names the file it
opened, and opens again.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path

from tiermem.errors import NotFoundError, StorageFullError, StoreError
from tiermem.text_index import INDEX_FUNCTION, index_text

try:
    import fcntl
except ImportError:  # Windows: no flock; a failed command's new file is then removed on its rows alone
    fcntl = None  # type: ignore[assignment]

__all__ = ["connect", "driver_error", "is_open_here", "locked_alone", "released"]

# Database files this process holds connections to. SQLite's locks are POSIX advisory locks, held per process:
# closing any descriptor of the file in this process drops every lock its connections hold, so nothing here may
# open such a file except SQLite itself (``files.find_bytes`` refuses, ``files.residue`` reads in a child).
_OPEN: Counter[str] = Counter()
_OPEN_LOCK = threading.RLock()  # re-entered by an audit hook watching the open() of the file below
# The descriptor holding this process's shared flock on each of those files.
_HELD: dict[str, int] = {}
_FLOCK_WAIT = 30.0  # seconds an open waits for an exclusive flock to go (a removal takes milliseconds)
_REOPENS = 5  # opens of a path whose file or folder another process removed meanwhile, before giving up


def _key(path: str | Path) -> str:
    return os.path.realpath(path)


def is_open_here(path: str | Path) -> bool:
    """Whether a connection of this process has the database file at ``path`` open."""
    with _OPEN_LOCK:
        return _OPEN[_key(path)] > 0


def locked_alone(fd: int) -> bool:
    """Take the exclusive flock on the file of ``fd`` (held until it is closed) unless a process has the file open;
    True where flock is missing."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def released(path: str) -> None:
    """Record that one connection to ``path`` (as ``connect`` was given it) was closed."""
    if path == ":memory:":
        return
    with _OPEN_LOCK:
        key = _key(path)
        _OPEN[key] -= 1
        if _OPEN[key] <= 0:
            del _OPEN[key]
            held = _HELD.pop(key, None)
            if held is not None:  # no connection of this process has the file open any more: no lock to drop
                os.close(held)


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
    # mode=rw: SQLite itself refuses to create the file, should it vanish between the check and the open.
    target = path if create else file.absolute().as_uri() + "?mode=rw"
    with _OPEN_LOCK:
        key = _key(path)
        if not _OPEN[key]:
            held = _hold(file, create=create)
            if held is not None:
                _HELD[key] = held
        try:
            conn = sqlite3.connect(target, uri=not create, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            if not _OPEN[key] and key in _HELD:
                os.close(_HELD.pop(key))
            raise driver_error("open", path, exc) from exc
        _OPEN[key] += 1
    return _with_functions(conn)


def _make_folder(file: Path) -> None:
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        blocker = next((p for p in file.parents if p.exists() and not p.is_dir()), None)
        why = f"{blocker} is a file" if blocker is not None else exc.strerror or str(exc)
        raise StoreError(f"cannot create the folder {file.parent} for the database: {why}") from exc


def _shared_lock(fd: int) -> bool:
    """Take a shared flock on ``fd``, waiting while a failed command removes the file (briefly); False when the file
    system has no flock. StoreError if something else holds it exclusively for ``_FLOCK_WAIT`` seconds."""
    deadline = time.monotonic() + _FLOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise StoreError("cannot open the database: another process holds its file locked (flock)") from None
            time.sleep(0.01)
        except OSError:
            return False


def _hold(file: Path, *, create: bool) -> int | None:
    """A descriptor of the file with a shared flock, taken once the path still names the file it opened (a failed
    command may have removed it meanwhile: then again, on the path's new file); None where flock is missing."""
    for attempt in range(_REOPENS):
        if create:
            _make_folder(file)
        if fcntl is None:
            return None
        try:
            fd = os.open(file, os.O_RDONLY | (os.O_CREAT if create else 0), 0o644)
        except FileNotFoundError:
            if create and attempt + 1 < _REOPENS:
                continue  # its folder was removed after it was made: make it again
            if create:
                return None  # a folder no file can be made in (/proc): SQLite's own open says so
            raise NotFoundError(f"no database at {file}: the file was removed while it was opened") from None
        except OSError:
            return None  # SQLite's own open says what is wrong with the file
        if not _shared_lock(fd):
            os.close(fd)  # a file system without flock: no removal can be kept out, as before
            return None
        try:
            mine, now = os.fstat(fd), os.stat(file)
            if (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino):
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)  # a removed file, which no connection of this process has open
        if not create:
            raise NotFoundError(f"no database at {file}: the file was removed while it was opened")
    return None  # removed again and again while this process opened it: open it without the lock, as before


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
