"""The embedded default store: one SQLite file with FTS5 full text and numpy vector search."""

from tiermem.store.sqlite.files import find_bytes
from tiermem.store.sqlite.store import DEFAULT_CACHE_BYTES, SQLiteStore

__all__ = ["DEFAULT_CACHE_BYTES", "SQLiteStore", "find_bytes"]
