"""(internal) ``tiermem mcp``: the memory tools for an MCP client (an IDE assistant, a desktop app) over stdio.

The client starts this command as its own subprocess, so the process belongs to the local user and the scope
is the one the command line names; the network service (``/mcp`` on the REST server) takes the scope from a
verified credential instead. Standard output carries the protocol only: messages go to standard error.
"""

from __future__ import annotations

import click

from tiermem.cli.database import db_option, open_memory, removed_if_failed
from tiermem.cli.options import embedder_option
from tiermem.errors import ConfigError, ValidationError

__all__ = ["mcp_command"]

_MAX_BLOCK_TOKENS = 100_000


def _blocks(specs: tuple[str, ...]) -> dict[str, int]:
    """``NAME=TOKENS`` pairs as a dict; the cap must be a positive integer."""
    out: dict[str, int] = {}
    for spec in specs:
        name, _, cap = spec.partition("=")
        if not name or not cap.isdigit() or not 1 <= int(cap) <= _MAX_BLOCK_TOKENS:
            raise ValidationError(
                "--block", f"must be NAME=TOKENS with TOKENS from 1 to {_MAX_BLOCK_TOKENS}, e.g. human=200", given=spec
            )
        out[name] = int(cap)
    return out


@click.command("mcp")
@db_option
@click.option("--tenant", default="default", show_default=True, help="Tenant id (scope).")
@click.option("--user", required=True, help="User id (scope): whose memory the client reads and writes.")
@click.option(
    "--agent",
    default=None,
    help="Agent id: notes and core blocks become this agent's. [default: the user's, seen by all agents]",
)
@embedder_option("Embedding model.")
@click.option(
    "--block",
    "blocks",
    multiple=True,
    metavar="NAME=TOKENS",
    help="Create this core block if missing, with a cap in tokens (repeatable), e.g. --block human=200.",
)
def mcp_command(
    db: str | None, tenant: str, user: str, agent: str | None, embedder: str, blocks: tuple[str, ...]
) -> None:
    """Serve the memory tools to an MCP client over stdio, for one user's scope.

    The client starts this command itself: the process is the local user's, so the scope is the one given
    here (the HTTP endpoint of `tiermem serve` takes it from a credential instead). Creates the database if
    missing. Tools: archival_memory_insert, archival_memory_search, conversation_search, forget, and
    core_memory_append and core_memory_replace once a core block exists (--block); core blocks are also
    resources tiermem://core/NAME.
    """
    try:
        import anyio

        from tiermem.server.mcp import build_mcp_server, define_blocks, serve_stdio
    except ModuleNotFoundError as exc:
        missing = f"tiermem mcp needs the server extra ({exc.name} is missing)"
        raise ConfigError(f"{missing}: pip install 'tiermem[server]'") from None
    from tiermem.types import Scope

    scope = Scope(tenant, user, agent)
    wanted = _blocks(blocks)
    with removed_if_failed(db), open_memory(db, embedder, create=True) as mem:
        define_blocks(mem, scope, wanted)
        server = build_mcp_server(mem, lambda _request: scope)
        anyio.run(serve_stdio, server)
