"""(internal) An on-disk cache of embeddings for eval runs: variants that embed the same texts re-run in seconds."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tiermem.embed import Embedder, QueryEmbedder, Vectors, pools_passages
from tiermem.errors import ConfigError

__all__ = ["CachedEmbedder", "cache_key"]

_FILE = "embeddings.sqlite3"


def cache_key(fingerprint: str, text: str) -> bytes:
    """sha256 of the model fingerprint and the text: a vector is reused only for the same model and text."""
    return hashlib.sha256(fingerprint.encode("utf-8") + b"\0" + text.encode("utf-8")).digest()


class CachedEmbedder:
    """Wraps an embedder; vectors are read from (and new ones written to) one SQLite file in ``directory``."""

    def __init__(self, inner: Embedder, directory: Path) -> None:
        self._inner = inner
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / _FILE
        try:
            self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL)")
        except sqlite3.Error as exc:
            raise ConfigError(f"cannot open the embedding cache {path}: {exc}") from exc
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def dim(self) -> int:
        return self._inner.dim

    @property
    def fingerprint(self) -> str:
        return self._inner.fingerprint

    @property
    def pools_passages(self) -> bool:
        # The eval must make the vectors a user's store makes with the same model.
        return pools_passages(self._inner)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._embed(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Queries, for a model that embeds them differently (kept under their own keys), else as texts."""
        return self._embed(texts, query=isinstance(self._inner, QueryEmbedder))

    def _embed(self, texts: Sequence[str], *, query: bool) -> Vectors:
        # A model embeds a query apart from the same text stored (e5's prefixes): its vectors get their own keys.
        model = self.fingerprint + (" query" if query else "")
        keys = [cache_key(model, t) for t in texts]
        found: dict[bytes, Vectors] = {}
        with self._lock:
            unique = list(dict.fromkeys(keys))
            for start in range(0, len(unique), 500):
                chunk = unique[start : start + 500]
                rows = self._conn.execute(
                    f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(chunk))})", chunk
                )
                found.update((key, np.frombuffer(vec, dtype=np.float32)) for key, vec in rows)
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        self.hits += len(texts) - sum(1 for k in keys if k not in found)
        self.misses += len(missing)
        if missing:
            inner = self._inner
            fresh = (
                inner.embed_queries(missing)
                if query and isinstance(inner, QueryEmbedder)
                else inner.embed_batch(missing)
            )
            rows_new = [(cache_key(model, t), fresh[i].tobytes()) for i, t in enumerate(missing)]
            with self._lock:
                self._conn.execute("BEGIN")
                self._conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows_new)
                self._conn.execute("COMMIT")
            found.update((key, fresh[i]) for i, (key, _) in enumerate(rows_new))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = found[key]
        return out

    def close(self) -> None:
        """Close the cache file."""
        with self._lock:
            self._conn.close()
