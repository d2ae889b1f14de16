"""The conformance of ``Store.write_places``: records' places in their user's write order."""

from __future__ import annotations

from store_fixtures import ALICE, BOB, OTHER_TENANT_ALICE, StoreFixture, make_record
from tiermem.store import Store
from tiermem.types import MemoryRecord, Scope

__all__ = ["WriteOrderContract"]


class WriteOrderContract(StoreFixture):
    """Behaviour of ``write_places`` shared by all stores."""

    def written(self, store: Store, *scopes: Scope) -> list[MemoryRecord]:
        records = [make_record(scope, f"line {i} of the talk") for i, scope in enumerate(scopes)]
        for record in records:  # one write each, so each gets its own place in the order
            self.put(store, record)
        return records

    def test_places_count_only_the_users_own_records_written_between(self, store: Store) -> None:
        a1, _b1, a2, _b2, _x, a3 = self.written(store, ALICE, BOB, ALICE, BOB, OTHER_TENANT_ALICE, ALICE)
        found = store.write_places(ALICE, [a3.id, a1.id, a2.id], 5)
        assert found[a2.id] - found[a1.id] == 1
        assert found[a3.id] - found[a2.id] == 1

    def test_places_count_the_users_records_of_any_agent_or_session(self, store: Store) -> None:
        side = Scope("acme", "alice", "planner", "s1")
        a1, _side, a2 = self.written(store, ALICE, side, ALICE)
        found = store.write_places(ALICE, [a1.id, a2.id], 5)
        assert found[a2.id] - found[a1.id] == 2

    def test_places_further_apart_than_the_window_are_only_known_to_be_further(self, store: Store) -> None:
        records = self.written(store, *[ALICE] * 12)
        first, near, last = records[0], records[3], records[11]
        found = store.write_places(ALICE, [first.id, near.id, last.id], 4)
        assert found[near.id] - found[first.id] == 3
        assert found[last.id] - found[near.id] > 4
        wide = store.write_places(ALICE, [first.id, near.id, last.id], 20)
        assert wide[last.id] - wide[first.id] == 11

    def test_a_deleted_record_no_longer_counts_between_two_others(self, store: Store) -> None:
        a1, gone, a2 = self.written(store, ALICE, ALICE, ALICE)
        store.delete(ALICE, [gone.id])
        found = store.write_places(ALICE, [a1.id, a2.id], 5)
        assert found[a2.id] - found[a1.id] == 1

    def test_places_leave_out_ids_of_other_users_and_unknown_ids(self, store: Store) -> None:
        a1, b1 = self.written(store, ALICE, BOB)
        assert set(store.write_places(ALICE, [a1.id, b1.id, "no-such-id"], 5)) == {a1.id}
        assert store.write_places(BOB, [a1.id], 5) == {}
        assert store.write_places(ALICE, [], 5) == {}
