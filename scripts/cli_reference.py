"""Write docs/cli.md from the command line's own help texts (tests/test_docs.py checks it is current)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tiermem.cli import cli

HEADER = """# Command-line reference

Generated from `tiermem --help` and each command's `--help` by `python scripts/cli_reference.py`; a test fails
when this page and the code disagree. Exit codes: 0 ok, 1 an operation failed, 2 bad input (the message names
the field, the limit and what was given), 3 not found. Stored text is printed with control characters (ESC, BEL,
other C0 and C1 controls) and bidi controls written as escapes (`\\x1b`, `\\u202e`), so a note cannot drive the
terminal; `--json` output escapes them as JSON does.
"""


def _sections(command: click.Command, ctx: click.Context) -> list[str]:
    """Help of ``command`` and of every command below it, each in the context the real CLI gives it."""
    found = [f"## `{ctx.command_path}`\n\n```text\n{command.get_help(ctx).rstrip()}\n```\n"]
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            sub = command.commands[name]
            found += _sections(sub, click.Context(sub, info_name=name, parent=ctx, **sub.context_settings))
    return found


def render() -> str:
    """The whole page."""
    root = click.Context(cli, info_name="tiermem", terminal_width=110, max_content_width=110, **cli.context_settings)
    return "\n".join([HEADER, *_sections(cli, root)])


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
    target.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
