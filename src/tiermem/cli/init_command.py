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
@click.option(
    "--grant",
    "runtime_role",
    default=None,
    metavar="ROLE",
    help="PostgreSQL: the runtime role `tiermem serve` connects as; given what the service needs and no more.",
)
def init_command(db: str | None, runtime_role: str | None) -> None:
    """Create the database --db names (SQLite), or bring a PostgreSQL schema up to date (as its owner).

    `serve`, `keys` and the reading commands never create a database: a mistyped --db is an error, not a new,
    empty store.
    """
    from tiermem.errors import ConfigError
    from tiermem.store import display_url, is_postgres_url
    from tiermem.store.databases import init_database

    url = db_url(db)
    if runtime_role is not None and not is_postgres_url(url):
        raise ConfigError("--grant names a PostgreSQL role: it needs a postgresql:// --db")
    version = init_database(url, runtime_role=runtime_role)
    granted = f"; {runtime_role} may serve it" if runtime_role is not None else ""
    click.echo(f"{display_url(url)}: schema version {version}{granted}")
