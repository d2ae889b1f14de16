"""The SQLite store passes the AccessStore contract (keys and session bindings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from access_contract import AccessContract
from tiermem.store.sqlite import SQLiteStore


class TestSQLiteAccess(AccessContract):
    @pytest.fixture(autouse=True)
    def _folder(self, tmp_path: Path) -> None:
        self.folder = tmp_path

    def make_store(self) -> SQLiteStore:
        return SQLiteStore(self.folder / "access.db")
