"""Write docs/cli.md from the command line's own help texts (tests/test_docs.py checks it is current)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tiermem.cli import cli

HEADER = """# Command-line reference

Generated from `tiermem --help` and each command's `--help` by `python scripts/cli_reference.py`; a test fails
when this page and the code disagree. Exit codes: 0 ok, 1 an operation failed, 2 bad input (the message names
the field, the limit and what was given), 3 not found.
"""


def _help(command: click.Command, path: list[str]) -> str:
    with click.Context(command, info_name=" ".join(path), terminal_width=110, max_content_width=110) as ctx:
        return command.get_help(ctx)


def _walk(command: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            found += _walk(command.commands[name], [*path, name])
    return found


def render() -> str:
    """The whole page."""
    sections = [HEADER]
    for path, command in _walk(cli, ["tiermem"]):
        sections.append(f"## `{' '.join(path)}`\n\n```text\n{_help(command, path).rstrip()}\n```\n")
    return "\n".join(sections)


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
    target.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
