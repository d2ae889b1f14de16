"""The chaos harness (benchmarks/chaos.py) in small, and its checks shown to find each fault planted in a database.

The small run writes through every door on both stores while a server is SIGKILLed on each and the PostgreSQL
postmaster once; the full run and its figures are in docs/benchmarks.md.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from tiermem import Memory, Scope
from tiermem.context.core import CoreMemory
from tiermem.embed import HashingEmbedder
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import counter_for_model

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from chaoslib.checks import check, snapshot  # noqa: E402
from chaoslib.ledger import EditedTo, Erased, Expectation, InBlock, Present  # noqa: E402
from chaoslib.workload import SLOT_PREFIX, TENANT  # noqa: E402


def test_a_small_run_with_kills_on_both_stores_loses_duplicates_and_forks_nothing() -> None:
    command = [
        sys.executable, str(ROOT / "benchmarks" / "chaos.py"), "--json", "--duration", "12", "--servers", "2",
        "--writers", "2", "--server-kills", "2", "--pg-kills", "1", "--retry-for", "15", "--seed", "3",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["findings"] == {}
    assert report["server_processes"] == {"sqlite": 1, "postgres": 2}
    assert sum(n for k, n in report["kills"].items() if "server" in k) == 2 and report["kills"]["SIGKILL postgres"] == 1
    assert min(report["acknowledged_writes"].values()) >= 10, report["acknowledged_writes"]
    doors = {name.split()[0] for name, row in report["operations"].items() if row.get("acked")}
    assert doors == {"rest", "mcp", "cli", "inspector"}, report["operations"]
    for store in ("sqlite", "postgres"):
        assert report["checks"][store]["counts"] == {}


SLOT = "s0"


def _fill(db: Path) -> dict[str, str]:
    """A store as a run leaves it: notes, a superseded fact, a core block, an erased user. The notes' ids."""
    with Memory.open(str(db), embedder=HashingEmbedder()) as memory:
        note = memory.remember(Scope(TENANT, "u0"), "a note of the harness", type="episodic").record
        memory.remember(Scope(TENANT, SLOT), f"{SLOT_PREFIX} tea")
        memory.remember(Scope(TENANT, SLOT), f"{SLOT_PREFIX} now cocoa")
        store = cast(StoreWithContext, memory.store)
        core = CoreMemory(store, Scope(TENANT, "u0", "b0"), counter=counter_for_model("gpt-4o"), budget=400)
        core.define("notes", limit=300)
        core.append("notes", "line one")
        memory.remember(Scope(TENANT, "v0"), "a note of the erased user")
        memory.erase(TENANT, "v0")
    return {"note": note.id}


def _promises(ids: dict[str, str]) -> list[Expectation]:
    return [
        Present("sqlite", "u0", "a note of the harness"),
        Present("sqlite", SLOT, f"{SLOT_PREFIX} now cocoa"),
        InBlock("sqlite", "u0", "b0", "notes", "line one"),
        EditedTo("sqlite", "u0", ids["note"], ("a note of the harness",)),
        Erased("sqlite", "v0"),
    ]


COPY = (
    "INSERT INTO records (id, tenant, user_key, agent, session, type, content, source, source_kind, trust, created_at,"
    " valid_from, content_hash) SELECT 'copy', tenant, user_key, agent, session, type, content, source, source_kind,"
    " trust, created_at, valid_from, content_hash FROM records WHERE id = '{note}';"
    " INSERT INTO audit_log (tenant, user_key, record_id, at, actor, op, version)"
    " SELECT tenant, user_key, 'copy', at, actor, op, version FROM audit_log WHERE record_id = '{note}';"
)
AUDIT_TEXT = "UPDATE audit_log SET after = '{{}}' WHERE user_key = 'v0'"
ERASED_ROW = "INSERT INTO session_bindings (tenant, session, user_key, bound_at) VALUES ('chaos', 's', 'v0', 0)"
# Each fault as SQL, and the kinds of finding it must give (no other).
FAULTS = {
    "a note deleted": ("DELETE FROM records WHERE id = '{note}'", {"lost", "audit gap"}),
    "a block line dropped": ("UPDATE core_blocks SET value = ''", {"lost"}),
    "an edit not stored": ("UPDATE records SET content = 'other' WHERE id = '{note}'", {"lost"}),
    "a text stored twice": (COPY, {"duplicated"}),
    "two current facts": ("UPDATE records SET valid_to = NULL", {"forked"}),
    "a supersession not audited": ("DELETE FROM audit_log WHERE op = 'supersede'", {"audit gap"}),
    "an add not audited": ("DELETE FROM audit_log WHERE record_id = '{note}'", {"audit gap"}),
    "an audited add not stored": (f"DELETE FROM records WHERE content = '{SLOT_PREFIX} tea'", {"audit gap"}),
    "an erased user's row left": (ERASED_ROW, {"erase residue"}),
    "an erased user's audit text left": (AUDIT_TEXT, {"erase residue"}),
}


@pytest.mark.parametrize("fault", ["none", *FAULTS])
def test_the_checks_find_each_fault_planted_in_the_database(fault: str, tmp_path: Path) -> None:
    db = tmp_path / "planted.db"
    ids = _fill(db)
    statement, kinds = FAULTS.get(fault, ("", set()))
    if statement:
        conn = sqlite3.connect(db)
        for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {trigger}")  # they keep the full-text index, which needs the store's code
        conn.executescript(statement.format(**ids))
        conn.close()
    found = check("sqlite", snapshot("sqlite", str(db), ["v0"]), _promises(ids))
    assert set(found.counts) == kinds, (fault, dict(found.examples))
