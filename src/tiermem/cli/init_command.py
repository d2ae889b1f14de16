"""(internal) ``tiermem init``: make a database, the one command besides ``add`` and ``import`` that creates one.

On SQLite it creates the file (and its folders) with its tables. On PostgreSQL, run as the role that owns the
schema, it applies the migrations and, with ``--grant``, gives the service's runtime role exactly the privileges it
needs (docs/postgres.md, "Two roles"). Run again after an upgrade: what is done already is left as it is.
"""

from __future__ import annotations

import click

from tiermem.cli.database import db_option, db_url

__all__ = ["init_command"]


@click.command("init")
@db_option
def init_command(db: str | None) -> None:
    """Create the database --db names (SQLite), or bring a PostgreSQL schema up to date (as its owner).

    `serve`, `keys` and the reading commands never create a database: a mistyped --db is an error, not a new,
    empty store.
    """
    from tiermem.store import display_url, open_store

    url = db_url(db)
    store = open_store(url, create=True)
    try:
        version = int(store.schema_version())  # type: ignore[attr-defined]  # both stores have it, not the protocol
    finally:
        store.close()
    click.echo(f"{display_url(url)}: schema version {version}")
