"""(internal) Whole databases by URL: set one up, a throwaway one, a new file removed again, a file's bytes searched.

What commands and tools do to a database as a whole, beside what a store does on its rows; each knows the backends
here, so nothing outside ``store/`` tells a SQLite file from a PostgreSQL schema.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tiermem.errors import ConfigError, ValidationError
from tiermem.store.urls import display_url, is_postgres_url, sqlite_path

__all__ = ["database_file", "database_files_holding", "init_database", "removed_if_failed", "scratch_database"]


def init_database(url: str, *, runtime_role: str | None = None) -> int:
    """Create the SQLite file ``url`` names, or bring a PostgreSQL schema up to date (as its owner) and, with
    ``runtime_role``, give that role what the service needs; the schema version it is at."""
    if runtime_role is not None and not is_postgres_url(url):
        raise ConfigError("a runtime role is a PostgreSQL role: it needs a postgresql:// URL")
    if is_postgres_url(url):
        from tiermem.store.postgres import PostgresStore

        pg = PostgresStore(url)
        try:
            if runtime_role is not None:
                pg.grant_runtime(runtime_role)
            return pg.schema_version()
        finally:
            pg.close()
    from tiermem.store.sqlite import SQLiteStore

    file = SQLiteStore(sqlite_path(url))
    try:
        return file.schema_version()
    finally:
        file.close()


@contextmanager
def scratch_database(url: str | None, prefix: str = "scratch") -> Iterator[str]:
    """The URL of a new, empty database, dropped afterwards: a schema of its own in the PostgreSQL database
    ``url`` names, or (``url`` None) a SQLite file in a temporary folder."""
    if url is None:
        with tempfile.TemporaryDirectory(prefix=f"{prefix}-") as tmp:
            yield f"sqlite:///{Path(tmp) / f'{prefix}.db'}"
        return
    if not is_postgres_url(url):
        raise ConfigError(f"a scratch schema needs a PostgreSQL URL, not {display_url(url)!r}")
    from tiermem.store.postgres.scratch import drop_schema, scratch_url

    scratch = scratch_url(url, prefix)
    try:
        yield scratch
    finally:
        drop_schema(scratch)


def database_file(url: str) -> str | None:
    """The file of the SQLite database ``url`` names; None for a database without files a client can read (a
    server's, ``:memory:``)."""
    if is_postgres_url(url) or sqlite_path(url) == ":memory:":
        return None
    return sqlite_path(url)


def database_files_holding(url: str, text: str) -> list[str]:
    """The files of the SQLite database ``url`` names whose bytes hold ``text`` (UTF-8), read without SQLite:
    the check that an erase left nothing behind. Close every store of it in this process first."""
    from tiermem.store.sqlite.files import find_bytes

    file = database_file(url)
    if file is None:
        raise ValidationError(
            "url", "names a database without files to read (a server's, or :memory:)", given=display_url(url)
        )
    return find_bytes(file, text)


@contextmanager
def removed_if_failed(url: str) -> Iterator[None]:
    """Remove the SQLite file ``url`` names, and the folders made for it, if this block creates it and then fails
    (unless another process has it open, or has stored rows in it meanwhile). A server database is never created, so
    never removed."""
    if is_postgres_url(url):
        yield
        return
    path = sqlite_path(url)
    if path == ":memory:" or Path(path).exists():
        yield
        return
    from tiermem.store.sqlite.files import remove_if_unused

    file = Path(path)
    missing = [d for d in file.absolute().parents if not d.exists()]  # deepest first
    try:
        yield
    except BaseException:
        if remove_if_unused(file):
            for folder in missing:
                try:
                    folder.rmdir()
                except OSError:  # not empty: something else was put there meanwhile
                    break
        raise
