"""The demo tells its story: paging, the search that finds the dog, the quarantined note, the budget arithmetic."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import cast

import pytest
from click.testing import CliRunner
from rich.console import Console

from tiermem.agent.tools import MemoryTools
from tiermem.cli import cli
from tiermem.cli.demo import ARCHIVAL_NOTES, BUDGET, PARAPHRASED, run_demo
from tiermem.context.window import ContextManager
from tiermem.embed import MiniLMEmbedder
from tiermem.memory import Memory
from tiermem.recall.policy import DEFAULT_MIN_RELEVANCE
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import WordCounter
from tiermem.types import Scope

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


@pytest.fixture(scope="module")
def demo_archive() -> Iterator[MemoryTools]:
    """The demo's archival notes, written by its agent's tool, searched with the tools' default floor."""
    memory = Memory.open(":memory:", embedder=MiniLMEmbedder(threads=1))
    scope = Scope("demo", "maya", "atlas", "trip-planning")
    context = ContextManager(cast(StoreWithContext, memory.store), memory, scope, budget=BUDGET, counter=WordCounter())
    tools = MemoryTools(memory, scope, context)
    for note in ARCHIVAL_NOTES:
        tools.dispatch("archival_memory_insert", json.dumps({"content": note}))
    yield tools
    memory.close()


@pytest.mark.slow
@pytest.mark.parametrize("question", sorted(PARAPHRASED))
def test_questions_worded_unlike_the_note_find_it_with_the_floor_on(demo_archive: MemoryTools, question: str) -> None:
    assert demo_archive.min_relevance == DEFAULT_MIN_RELEVANCE
    hits = demo_archive.search_archival(question, 3)
    assert hits and hits[0].record.content == PARAPHRASED[question]
    shown = demo_archive.dispatch("archival_memory_search", json.dumps({"query": question, "k": 3}))
    assert PARAPHRASED[question] in shown and not shown.startswith("no relevant memory")


@pytest.mark.slow
def test_a_question_about_someone_the_demo_never_mentions_still_finds_nothing(demo_archive: MemoryTools) -> None:
    shown = demo_archive.dispatch("archival_memory_search", json.dumps({"query": "what colour is Jonathan's car?"}))
    assert shown.startswith("no relevant memory")
