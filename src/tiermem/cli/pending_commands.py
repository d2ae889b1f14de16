"""(internal) ``tiermem pending list|approve|reject``: writes held for approval (procedural notes from tools, web)."""

from __future__ import annotations

import click

from tiermem.cli.database import open_memory
from tiermem.cli.options import scope_of, store_options
from tiermem.cli.render import emit_json, report_done, say

__all__ = ["pending_group"]


@click.group("pending")
def pending_group() -> None:
    """Review writes held for approval: list them, then approve (store) or reject (drop) each."""


@pending_group.command("list")
@store_options
def list_pending(db: str | None, tenant: str, user: str, embedder: str, as_json: bool) -> None:
    """List a user's held writes, oldest first, with why each was held."""
    with open_memory(db, embedder, create=False) as mem:
        pending = mem.pending(scope_of(tenant, user))
    if as_json:
        emit_json(
            [
                {"id": p.id, "created_at": p.created_at.isoformat(), "reason": p.reason, "record": p.record}
                for p in pending
            ]
        )
        return
    from rich.console import Console

    from tiermem.cli.render import pending_table

    Console().print(pending_table(pending, f"{len(pending)} held writes"))


@pending_group.command("approve")
@store_options
@click.argument("pending_id")
def approve(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, pending_id: str) -> None:
    """Store a held write through the write path: it keeps its source and trust; the approver is recorded."""
    from tiermem.cli.render import write_lines

    with open_memory(db, embedder, create=False) as mem:
        result = mem.approve(scope_of(tenant, user), pending_id, actor="cli")
    if as_json:
        emit_json({"approved": pending_id, **result.to_json()})
        return
    click.echo(f"approved {pending_id}")
    for line in write_lines(result):
        say(line)


@pending_group.command("reject")
@store_options
@click.argument("pending_id")
def reject(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, pending_id: str) -> None:
    """Drop a held write; nothing is stored."""
    with open_memory(db, embedder, create=False) as mem:
        mem.reject(scope_of(tenant, user), pending_id)
    report_done(as_json, "rejected", pending_id)
