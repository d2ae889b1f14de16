"""``tiermem add-messages``: JSON and JSONL transcripts in, only new turns written, errors name line and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from tiermem import Memory, Scope
from tiermem.cli import cli

TURNS = [
    {"role": "user", "name": "Ann", "content": "The seedlings are up.", "created_at": "2024-03-05T09:00:00Z"},
    {"role": "assistant", "content": "Keep them out of direct sun for a week.", "created_at": "2024-03-05T09:01:00Z"},
    {"role": "user", "name": "Ann", "content": "Will do.", "created_at": "2024-03-05T09:02:00Z"},
]


def invoke(db: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), env={"TIERMEM_DB": str(db), "TIERMEM_EMBEDDER": "hash"})


def contents(db: Path, session: str | None = None) -> list[str]:
    with Memory.open(db, embedder=None) as memory:
        records = memory.list(Scope("default", "ann", session=session), limit=100).records
    return [r.content for r in reversed(records)]


def write(path: Path, messages: Any, *, lines: bool = False) -> Path:
    path.write_text("\n".join(json.dumps(m) for m in messages) if lines else json.dumps(messages, indent=2))
    return path


@pytest.mark.parametrize("form", ["list", "object", "jsonl"])
def test_a_transcript_file_is_written_once(tmp_path: Path, form: str) -> None:
    db = tmp_path / "m.db"
    if form == "jsonl":
        path = write(tmp_path / "t.jsonl", TURNS, lines=True)
    else:
        path = write(tmp_path / "t.json", TURNS if form == "list" else {"messages": TURNS, "session": "s1"})
    first = invoke(db, "add-messages", str(path), "--user", "ann", "--json")
    assert first.exit_code == 0, first.output
    assert json.loads(first.output) == {"messages": 3, "sessions": 1, "added": 3, "unchanged": 0}
    again = invoke(db, "add-messages", str(path), "--user", "ann", "--json")
    assert json.loads(again.output)["added"] == 0
    assert contents(db) == ["Ann: The seedlings are up.", "Keep them out of direct sun for a week.", "Ann: Will do."]


def test_appended_turns_are_the_only_ones_added(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    path = write(tmp_path / "t.jsonl", TURNS[:2], lines=True)
    invoke(db, "add-messages", str(path), "--user", "ann", "--session", "s1")
    write(path, TURNS, lines=True)
    result = invoke(db, "add-messages", str(path), "--user", "ann", "--session", "s1")
    assert result.exit_code == 0, result.output
    assert "3 messages in 1 session(s): 1 records added, 2 already stored" in result.output
    assert contents(db, "s1")[-1] == "Ann: Will do."


def test_messages_naming_sessions_go_to_those_sessions(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    path = write(tmp_path / "t.jsonl", [{**TURNS[0], "session": "a"}, TURNS[1]], lines=True)
    result = invoke(db, "add-messages", str(path), "--user", "ann", "--session", "b", "--json")
    assert json.loads(result.output)["sessions"] == 2
    assert contents(db, "a") == ["Ann: The seedlings are up."]
    assert contents(db, "b") == ["Keep them out of direct sun for a week."]


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        ({"content": "no role"}, "line 3, role: is missing"),
        ({"role": "user", "content": "hi", "created_at": "soon"}, "line 3, created_at: must be an ISO 8601 time"),
        ({"role": "gardener", "content": "hi"}, "line 3, role: must be one of"),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_written(tmp_path: Path, bad: dict[str, Any], where: str) -> None:
    db = tmp_path / "m.db"
    path = write(tmp_path / "t.jsonl", [TURNS[0], {**TURNS[1], "session": "other"}, bad], lines=True)
    result = invoke(db, "add-messages", str(path), "--user", "ann")
    assert result.exit_code == 2
    assert f"t.jsonl, {where}" in result.output
    assert not db.exists() or contents(db) == []


def test_a_bad_message_in_a_json_list_is_named_by_its_line(tmp_path: Path) -> None:
    path = write(tmp_path / "t.json", [TURNS[0], {"role": "user", "content": ""}])
    result = invoke(tmp_path / "m.db", "add-messages", str(path), "--user", "ann")
    assert result.exit_code == 2
    assert "t.json, line 8, content: must not be empty" in result.output


def test_a_file_that_is_not_json_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(TURNS[0]) + "\n{not json\n")
    result = invoke(tmp_path / "m.db", "add-messages", str(path), "--user", "ann")
    assert result.exit_code == 2
    assert "t.jsonl, line 2: is not valid JSON" in result.output
