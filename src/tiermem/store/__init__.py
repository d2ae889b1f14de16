"""Storage backends behind one protocol; a store is chosen by URL."""

from __future__ import annotations

from pathlib import Path

from tiermem.errors import ConfigError, NotFoundError
from tiermem.store.base import AuditEntry, Candidate, Page, PendingWrite, Store, StoredItem
from tiermem.store.context_base import StoreWithContext
from tiermem.store.maintenance_base import ErasedScope, FieldKind, MaintenanceStore, Orphans, RecordRef, RowField
from tiermem.store.options import PoolOptions
from tiermem.store.urls import display_url, is_postgres_url, sqlite_path

__all__ = [
    "AuditEntry",
    "Candidate",
    "ErasedScope",
    "FieldKind",
    "MaintenanceStore",
    "Orphans",
    "Page",
    "PendingWrite",
    "PoolOptions",
    "RecordRef",
    "RowField",
    "Store",
    "StoreWithContext",
    "StoredItem",
    "display_url",
    "is_postgres_url",
    "open_store",
    "sqlite_path",
]


def open_store(
    url: str | Path, *, create: bool = True, pool: PoolOptions | None = None, synchronous: str | None = None
) -> StoreWithContext:
    """Open a store: a plain path, ``sqlite:///relative.db``, ``sqlite:////abs/path.db``, ``:memory:``, or a
    ``postgresql://user@host/db`` URL (``?schema=name`` picks the schema; needs the ``postgres`` extra).

    ``create=False`` opens an existing database only: a missing file is a NotFoundError and nothing is created.
    ``pool`` sets a server store's connections (default: ``PoolOptions.from_env()``); a file store has none.
    ``synchronous`` sets a file's ``PRAGMA synchronous`` (NORMAL by default, FULL: each commit synced to disk); a
    server database commits as its server is set up.
    """
    if is_postgres_url(url):
        try:
            from tiermem.store.postgres import PostgresStore
        except ImportError as exc:
            raise ConfigError(
                f"the PostgreSQL store needs the postgres extra: pip install 'tiermem[postgres]' ({exc})"
            ) from exc
        return PostgresStore(str(url), pool=pool)
    path = sqlite_path(url)
    from tiermem.store.sqlite import SQLiteStore

    try:
        return SQLiteStore(path, create=create, synchronous=synchronous)
    except NotFoundError as exc:
        if not str(url).startswith("sqlite:///") or Path(path).is_absolute():
            raise
        hint = f"{url} is relative to the current folder; sqlite:////{path} would be the absolute path /{path}"
        raise NotFoundError(f"{exc} ({hint})") from None
