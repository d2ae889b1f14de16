"""(internal) ``tiermem import``: a tiermem export restored, or another memory system's file written through tiermem.

``--from tiermem`` (the default) restores an export into its empty user, all or nothing. ``--from mem0`` and
``--from letta`` read that system's file and write each memory with tiermem's own write calls, so every record is
checked, deduplicated and scanned as any other write is, and importing the same file twice adds nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from tiermem.cli.database import db_option, open_db, open_memory, removed_if_failed
from tiermem.cli.options import embedder_option
from tiermem.errors import ValidationError
from tiermem.jsonl import read_json

__all__ = ["import_command"]

FORMATS = ("tiermem", "mem0", "letta")
_DEFAULT_CORE_BUDGET = 400  # the core budget `tiermem mcp` and `tiermem serve` serve with unless told


def _read(file: str) -> Any:
    try:
        with open(file, encoding="utf-8") as fh:
            return read_json(fh, "file")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValidationError("file", f"cannot be read as JSON: {exc}", given=file) from None


def _emit(counts: dict[str, int], heading: str, as_json: bool, extra: dict[str, Any], key: str = "counts") -> None:
    if as_json:
        click.echo(json.dumps({**extra, key: counts}, ensure_ascii=False, indent=2))
        return
    click.echo(heading)
    width = max((len(name) for name in counts), default=0)
    for name, n in counts.items():
        click.echo(f"  {name:<{width}}  {n}")


def _restore(db: str | None, file: str, embedder: str, vouch: bool, as_json: bool) -> None:
    from tiermem.embed import get_embedder
    from tiermem.lifecycle.export import import_user

    data = _read(file)
    chosen = get_embedder(embedder)
    with removed_if_failed(db):  # all or nothing: a failed import into a new file leaves no file
        store = open_db(db, create=True)
        try:
            report = import_user(store, chosen, data, name=Path(file).stem[:64] or "file", vouched=vouch)
        finally:
            store.close()
    heading = f"restored user {report.user!r} of tenant {report.tenant!r}:"
    _emit(dict(report.restored), heading, as_json, {"tenant": report.tenant, "user": report.user}, "restored")


@click.command("import")
@db_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--from",
    "source",
    type=click.Choice(FORMATS),
    default="tiermem",
    show_default=True,
    help="The file's format: a `tiermem export` file; a Mem0 get_all result (JSON); a Letta Agent File (.af) or "
    "a JSON list of Letta archival passages.",
)
@click.option("--tenant", default=None, help="Tenant to import into (mem0, letta). [default: default]")
@click.option("--user", default=None, help="User to import into (letta: required; mem0: for memories naming none).")
@click.option("--agent", default=None, help="Agent to import into (letta; mem0: for memories naming none).")
@click.option("--session", default=None, help="Session of the imported conversation (letta; mem0: for memories "
              "naming no run). [default (letta): letta]")  # fmt: skip
@click.option(
    "--core-budget",
    type=click.IntRange(min=1),
    default=None,
    help=f"Tokens all core blocks may cost together (letta: the caps are fitted to it). [default: "
    f"{_DEFAULT_CORE_BUDGET}, what `tiermem mcp` and `tiermem serve` serve]",
)
@embedder_option("Embedding model for the imported records.")
@click.option(
    "--vouch",
    is_flag=True,
    help="(tiermem) You vouch for the file: its records keep the source and trust it gives them (else "
    "import:<file name>).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def import_command(
    db: str | None,
    file: str,
    source: str,
    tenant: str | None,
    user: str | None,
    agent: str | None,
    session: str | None,
    core_budget: int | None,
    embedder: str,
    vouch: bool,
    as_json: bool,
) -> None:
    """Import memories: restore a `tiermem export` file, or write a Mem0 or Letta export through tiermem.

    A tiermem export is restored into its (now empty) user, all or nothing; it passes the write gate (a
    credential anywhere refuses it, every record is judged again for injection) and its records are stored as
    from import:<file name> unless you --vouch for the file. A Mem0 or Letta file is checked whole, then each
    memory is stored with tiermem's write calls (source import:mem0 or import:letta); running the same import
    again adds nothing. See docs/migrate.md for how each field maps.
    """
    given = {"--tenant": tenant, "--user": user, "--agent": agent, "--session": session, "--core-budget": core_budget}
    if source == "tiermem":
        named = [name for name, value in given.items() if value is not None]
        if named:
            raise ValidationError(named[0], "is not used with --from tiermem: an export names its own tenant and user")
        _restore(db, file, embedder, vouch, as_json)
        return
    if vouch:
        raise ValidationError("--vouch", "is used with --from tiermem only: Mem0 and Letta records come from import")
    if source == "mem0" and core_budget is not None:
        raise ValidationError("--core-budget", "is used with --from letta only (Mem0 has no core blocks)")
    if source == "letta" and user is None:
        raise ValidationError("--user", "is required with --from letta: whose agent this becomes")
    data = _read(file)
    with removed_if_failed(db), open_memory(db, embedder, create=True) as memory:
        if source == "mem0":
            from tiermem.integrations.mem0_import import Mem0Defaults, import_mem0

            summary = import_mem0(memory, data, Mem0Defaults(tenant or "default", user, agent, session))
        else:
            from tiermem.integrations.letta_import import SESSION, import_letta
            from tiermem.tokens import counter_for_model
            from tiermem.types import Scope

            scope = Scope(tenant or "default", user, agent)
            budget = core_budget or _DEFAULT_CORE_BUDGET
            # Counted as `tiermem mcp` counts core blocks against their caps.
            counter = counter_for_model("gpt-4o")
            summary = import_letta(memory, data, scope, core_budget=budget, counter=counter, session=session or SESSION)
    scopes = [str(s) for s in summary.scopes]
    heading = f"imported {file} ({summary.source}) into {', '.join(scopes) or 'nothing'}:"
    _emit(dict(summary.counts), heading, as_json, {"source": summary.source, "scopes": scopes})
