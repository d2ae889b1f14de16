"""A command that creates a database file and then fails removes it again, but never under another process.

Two commands started at once on a file not there yet (``tiermem import`` and ``tiermem add``, two ``tiermem mcp``
servers of one client) share the file the first one created. Had the failing one removed it while the other had
it open, the other's acknowledged writes went to an unlinked file and were lost.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tiermem.embed import HashingEmbedder
from tiermem.errors import ValidationError
from tiermem.memory import Memory
from tiermem.store.databases import removed_if_failed
from tiermem.types import Scope

ANN = Scope("acme", "ann")

# Opens the file (creating it), says so, waits for a line on stdin, then writes a note and prints its id.
_OTHER_PROCESS = textwrap.dedent(
    """
    import sys
    from tiermem.embed import HashingEmbedder
    from tiermem.memory import Memory
    from tiermem.types import Scope
    with Memory.open(sys.argv[1], embedder=HashingEmbedder(dim=64)) as memory:
        print("open", flush=True)
        sys.stdin.readline()
        print(memory.remember(Scope("acme", "ann"), "The kestrel nests by the quarry.").record.id, flush=True)
    """
)


def _other_process(db: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", _OTHER_PROCESS, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": ":".join(sys.path)},
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "open"
    return child


def test_a_failed_first_write_leaves_a_file_another_process_has_open(tmp_path: Path) -> None:
    db = tmp_path / "new" / "memory.db"
    child: subprocess.Popen[str] | None = None
    with pytest.raises(ValidationError), removed_if_failed(str(db)):
        child = _other_process(db)  # it creates the file this block was to create, and holds it open
        raise ValidationError("file", "is not an export")
    assert child is not None and child.stdin is not None and child.stdout is not None
    out, _ = child.communicate("go\n", timeout=60)
    assert child.returncode == 0
    with Memory.open(str(db), embedder=HashingEmbedder(dim=64)) as memory:
        assert memory.get(ANN, out.strip()).content == "The kestrel nests by the quarry."


def test_a_failed_first_write_still_removes_the_file_nobody_else_opened(tmp_path: Path) -> None:
    db = tmp_path / "new" / "memory.db"
    with pytest.raises(ValidationError), removed_if_failed(str(db)):
        Memory.open(str(db), embedder=HashingEmbedder(dim=64)).close()
        raise ValidationError("file", "is not an export")
    assert not (tmp_path / "new").exists()
