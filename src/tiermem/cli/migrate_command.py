"""(internal) ``tiermem migrate``: copy a whole store into another (SQLite to PostgreSQL, or back), verified."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from tiermem.types import Scope

__all__ = ["migrate_command"]


@click.command("migrate")
@click.option("--from", "source_url", required=True, metavar="URL", help="The store to copy (a path or a URL).")
@click.option("--to", "target_url", required=True, metavar="URL", help="The store to copy into (created if new).")
@click.option("--batch", default=500, show_default=True, type=click.IntRange(1, 10_000), help="Records per insert.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def migrate_command(source_url: str, target_url: str, batch: int, as_json: bool) -> None:
    """Copy every record (with its history and vectors), core block, context window, audit entry and held write.

    Each user is copied in one transaction and then checked: the same rows per table and the same checksum on
    both sides. Run it again after an interruption: users already copied are verified and skipped.
    """
    from tiermem.lifecycle.migrate import migrate_store
    from tiermem.store import open_store

    source = open_store(source_url, create=False)
    try:
        target = open_store(target_url, create=True)
        try:
            with _bar() as (on_scope, on_rows):
                report = migrate_store(source, target, batch=batch, on_scope=on_scope, on_rows=on_rows)
        finally:
            target.close()
    finally:
        source.close()
    skipped = sum(s.skipped for s in report.scopes)
    if as_json:
        payload = {
            "scopes": len(report.scopes),
            "skipped": skipped,
            "copied": dict(report.copied),
            "verified": [
                {"tenant": s.scope.tenant, "user": s.scope.user, "rows": dict(s.rows), "sha256": s.checksum}
                for s in report.scopes
            ],
        }
        click.echo(json.dumps(payload, indent=2))
        return
    click.echo(f"copied {len(report.scopes) - skipped} users ({skipped} already there, verified); rows per table:")
    for table, n in report.copied.items():
        click.echo(f"  {table:<17} {n}")
    click.echo("every user verified: same rows and checksum in both stores")


@contextmanager
def _bar() -> Iterator[tuple[Callable[[Scope, int], None] | None, Callable[[int], None] | None]]:
    """A rich progress bar per user on a terminal (stderr); no callbacks otherwise."""
    if not sys.stderr.isatty():
        yield None, None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("migrating", total=None)

        def on_scope(scope: Scope, rows: int) -> None:
            progress.update(task, description=f"{scope.tenant}/{scope.user or ''}", total=rows, completed=0)

        def on_rows(n: int) -> None:
            progress.advance(task, n)

        yield on_scope, on_rows
