"""(internal) Store URLs: which backend a URL names, a SQLite URL's file, and a URL as it may be shown."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from tiermem.errors import ConfigError

__all__ = ["display_url", "is_postgres_url", "sqlite_path"]


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
