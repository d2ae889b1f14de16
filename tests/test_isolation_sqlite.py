"""The isolation proofs on the SQLite store (library facade, with the working-context tables)."""

from __future__ import annotations

from isolation_contract import IsolationContract, IsolationTarget
from tiermem.embed import HashingEmbedder
from tiermem.memory import Memory
from tiermem.store import open_store


class TestSQLiteIsolation(IsolationContract):
    def make_target(self) -> IsolationTarget:
        store = open_store(":memory:")
        return IsolationTarget(Memory(store, HashingEmbedder(dim=64)), context=store)
