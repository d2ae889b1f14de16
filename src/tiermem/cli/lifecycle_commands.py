"""(internal) ``tiermem sweep`` and ``erase``: retention and erasure at the command line.

The store and the embedder are imported inside the commands so ``tiermem --help`` stays fast; tiermem errors
reach the main group, which maps them to a one-line message and an exit code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import click

from tiermem.cli.database import db_option, db_url, open_db
from tiermem.cli.render import emit_json, say
from tiermem.errors import StoreError, ValidationError

__all__ = ["erase_command", "sweep_command"]

F = TypeVar("F", bound=Callable[..., Any])


def _json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def _rows(counts: Mapping[str, int]) -> str:
    width = max((len(name) for name in counts), default=0)
    return "\n".join(f"  {name:<{width}}  {n}" for name, n in counts.items())


@click.command("sweep")
@db_option
@click.option(
    "--keep-last",
    default="",
    envvar="TIERMEM_KEEP_LAST",
    metavar="TYPE=N,...",
    help="Keep only the newest N records of a type per user, e.g. episodic=1000 [$TIERMEM_KEEP_LAST].",
)
@click.option("--vacuum", is_flag=True, help="Also rebuild the full-text index and VACUUM the file (slower).")
@_json_option
def sweep_command(db: str | None, keep_last: str, vacuum: bool, as_json: bool) -> None:
    """Delete expired records and records over the retention limits (text, full-text index and vectors)."""
    from tiermem.lifecycle.retention import RetentionPolicy
    from tiermem.memory import Memory

    policy = RetentionPolicy.parse(keep_last=keep_last)
    store = open_db(db, create=False)  # any store: sweep goes through the maintenance protocol
    try:
        # Memory.sweep, not lifecycle's: it also takes deleted messages out of the summary core blocks.
        report = Memory(store, None, retention=policy).sweep(vacuum=vacuum)
    finally:
        store.close()
    if as_json:
        emit_json(
            {
                "at": report.at.isoformat(),
                "expired": report.expired,
                "over_limit": report.over_limit,
                "before": dict(report.before),
                "after": dict(report.after),
                "consistent": report.consistent,
                "scrubbed": report.scrubbed,
            }
        )
    else:
        click.echo(f"deleted {report.expired} expired and {report.over_limit} over-limit records")
        width = max(len(name) for name in report.before)
        click.echo(f"  {'table':<{width}}  before  after")
        for name, n in report.before.items():
            click.echo(f"  {name:<{width}}  {n:>6}  {report.after[name]:>5}")
    if not report.consistent:
        raise StoreError(
            f"the indexes disagree with the records after the sweep: {report.fts_orphans} full-text and "
            f"{report.vector_orphans} vector rows without a record, {report.after['records_fts']} full-text rows "
            f"for {report.after['records']} records"
        )
    if not report.scrubbed:
        click.echo("warning: another connection kept the WAL from being truncated; run sweep again later", err=True)


@click.command("erase")
@db_option
@click.option("--tenant", required=True, help="Tenant to erase (all of it unless --user is given).")
@click.option("--user", default=None, help="Only this user of the tenant.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--verify",
    "verify",
    multiple=True,
    metavar="TEXT",
    help="Afterwards, check that TEXT occurs nowhere in the database files (repeatable).",
)
@_json_option
def erase_command(
    db: str | None, tenant: str, user: str | None, yes: bool, verify: tuple[str, ...], as_json: bool
) -> None:
    """Erase every trace of a user or a whole tenant, redact the audit log, and scrub the database file."""
    from tiermem.lifecycle.erase import erase
    from tiermem.store.databases import database_file, database_files_holding
    from tiermem.types import Scope, utcnow

    Scope(tenant, user)  # a bad name, or a missing database, is reported before the prompt
    whom = f"user {user!r} of tenant {tenant!r}" if user else f"the whole tenant {tenant!r} (every user)"
    store = open_db(db, create=False)
    try:
        if verify and database_file(db_url(db)) is None:  # refused before anything is erased
            raise ValidationError(
                "--verify", "reads the database files, which only a SQLite file has; on a server, sweep --vacuum"
            )
        if not yes:
            click.confirm(f"Erase everything held about {whom}? This cannot be undone", abort=True, err=True)
        report = erase(store, tenant, user, now=utcnow(), actor="cli")
    finally:
        store.close()
    # Checked after close: closing checkpoints the WAL of the last connection.
    leaks = {text: database_files_holding(db_url(db), text) for text in verify}
    if as_json:
        emit_json(
            {
                "tenant": tenant,
                "user": user,
                "removed": dict(report.removed),
                "audit_redacted": report.audit_redacted,
                "scrubbed": report.scrubbed,
                "verified": {text: not files for text, files in leaks.items()},
            }
        )
    else:
        click.echo(f"erased {whom}; rows removed per table:")
        click.echo(_rows({**report.removed, "audit_log (redacted)": report.audit_redacted}))
        for text in leaks:
            say(f"verify {text!r}: {'FOUND in ' + ', '.join(leaks[text]) if leaks[text] else 'not found'}")
    if not report.scrubbed:
        raise StoreError("erased, but another connection kept the WAL from being truncated: run erase again")
    found = [text for text, files in leaks.items() if files]
    if found:
        raise StoreError(f"erased, but the database files still contain {found!r}")
