"""Storage backends behind one protocol; a store is chosen by URL."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from tiermem.errors import ConfigError, NotFoundError
from tiermem.store.base import AuditEntry, Candidate, Page, PendingWrite, Store, StoredItem
from tiermem.store.maintenance_base import ErasedScope, FieldKind, MaintenanceStore, Orphans, RecordRef, RowField
from tiermem.store.options import PoolOptions

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
    "StoredItem",
    "display_url",
    "is_postgres_url",
    "open_store",
    "sqlite_path",
]


def sqlite_path(url: str | Path) -> str:
    """The file (or ``:memory:``) that a plain path or a ``sqlite:///`` URL names.

    As in SQLAlchemy, three slashes start a path relative to the current folder (``sqlite:///data/x.db``) and
    a fourth makes it absolute (``sqlite:////srv/x.db``).
    """
    text = str(url)
    if is_postgres_url(text):
        raise ConfigError(f"{display_url(text)!r} names a PostgreSQL database, not a SQLite file")
    if text.startswith("sqlite:///"):
        text = text.removeprefix("sqlite:///")
    elif "://" in text:
        raise ConfigError(f"unknown store URL {display_url(text)!r}: use sqlite:///path/to/file.db or a file path")
    if not text:
        raise ConfigError("store URL has no path: use sqlite:///path/to/file.db")
    return text


def display_url(url: str | Path) -> str:
    """``url`` as it may be shown (a start-up line, a log, an error): never a password or other URL parameters.

    A PostgreSQL URL keeps its user, host (or socket folder), port, database and schema; a file, its path; any
    other URL, its scheme and host."""
    text = str(url)
    if "://" not in text:
        return text
    parts = urlsplit(text)
    if not is_postgres_url(text):
        return text if text.startswith("sqlite:///") else f"{parts.scheme}://{parts.hostname or ''}"
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:  # a port that is no number: shown as nothing rather than as given
        port = ""
    host = (parts.hostname or query.get("host") or "local socket") + port
    user = f"{parts.username}@" if parts.username else ""
    schema = query.get("schema", "public")
    return f"postgresql://{user}{host}{parts.path}" + ("" if schema == "public" else f"?schema={schema}")


def is_postgres_url(url: str | Path) -> bool:
    """Whether ``url`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return str(url).startswith(("postgresql://", "postgres://"))


def open_store(url: str | Path, *, create: bool = True, pool: PoolOptions | None = None) -> Store:
    """Open a store: a plain path, ``sqlite:///relative.db``, ``sqlite:////abs/path.db``, ``:memory:``, or a
    ``postgresql://user@host/db`` URL (``?schema=name`` picks the schema; needs the ``postgres`` extra).

    ``create=False`` opens an existing database only: a missing file is a NotFoundError and nothing is created.
    ``pool`` sets a server store's connections (default: ``PoolOptions.from_env()``); a file store has none.
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
        return SQLiteStore(path, create=create)
    except NotFoundError as exc:
        if not str(url).startswith("sqlite:///") or Path(path).is_absolute():
            raise
        hint = f"{url} is relative to the current folder; sqlite:////{path} would be the absolute path /{path}"
        raise NotFoundError(f"{exc} ({hint})") from None
