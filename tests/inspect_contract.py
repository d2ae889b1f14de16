"""The reads the web inspector needs, part of the store conformance suite: sessions, tallies, listing without
chat turns, and a rollback that never brings a superseded fact back beside its successor.

Part of StoreContract (``store_contract.py``); a backend supplies ``make_store`` there and runs all of it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from store_fixtures import ALICE, ANY, BOB, EMB, NOW, StoreFixture, make_record
from tiermem.errors import ConflictError
from tiermem.lifecycle.history import rollback
from tiermem.store import Store
from tiermem.types import Filter, MemoryType, Scope, Source, SourceKind
from tiermem.write.path import NewMemory, write_many


class InspectContract(StoreFixture):
    """Sessions, tallies and listings as the inspector reads them; rollback without a fork."""

    def test_sessions_are_listed_latest_first_with_their_agent_count_and_times(self, store: Store) -> None:
        early = make_record(Scope("acme", "alice", "bot", "s1"), "first words", created_at=NOW - timedelta(hours=2))
        later = make_record(Scope("acme", "alice", "bot", "s1"), "more words", created_at=NOW - timedelta(hours=1))
        other = make_record(Scope("acme", "alice", None, "s2"), "other session", created_at=NOW)
        loose = make_record(ALICE, "no session at all")
        bobs = make_record(Scope("acme", "bob", None, "s9"), "bob's session")
        self.put(store, early, later, other, loose, bobs)
        sessions = store.list_sessions(ALICE)
        assert [(s.session, s.agent, s.records) for s in sessions] == [("s2", None, 1), ("s1", "bot", 2)]
        assert sessions[1].first_at == early.created_at and sessions[1].last_at == later.created_at
        assert [s.session for s in store.list_sessions(Scope("acme", "alice", "bot"))] == ["s1"]
        assert [s.session for s in store.list_sessions(ALICE, limit=1)] == ["s2"]
        assert [s.session for s in store.list_sessions(BOB)] == ["s9"]

    def test_tally_counts_live_records_by_type_source_and_trust_in_the_scope_only(self, store: Store) -> None:
        web = Source.parse("web:example.org")
        self.put(
            store,
            make_record(ALICE, "a fact"),
            make_record(ALICE, "another fact"),
            make_record(ALICE, "an event", type=MemoryType.EPISODIC, source=web, trust=web.trust),
            make_record(ALICE, "closed", valid_to=NOW - timedelta(hours=1)),
            make_record(ALICE, "expired", expires_at=NOW - timedelta(hours=1)),
            make_record(BOB, "bob's fact"),
        )
        counts = {(t.type, t.source_kind, t.trust): t.count for t in store.tally(ALICE, now=NOW)}
        assert counts == {
            (MemoryType.SEMANTIC, SourceKind.USER, 0.9): 2,
            (MemoryType.EPISODIC, SourceKind.WEB, web.trust): 1,
        }

    def test_listing_leaves_out_records_holding_a_tag_it_is_told_to(self, store: Store) -> None:
        turn = make_record(ALICE, "hello there", tags=("recall", "role:user"), type=MemoryType.EPISODIC)
        fact = make_record(ALICE, "a fact", tags=("drinks",))
        plain = make_record(ALICE, "an untagged fact")
        self.put(store, turn, fact, plain)
        page = store.list_records(ALICE, ANY, now=NOW, limit=10, cursor=None, without_tags=frozenset({"recall"}))
        assert {r.id for r in page.records} == {fact.id, plain.id}
        both = frozenset({"recall", "drinks"})
        page = store.list_records(ALICE, ANY, now=NOW, limit=10, cursor=None, without_tags=both)
        assert [r.id for r in page.records] == [plain.id]
        tagged = Filter(tags=frozenset({"recall"}))
        assert store.list_records(ALICE, tagged, now=NOW, limit=10, cursor=None, without_tags=both).records == ()

    def test_rollback_of_a_superseded_version_leaves_one_live_fact(self, store: Store) -> None:
        old = write_many(store, EMB, ALICE, [NewMemory("Alice drives a red car")], NOW)[0].record
        new = write_many(
            store, EMB, ALICE, [NewMemory("Alice drives a blue car", supersedes=old.id)], NOW + timedelta(days=1)
        )[0].record
        with pytest.raises(ConflictError, match=new.id):
            rollback(store, EMB, ALICE, old.id, 1, actor="key:k1", now=NOW + timedelta(days=2))
        live = store.list_records(ALICE, ANY, now=NOW + timedelta(days=2), limit=10, cursor=None).records
        assert [r.id for r in live] == [new.id]
        assert [e.op for e in store.audit(ALICE, old.id)] == ["add", "supersede"]  # nothing was written
        store.delete(ALICE, [new.id])  # once the successor is gone, the old fact may come back
        restored = rollback(store, EMB, ALICE, old.id, 1, actor="key:k1", now=NOW + timedelta(days=3))
        assert restored.valid_to is None and restored.version == 3
