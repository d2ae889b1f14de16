"""The SQLite store against the shared conformance suite, plus what only a file-backed store has."""

from __future__ import annotations

from pathlib import Path

from store_contract import ALICE, StoreContract, make_record
from tiermem.store import Store, StoredItem
from tiermem.store.sqlite import SQLiteStore


class TestSQLiteStore(StoreContract):
    def make_store(self) -> Store:
        return SQLiteStore(":memory:")


def test_migrations_apply_once_and_survive_reopen(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    store = SQLiteStore(path)
    version = store.schema_version()
    store.put_many([StoredItem(make_record(ALICE, "persisted note"), None)])
    store.close()
    again = SQLiteStore(path)
    assert again.schema_version() == version >= 1
    assert again.count(ALICE) == 1
    again.close()


def test_database_uses_wal(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "w.db")
    assert store.execute("PRAGMA journal_mode")[0][0] == "wal"
    store.close()


def test_fts_rows_match_records_after_writes_and_deletes(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "f.db")
    recs = [make_record(ALICE, f"record {i}") for i in range(5)]
    store.put_many([StoredItem(r, None) for r in recs])
    store.delete(ALICE, [recs[0].id, recs[3].id])
    store.execute("INSERT INTO records_fts(records_fts) VALUES('integrity-check')")
    assert store.execute("SELECT COUNT(*) FROM records")[0][0] == 3
    store.close()
