"""Forgetting a message also takes the lines the summariser quoted of it out of core memory and its edits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from context_window_helpers import SCOPE, manager, text
from tiermem.cli import cli
from tiermem.context.forgetting import FORGET_ACTOR
from tiermem.context.messages import Message
from tiermem.context.summary import ExtractiveSummariser, without_sentences
from tiermem.context.window import ContextManager
from tiermem.lifecycle.retention import RetentionPolicy
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.store.context_base import StoreWithContext
from tiermem.store.sqlite import find_bytes
from tiermem.types import MemoryType

SECRET = "Quindlebrook"
SAID = [f"My gym locker is number 31 at {SECRET} Fitness.", "I work as a nurse at the city hospital."]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "m.db"


@pytest.fixture
def store(path: Path) -> Iterator[StoreWithContext]:
    store = open_store(path)
    yield store
    store.close()


def _summarising(store: StoreWithContext) -> ContextManager:
    ctx = manager(store, summariser=ExtractiveSummariser())
    if "summary" not in ctx.core:
        ctx.core.define("summary", limit=120)
    return ctx


def _push_out(ctx: ContextManager, start: int, count: int = 12) -> None:
    for i in range(start, start + count):  # long replies push what the user said out of the window
        ctx.append(Message.assistant(text(i, 60)))


def _say(ctx: ContextManager, *, summarised: bool) -> None:
    """The user's two messages, then (``summarised``) replies enough to page them out into the summary."""
    for line in SAID:
        ctx.append(Message.user(line))
    if summarised:
        _push_out(ctx, 0)
        assert SECRET in ctx.core.get("summary").value


def _secret_id(store: StoreWithContext) -> str:
    """The record id of the message that holds SECRET."""
    (record,) = [r for r in store.scope_records(SCOPE) if SECRET in r.content]
    return record.id


def test_forget_takes_a_summarised_message_out_of_the_summary_block_and_its_edits(
    store: StoreWithContext, path: Path
) -> None:
    ctx = _summarising(store)
    _say(ctx, summarised=True)
    secret_id = _secret_id(store)

    Memory(store, None).forget(SCOPE, secret_id, scrub_file=True)

    summary = _summarising(store).core.get("summary")
    assert SECRET not in summary.value and "user: I work as a nurse" in summary.value
    edits = store.core_block_edits(SCOPE, "summary")
    assert (edits[0].op, edits[0].actor, edits[0].version) == ("redact", FORGET_ACTOR, summary.version)
    assert not any(SECRET in f"{e.before} {e.after}" for e in edits)
    assert SECRET not in json.dumps(Memory(store, None).export(SCOPE), default=str)
    store.compact(full=True)
    assert store.residue([SECRET.encode()]) == []


def test_a_running_window_summarises_onto_the_redacted_block_after_a_forget(store: StoreWithContext) -> None:
    ctx = _summarising(store)
    _say(ctx, summarised=True)
    secret_id = _secret_id(store)
    Memory(store, None).forget(SCOPE, secret_id)

    ctx.append(Message.user("My brother Tomas lives in Porto now."))
    _push_out(ctx, 20)  # the window saves a new summary over the block the forget changed

    summary = ctx.core.get("summary").value
    assert SECRET not in summary and "Tomas lives in Porto" in summary and "I work as a nurse" in summary


def test_a_message_forgotten_while_in_the_window_is_not_summarised(store: StoreWithContext) -> None:
    ctx = _summarising(store)
    _say(ctx, summarised=False)
    secret_id = _secret_id(store)
    Memory(store, None).forget(SCOPE, secret_id)

    _push_out(ctx, 0)

    summary = ctx.core.get("summary").value
    assert SECRET not in summary and "I work as a nurse" in summary


def test_sweep_takes_deleted_messages_out_of_the_summary_block(path: Path) -> None:
    store = open_store(path)
    ctx = _summarising(store)
    _say(ctx, summarised=True)
    keep_newest = RetentionPolicy(keep_last={MemoryType.EPISODIC: 12})  # the user's two messages are the oldest
    with Memory(store, None, retention=keep_newest) as memory:
        report = memory.sweep()
    assert report.over_limit == 2
    reopened = open_store(path)
    assert SECRET not in _summarising(reopened).core.get("summary").value
    reopened.close()
    assert find_bytes(path, SECRET) == []


def test_forget_leaves_core_lines_that_do_not_quote_the_message(store: StoreWithContext) -> None:
    ctx = _summarising(store)
    ctx.core.define("human", limit=60)
    ctx.core.append("human", f"- [2026-06-01] user: {SAID[0][:-1]} and more.")  # not the summariser's line
    ctx.core.append("human", f"Works out at {SECRET}.")
    _say(ctx, summarised=False)
    secret_id = _secret_id(store)

    Memory(store, None).forget(SCOPE, secret_id)

    assert _summarising(store).core.get("human").value == ctx.core.get("human").value


def test_without_sentences_drops_quoting_lines_and_cut_starts_only() -> None:
    summary = "\n".join(
        [
            "- [2026-06-01] user: I moved to Lisbon in 2021.",
            "- [2026-06-01] assistant: I moved to Lisbon",  # a cut start of four words
            "- [2026-06-02] user: I moved",  # too short a start to say whose it is
            "I moved to Lisbon in 2021.",  # not a summary line
            "- [2026-06-02] user: My daughter turns 7 in March.",
        ]
    )
    kept = without_sentences(summary, ["i moved to lisbon in 2021.", "unrelated."])
    assert kept.split("\n") == [
        "- [2026-06-02] user: I moved",
        "I moved to Lisbon in 2021.",
        "- [2026-06-02] user: My daughter turns 7 in March.",
    ]
    assert without_sentences(summary, []) == summary


def test_forget_finds_the_summary_line_of_a_named_speakers_message(store: StoreWithContext) -> None:
    ctx = _summarising(store)
    ctx.append(Message.user(SAID[0], name="Ann"))  # stored as "Ann: My gym locker ...", summarised without it
    _push_out(ctx, 0)
    assert SECRET in ctx.core.get("summary").value
    (record,) = [r for r in store.scope_records(SCOPE) if SECRET in r.content]
    assert record.content.startswith("Ann: ")

    Memory(store, None).forget(SCOPE, record.id)

    assert SECRET not in _summarising(store).core.get("summary").value


def test_cli_sweep_takes_deleted_messages_out_of_the_summary_block(path: Path) -> None:
    store = open_store(path)
    ctx = _summarising(store)
    _say(ctx, summarised=True)
    store.close()

    result = CliRunner().invoke(cli, ["sweep", "--db", str(path), "--keep-last", "episodic=12", "--json"])

    assert result.exit_code == 0, result.output
    reopened = open_store(path)
    assert SECRET not in _summarising(reopened).core.get("summary").value
    reopened.close()
