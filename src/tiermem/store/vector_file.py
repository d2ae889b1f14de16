"""A file of vectors by key: what an embedding cache keeps between runs, in one SQLite file."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tiermem.embed import Vectors
from tiermem.errors import ConfigError, StoreError

__all__ = ["SUFFIX", "VectorFile"]

SUFFIX = ".sqlite3"  # what a vector file's name ends with

_KEYS_PER_QUERY = 500  # under SQLite's default limit of bound parameters


class VectorFile:
    """float32 vectors under byte keys in the SQLite file ``path`` (created with its table when missing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL)")
        except sqlite3.Error as exc:
            raise ConfigError(f"cannot open the vector file {path}: {exc}") from exc
        self._lock = threading.Lock()

    def get_many(self, keys: Sequence[bytes]) -> dict[bytes, Vectors]:
        """The vectors held under any of ``keys``; a key not held is left out."""
        found: dict[bytes, Vectors] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), _KEYS_PER_QUERY):
                chunk = unique[start : start + _KEYS_PER_QUERY]
                try:
                    rows = self._conn.execute(
                        f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(chunk))})", chunk
                    ).fetchall()
                except sqlite3.Error as exc:
                    raise StoreError(f"cannot read the vector file {self.path}: {exc}") from exc
                found.update((key, np.frombuffer(vec, dtype=np.float32)) for key, vec in rows)
        return found

    def put_many(self, rows: Sequence[tuple[bytes, Vectors]]) -> None:
        """Keep each vector under its key (replacing one held there), all in one transaction."""
        with self._lock:
            try:
                self._conn.execute("BEGIN")
                self._conn.executemany(
                    "INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                    [(key, np.asarray(vec, dtype=np.float32).tobytes()) for key, vec in rows],
                )
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise StoreError(f"cannot write the vector file {self.path}: {exc}") from exc

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._conn.close()
