"""The Mem0 and Letta imports are doors too: the write gate refuses a credential and keeps a hostile note safe."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from doors import CREDENTIAL, HOSTILE, holds_credential, hostile_is_kept_safely, hostile_was_stored
from tiermem.cli import cli
from tiermem.memory import Memory
from tiermem.types import Scope

ANN = Scope("acme", "ann")


def _mem0(text: str) -> Any:
    return {"results": [{"id": "m-1", "memory": text, "created_at": "2025-01-02T03:04:05+00:00", "user_id": "ann"}]}


def _letta_passages(text: str) -> Any:
    return [{"id": "passage-1", "text": text, "created_at": "2025-01-02T03:04:05+00:00", "tags": []}]


def _letta_blocks(text: str) -> Any:
    block = {"id": "block-0", "label": "human", "value": text, "limit": 400}
    return {"agents": [{"name": "a", "id": "agent-0", "block_ids": ["block-0"], "messages": []}], "blocks": [block]}


FORMATS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "mem0": ("mem0", _mem0),
    "letta passages": ("letta", _letta_passages),
}


@pytest.mark.parametrize("case", sorted(FORMATS))
def test_an_import_refuses_a_credential_and_quarantines_a_hostile_note(tmp_path: Path, case: str) -> None:
    source, make = FORMATS[case]
    db = tmp_path / "i.db"

    def run(text: str) -> Any:
        path = tmp_path / f"{abs(hash(text))}.json"
        path.write_text(json.dumps(make(text)), encoding="utf-8")
        args = ["import", "--db", str(db), "--embedder", "hash", "--from", source, "--tenant", "acme", "--user", "ann"]
        return CliRunner().invoke(cli, [*args, str(path)])

    refused = run(f"key {CREDENTIAL}")
    assert refused.exit_code == 2 and "AWS" in refused.output, refused.output
    taken = run(HOSTILE)
    assert taken.exit_code == 0, taken.output
    with Memory.open(db, embedder="hash") as memory:
        assert not holds_credential(memory.store, ANN)
        assert hostile_was_stored(memory.store, ANN) and hostile_is_kept_safely(memory.store, ANN)


def test_a_letta_block_refuses_a_credential_and_a_hostile_text(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    for text, kind in ((f"key {CREDENTIAL}", "AWS"), (HOSTILE, "instructions")):
        path = tmp_path / "agent.af"
        path.write_text(json.dumps(_letta_blocks(text)), encoding="utf-8")
        args = ["import", "--db", str(db), "--embedder", "hash", "--from", "letta", "--tenant", "acme", "--user", "ann"]
        result = CliRunner().invoke(cli, [*args, str(path)])
        assert result.exit_code == 2 and kind in result.output, result.output
    with Memory.open(db, embedder="hash") as memory:
        assert not holds_credential(memory.store, ANN) and hostile_is_kept_safely(memory.store, ANN)
