"""The command line: `tiermem COMMAND` (edge layer: formats output, maps errors to exit codes)."""

from tiermem.cli.main import cli, main

__all__ = ["cli", "main"]
