"""The SQLite context store against the shared conformance suite, plus what only a file-backed store has."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from at_once import at_once
from context_contract import ALICE_BOT, ALICE_BOT_S1, LEASE, NOW, ContextStoreContract, save
from tiermem.store import open_store
from tiermem.store.context_base import CoreBlock, StoreWithContext, WindowState
from tiermem.store.sqlite import SQLiteStore


class TestSQLiteContextStore(ContextStoreContract):
    def make_store(self) -> StoreWithContext:
        return open_store(":memory:")


def test_context_tables_are_created_by_migration_0002(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    assert store.schema_version() >= 2
    tables = {name for (name,) in store.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"core_blocks", "core_block_edits", "context_windows"} <= tables
    store.close()


def test_blocks_and_windows_survive_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    store = open_store(path)
    block = CoreBlock("human", 100, "Name: Alice", version=1, updated_at=NOW)
    save(store, ALICE_BOT, block, 0)
    store.save_context_window(ALICE_BOT_S1, WindowState(("r1", "r2"), "r0", NOW, "rev"))
    store.close()
    again = open_store(path)
    assert again.load_core_blocks(ALICE_BOT) == [block]
    assert again.load_context_window(ALICE_BOT_S1) == WindowState(("r1", "r2"), "r0", NOW, "rev")
    again.close()


def test_of_two_processes_taking_one_sessions_lease_at_once_one_gets_it(tmp_path: Path) -> None:
    stores = [open_store(tmp_path / "l.db") for _ in range(2)]  # two connections: what two processes hold
    won: list[int] = []

    def take(i: int) -> None:
        if stores[i].acquire_turn_lease(ALICE_BOT_S1, f"h{i}", duration=LEASE):  # type: ignore[attr-defined]
            won.append(i)

    try:
        at_once(partial(take, 0), partial(take, 1))
        assert len(won) == 1, won
    finally:
        for store in stores:
            store.close()
