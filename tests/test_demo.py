"""The demo tells its story: paging, the search that finds the dog, the quarantined note, the budget arithmetic."""

from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner
from rich.console import Console

from tiermem.cli import cli
from tiermem.cli.demo import run_demo

KEY_LINES = [
    "is the dog's name ('Pepper') in the compiled prompt? no",
    "paged out to recall:",
    "My dog is called Pepper, a border collie who hates thunderstorms.",  # in the paged-out table
    "role=user, paged out]",  # conversation_search finds the original message
    "agent: Your border collie Pepper stays with your neighbour Luis in Oakland while you travel.",
    "stored as source=tool:web_fetch",
    "tags ['quarantined']",
    "override of earlier instructions: 'ignore all previous instructions'",
    "UNTRUSTED, QUARANTINED (injection score 0.8",
    "M = W - S - K - O - R = 600 tokens for messages; every prompt <= W - O = 1500",
    "M = 5500, 22 turns kept; turn 25 overflows the naive agent (7250 > 7000)",
    "reads 362,250 input tokens against 517,500 keep-everything (30% less)",
]


def _run(embedder: str) -> str:
    out = io.StringIO()
    run_demo(embedder, Console(file=out, width=240, color_system=None))
    return out.getvalue()


def _check(text: str) -> None:
    for line in KEY_LINES:
        assert line in text, f"missing from the demo output: {line!r}"
    # The archival search's top hit names the dog, with its score and source.
    table = text[text.index("scores and sources") :]
    first_row = next(row for row in table.splitlines() if re.match(r"│ \d\.\d{3} ", row))
    assert "Pepper" in first_row and "agent" in first_row


@pytest.mark.slow
def test_the_demo_tells_its_story_with_the_default_embedder() -> None:
    text = _run("minilm")
    _check(text)


def test_the_demo_story_holds_with_the_hashing_embedder_too() -> None:
    text = _run("hash")
    _check(text)


def test_tiermem_demo_runs_from_the_command_line() -> None:
    result = CliRunner().invoke(cli, ["demo", "--embedder", "hash"])
    assert result.exit_code == 0, result.output
    assert "is the dog's name ('Pepper') in the compiled prompt? no" in result.output
