"""(internal) ``--db`` for every command: what it accepts, and opening it without leaving stray files.

Reading commands, ``serve`` and ``keys`` open an existing database only (a missing file is exit 3 and nothing is
created); ``init`` creates one, and the writing commands that create the file (``add``, ``import``) remove it
again when they fail, so a failed first write leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from tiermem.errors import NotFoundError

if TYPE_CHECKING:
    from tiermem.memory import Memory
    from tiermem.store import Store

__all__ = ["DB_HELP", "db_option", "open_db", "open_memory", "removed_if_failed"]

F = TypeVar("F", bound=Callable[..., Any])

DB_HELP = (
    "Database file: a plain path, or a sqlite:/// URL where three slashes start a relative path"
    " (sqlite:///data/x.db is ./data/x.db) and four an absolute one (sqlite:////srv/x.db);"
    " or a PostgreSQL URL, postgresql://user@host/dbname."
    " [default: $TIERMEM_DB, else memory.db in the user data dir]"
)


def db_option(func: F) -> F:
    """``--db`` (or ``$TIERMEM_DB``)."""
    return click.option("--db", envvar="TIERMEM_DB", default=None, metavar="PATH|URL", help=DB_HELP)(func)


def db_url(db: str | None) -> str:
    """What ``--db`` names, or the default database."""
    from tiermem.config import default_db_url

    return db if db is not None else default_db_url()


def open_db(db: str | None, *, create: bool) -> Store:
    """The store ``--db`` names; ``create=False`` (every command but add and import) never creates a file."""
    from tiermem.store import open_store

    try:
        return open_store(db_url(db), create=create)
    except NotFoundError as exc:
        hint = "check --db or $TIERMEM_DB (`tiermem init`, `tiermem add` or `tiermem import` creates a database)"
        raise NotFoundError(f"{exc}; {hint}") from None


def open_memory(db: str | None, embedder: str, *, create: bool) -> Memory:
    """Memory on the ``--db`` store with the named embedder and the default TTLs of ``$TIERMEM_TTL``."""
    import os

    from tiermem.embed import get_embedder
    from tiermem.lifecycle.retention import RetentionPolicy
    from tiermem.memory import Memory

    chosen = get_embedder(embedder)  # a misconfigured embedder is reported before any file is opened
    retention = RetentionPolicy.from_env(os.environ)  # e.g. episodic=30d: writes that give no --ttl
    return Memory(open_db(db, create=create), chosen, retention=retention)


@contextmanager
def removed_if_failed(db: str | None) -> Iterator[None]:
    """Remove the database file, and the folders made for it, if this block creates it and then fails."""
    from tiermem.store.databases import removed_if_failed as removed

    with removed(db_url(db)):
        yield
