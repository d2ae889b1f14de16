"""Storage backends behind one protocol; a store is chosen by URL."""

from __future__ import annotations

from pathlib import Path

from tiermem.errors import ConfigError
from tiermem.store.base import AuditEntry, Candidate, Page, PendingWrite, Store, StoredItem
from tiermem.store.maintenance_base import ErasedScope, FieldKind, MaintenanceStore, Orphans, RecordRef, RowField

__all__ = [
    "AuditEntry",
    "Candidate",
    "ErasedScope",
    "FieldKind",
    "MaintenanceStore",
    "Orphans",
    "Page",
    "PendingWrite",
    "RecordRef",
    "RowField",
    "Store",
    "StoredItem",
    "open_store",
]


def open_store(url: str | Path) -> Store:
    """Open a store: ``sqlite:///relative.db``, ``sqlite:////abs/path.db``, ``:memory:`` or a plain path."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        raise ConfigError("the PostgreSQL store is not available in this version; use sqlite:///path")
    if text.startswith("sqlite:///"):
        # As in SQLAlchemy: sqlite:///relative.db, sqlite:////absolute/path.db, sqlite:///:memory:
        text = text.removeprefix("sqlite:///")
    elif "://" in text:
        raise ConfigError(f"unknown store URL {text!r}: use sqlite:///path/to/file.db or a file path")
    if not text:
        raise ConfigError("store URL has no path: use sqlite:///path/to/file.db")
    from tiermem.store.sqlite import SQLiteStore

    return SQLiteStore(text)
