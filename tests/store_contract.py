"""The conformance suite every Store backend must pass: subclass StoreContract and provide ``make_store``.

The records, indexes and search are checked here; the audit log, held writes and the maintenance methods
(erase, retention, compaction, export rows) in ``maintenance_contract.py``, which StoreContract includes.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from inspect_contract import InspectContract
from maintenance_contract import MaintenanceContract
from serial_contract import SerialContract
from store_fixtures import (
    ALICE,
    ANY,
    BOB,
    EMB,
    NOW,
    OTHER_TENANT_ALICE,
    StoreFixture,
    item,
    make_record,
)
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConflictError, EmbeddingMismatchError
from tiermem.recall.search import hybrid_recall
from tiermem.store import AuditEntry, PendingWrite, Store, StoredItem
from tiermem.types import Filter, MemoryType, Scope, Source, SourceKind, content_hash
from write_order_contract import WriteOrderContract

__all__ = ["ALICE", "BOB", "EMB", "NOW", "StoreContract", "StoreFixture", "item", "make_record"]


class StoreContract(MaintenanceContract, InspectContract, WriteOrderContract, SerialContract, StoreFixture):
    """Behaviour shared by all stores."""

    def test_put_then_get_round_trips_every_field(self, store: Store) -> None:
        rec = make_record(
            ALICE,
            "Alice likes green tea",
            tags=("drink", "pref"),
            metadata={"n": 1, "x": "y"},
            expires_at=NOW + timedelta(days=3),
            supersedes="abc",
        )
        self.put(store, rec)
        got = store.get(ALICE, rec.id)
        assert got is not None
        assert got.to_json() == rec.to_json()

    def test_get_by_id_never_crosses_user_or_tenant(self, store: Store) -> None:
        rec = make_record(ALICE, "Alice secret diary entry")
        self.put(store, rec)
        assert store.get(BOB, rec.id) is None
        assert store.get(OTHER_TENANT_ALICE, rec.id) is None
        assert store.get_many(BOB, [rec.id]) == {}

    def test_search_never_crosses_user_or_tenant(self, store: Store) -> None:
        self.put(store, make_record(ALICE, "Alice secret diary entry"))
        for scope in (BOB, OTHER_TENANT_ALICE, Scope("acme", None)):
            assert self.keyword(store, scope, "secret", "diary") == []
            assert self.vector(store, scope, "secret diary") == []
            assert store.list_records(scope, Filter(), now=NOW, limit=10, cursor=None).records == ()

    def test_delete_in_another_scope_deletes_nothing(self, store: Store) -> None:
        rec = make_record(ALICE, "keep me")
        self.put(store, rec)
        assert store.delete(BOB, [rec.id]) == 0
        assert store.get(ALICE, rec.id) is not None

    def test_reusing_an_id_from_another_scope_is_a_conflict(self, store: Store) -> None:
        rec = make_record(ALICE, "mine")
        self.put(store, rec)
        with pytest.raises(ConflictError):
            self.put(store, replace(rec, scope=BOB))
        assert store.get(ALICE, rec.id) is not None and store.count(BOB) == 0

    def test_keyword_and_vector_indexes_follow_put_and_delete(self, store: Store) -> None:
        rec = make_record(ALICE, "the zebra crossing near the bakery")
        self.put(store, rec)
        assert self.keyword(store, ALICE, "zebra") == [rec.id]
        assert rec.id in self.vector(store, ALICE, "zebra crossing bakery")
        assert store.delete(ALICE, [rec.id]) == 1
        assert self.keyword(store, ALICE, "zebra") == []
        assert self.vector(store, ALICE, "zebra crossing bakery") == []
        assert store.get(ALICE, rec.id) is None

    def test_reads_pinned_for_a_recall_see_what_was_written_before_and_during_the_pin(self, store: Store) -> None:
        before = make_record(ALICE, "the zebra crossing near the bakery")
        self.put(store, before)
        with store.pinned(ALICE):
            assert self.keyword(store, ALICE, "zebra") == [before.id]
            during = make_record(ALICE, "a second zebra by the harbour")
            self.put(store, during)  # a write inside the pin (its own thread's) is read back at once
            assert sorted(self.keyword(store, ALICE, "zebra")) == sorted([before.id, during.id])
            assert set(store.get_many(ALICE, [before.id, during.id])) == {before.id, during.id}
            with store.pinned(ALICE):  # nested: the outer pin stands
                assert store.get(ALICE, during.id) is not None
        assert store.delete(ALICE, [during.id]) == 1
        with store.pinned(ALICE):
            assert self.keyword(store, ALICE, "zebra") == [before.id]

    def test_replacing_content_reindexes_full_text(self, store: Store) -> None:
        rec = make_record(ALICE, "lives in Seattle")
        self.put(store, rec)
        self.put(store, replace(rec, content="lives in Austin", content_hash=content_hash("lives in Austin")))
        assert self.keyword(store, ALICE, "seattle") == []
        assert self.keyword(store, ALICE, "austin") == [rec.id]
        assert store.count(ALICE) == 1

    def test_expired_and_closed_records_are_hidden_unless_as_of(self, store: Store) -> None:
        live = make_record(ALICE, "tea record live")
        expired = make_record(ALICE, "tea record expired", expires_at=NOW - timedelta(hours=1))
        closed = make_record(ALICE, "tea record closed", valid_to=NOW - timedelta(hours=2))
        self.put(store, live, expired, closed)
        assert set(self.keyword(store, ALICE, "tea")) == {live.id}
        assert set(self.vector(store, ALICE, "tea record")) == {live.id}
        then = Filter(as_of=NOW - timedelta(hours=3))
        assert set(self.keyword(store, ALICE, "tea", f=then)) == {live.id, expired.id, closed.id}
        assert set(self.vector(store, ALICE, "tea record", f=then)) == {live.id, expired.id, closed.id}
        before = Filter(as_of=NOW - timedelta(days=2))  # before any was valid
        assert self.keyword(store, ALICE, "tea", f=before) == []
        assert self.vector(store, ALICE, "tea record", f=before) == []

    def test_filters_apply_to_both_signals(self, store: Store) -> None:
        a = make_record(ALICE, "note about coffee", tags=("x",))
        b = make_record(ALICE, "event about coffee", type=MemoryType.EPISODIC)
        c = make_record(ALICE, "web page about coffee", source=Source.parse("web:http://e.com"), trust=0.3)
        self.put(store, a, b, c)
        cases = {
            Filter(types=frozenset({MemoryType.EPISODIC})): {b.id},
            Filter(sources=frozenset({SourceKind.WEB})): {c.id},
            Filter(tags=frozenset({"x", "nope"})): {a.id},
        }
        for f, want in cases.items():
            assert set(self.keyword(store, ALICE, "coffee", f=f)) == want
            assert set(self.vector(store, ALICE, "about coffee", f=f)) == want

    def test_both_signals_filter_exactly_as_filter_admits(self, store: Store) -> None:
        kinds = [("user", 0.9), ("web:http://e.com", 0.3), ("tool:calc", 0.6)]
        records = [
            make_record(
                ALICE,
                f"coffee note {i}",
                type=list(MemoryType)[i % 3],
                source=Source.parse(kinds[i % 3][0]),
                trust=kinds[i % 3][1],
                tags=(("x",), ("y", "z"), ())[i % 3 if i % 2 else 2],
                valid_from=NOW - timedelta(days=i),
            )
            for i in range(12)
        ]
        self.put(store, *records)
        filters = [
            Filter(types=frozenset({MemoryType.EPISODIC, MemoryType.PROCEDURAL})),
            Filter(sources=frozenset({SourceKind.TOOL})),
            Filter(tags=frozenset({"z", "x"})),
            Filter(time_from=NOW - timedelta(days=7), time_to=NOW - timedelta(days=3)),
            Filter(types=frozenset({records[0].type}), sources=frozenset({SourceKind.USER}), tags=frozenset({"x"})),
        ]
        for f in filters:
            want = {r.id for r in records if f.admits(r)}
            assert set(self.keyword(store, ALICE, "coffee", f=f)) == want, f
            assert set(self.vector(store, ALICE, "coffee note", f=f)) == want, f

    def test_successors_of_several_records_in_one_call_oldest_first_and_scoped(self, store: Store) -> None:
        a, b = make_record(ALICE, "lives in Seattle"), make_record(ALICE, "works at Acme")
        a2 = make_record(ALICE, "moved to Austin", supersedes=a.id, valid_from=NOW - timedelta(hours=2))
        a3 = make_record(ALICE, "moved to Boston", supersedes=a.id, valid_from=NOW - timedelta(hours=1))
        b2 = make_record(ALICE, "works at Globex", supersedes=b.id)
        bob = make_record(BOB, "moved to Paris", supersedes=a.id)
        self.put(store, a, b, a3, a2, b2, bob)
        found = store.successors(ALICE, [a.id, b.id, a2.id])
        assert {k: [r.id for r in v] for k, v in found.items()} == {a.id: [a2.id, a3.id], b.id: [b2.id]}

    def test_successors_read_before_a_write_show_the_record_that_superseded_since(self, store: Store) -> None:
        a = make_record(ALICE, "keeps the spare key by the garden door", valid_from=NOW - timedelta(hours=3))
        b = make_record(
            ALICE, "moved the spare key to the blue bowl", supersedes=a.id, valid_from=NOW - timedelta(hours=2)
        )
        self.put(store, a, b)
        assert [r.id for r in store.successors(ALICE, [a.id, b.id])[a.id]] == [b.id]
        assert b.id not in store.successors(ALICE, [a.id, b.id])
        c = make_record(
            ALICE, "the spare key now sits in the shed", supersedes=b.id, valid_from=NOW - timedelta(hours=1)
        )
        self.put(store, replace(b, valid_to=c.valid_from), c)
        found = store.successors(ALICE, [a.id, b.id])
        assert [r.id for r in found[b.id]] == [c.id]
        assert [(r.id, r.valid_to) for r in found[a.id]] == [(b.id, c.valid_from)]

    def test_successors_in_an_agents_scope_leave_out_other_agents_records_read_for_the_whole_user(
        self, store: Store
    ) -> None:
        planner, booker = Scope("acme", "alice", "planner"), Scope("acme", "alice", "booker")
        a = make_record(planner, "the trip starts in March")
        mine = make_record(planner, "the trip moved to April", supersedes=a.id)
        theirs = make_record(booker, "the trip moved to May", supersedes=a.id)
        self.put(store, a, mine, theirs)
        assert {r.id for r in store.successors(ALICE, [a.id])[a.id]} == {mine.id, theirs.id}
        assert [r.id for r in store.successors(planner, [a.id])[a.id]] == [mine.id]
        assert store.successors(Scope("acme", "alice", "archivist"), [a.id]) == {}
        assert store.successors(BOB, [a.id]) == {}

    def test_recall_credits_a_closed_fact_to_a_version_written_after_the_last_recall(self, store: Store) -> None:
        old = make_record(ALICE, "the spare key hangs by the garden door", valid_from=NOW - timedelta(hours=3))
        mid = make_record(
            ALICE, "spare key moved into the blue bowl", supersedes=old.id, valid_from=NOW - timedelta(hours=2)
        )
        self.put(store, replace(old, valid_to=mid.valid_from), mid)
        question = "Does the spare key hang by the garden door?"

        def credited() -> list[str]:
            hits = hybrid_recall(store, EMB, ALICE, question, k=3, filter_=ANY, now=NOW)
            return [h.record.id for h in hits if h.part("current_version") is not None]

        assert credited() == [mid.id]
        new = make_record(
            ALICE, "the shed holds the spare key now", supersedes=mid.id, valid_from=NOW - timedelta(hours=1)
        )
        self.put(store, replace(mid, valid_to=new.valid_from), new)
        assert credited() == [new.id]

    def test_time_range_filters_on_valid_from(self, store: Store) -> None:
        old = make_record(ALICE, "trip to paris", valid_from=NOW - timedelta(days=30))
        new = make_record(ALICE, "trip to rome", valid_from=NOW - timedelta(days=2))
        self.put(store, old, new)
        f = Filter(time_from=NOW - timedelta(days=5), time_to=NOW)
        assert self.keyword(store, ALICE, "trip", f=f) == [new.id]
        assert self.vector(store, ALICE, "trip", f=f) == [new.id]

    def test_agent_and_session_narrow_when_given(self, store: Store) -> None:
        a1 = make_record(Scope("acme", "alice", "planner"), "plan a trip")
        a2 = make_record(Scope("acme", "alice", "booker", "s1"), "book a trip")
        self.put(store, a1, a2)
        assert set(self.keyword(store, ALICE, "trip")) == {a1.id, a2.id}
        assert self.keyword(store, Scope("acme", "alice", "planner"), "trip") == [a1.id]
        assert self.vector(store, Scope("acme", "alice", "booker", "s1"), "trip") == [a2.id]

    def test_vector_of_another_fingerprint_is_refused(self, store: Store) -> None:
        self.put(store, make_record(ALICE, "first"))
        other = HashingEmbedder(dim=32, name="other")
        rec = make_record(ALICE, "second", embedding_model=other.fingerprint)
        with pytest.raises(EmbeddingMismatchError, match="64-d"):
            store.put_many([StoredItem(rec, other.embed_batch(["second"])[0])])
        assert store.count(ALICE) == 1
        # Another user's scope may use another model.
        store.put_many([StoredItem(replace(rec, scope=BOB), other.embed_batch(["second"])[0])])
        assert store.vector_fingerprint(BOB) == other.fingerprint

    def test_failed_batch_writes_nothing(self, store: Store) -> None:
        good = make_record(ALICE, "good one")
        bad = make_record(ALICE, "bad one", embedding_model="else-64")
        with pytest.raises(EmbeddingMismatchError):
            store.put_many([item(good), StoredItem(bad, np.ones(8, dtype=np.float32))])
        assert store.count() == 0
        assert self.keyword(store, ALICE, "good") == []

    def test_list_pages_newest_first_without_gaps(self, store: Store) -> None:
        recs = [make_record(ALICE, f"note number {i}") for i in range(7)]
        self.put(store, *recs)
        seen: list[str] = []
        cursor = None
        while True:
            page = store.list_records(ALICE, Filter(), now=NOW, limit=3, cursor=cursor)
            seen += [r.id for r in page.records]
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        assert seen == [r.id for r in reversed(recs)]

    def test_find_by_hash_is_exact_scope_and_type(self, store: Store) -> None:
        rec = make_record(ALICE, "same words")
        self.put(store, rec)
        assert list(store.find_by_hash(ALICE, MemoryType.SEMANTIC, [rec.content_hash], now=NOW)) == [rec.content_hash]
        assert store.find_by_hash(BOB, MemoryType.SEMANTIC, [rec.content_hash], now=NOW) == {}
        assert store.find_by_hash(ALICE, MemoryType.EPISODIC, [rec.content_hash], now=NOW) == {}

    def test_find_by_hash_finds_only_the_current_unexpired_copy(self, store: Store) -> None:
        closed = make_record(ALICE, "the gate code is 4411", valid_to=NOW - timedelta(hours=1))
        expired = make_record(ALICE, "the shed key is under the mat", expires_at=NOW - timedelta(seconds=1))
        self.put(store, closed, expired)
        hashes = [closed.content_hash, expired.content_hash]
        assert store.find_by_hash(ALICE, MemoryType.SEMANTIC, hashes, now=NOW) == {}
        assert list(store.find_by_hash(ALICE, MemoryType.SEMANTIC, hashes, now=NOW - timedelta(hours=1))) == [
            expired.content_hash
        ]  # expired later than that moment; the closed copy is never current
        current = make_record(ALICE, "the gate code is 4411")
        self.put(store, current)
        found = store.find_by_hash(ALICE, MemoryType.SEMANTIC, hashes, now=NOW)
        assert {h: r.id for h, r in found.items()} == {closed.content_hash: current.id}

    def test_transaction_rolls_back_every_write(self, store: Store) -> None:
        with pytest.raises(RuntimeError), store.transaction():
            self.put(store, make_record(ALICE, "inside"))
            raise RuntimeError("boom")
        assert store.count() == 0
        assert self.keyword(store, ALICE, "inside") == []
        assert self.vector(store, ALICE, "inside") == []

    def test_vector_search_sees_writes_after_a_cached_search(self, store: Store) -> None:
        first = make_record(ALICE, "apple pie")
        self.put(store, first)
        assert self.vector(store, ALICE, "apple pie") == [first.id]
        second = make_record(ALICE, "apple tart")
        self.put(store, second)
        assert set(self.vector(store, ALICE, "apple")) == {first.id, second.id}

    def test_a_started_vector_search_equals_the_direct_one_also_inside_a_transaction(self, store: Store) -> None:
        first = make_record(ALICE, "apple pie")
        self.put(store, first)
        q = EMB.embed_batch(["apple"])[0]
        direct = store.vector_candidates(ALICE, q, EMB.fingerprint, ANY, now=NOW, limit=5)
        assert store.start_vector_candidates(ALICE, q, EMB.fingerprint, ANY, now=NOW, limit=5).result(30) == direct
        with store.transaction():  # the caller holds the write lock: the search must neither block nor miss a write
            second = make_record(ALICE, "apple tart")
            self.put(store, second)
            started = store.start_vector_candidates(ALICE, q, EMB.fingerprint, ANY, now=NOW, limit=5)
            keyword = self.keyword(store, ALICE, "apple")  # the caller goes on while the scan runs
            assert {c.id for c in started.result(30)} == set(keyword) == {first.id, second.id}

    def test_keyword_terms_with_fts_syntax_are_plain_words(self, store: Store) -> None:
        rec = make_record(ALICE, 'he said "NEAR" and AND or NOT content:x')
        self.put(store, rec)
        for term in ['"', "NEAR", "AND", "content:x", "*", "(", "NOT"]:
            store.keyword_candidates(ALICE, [term], Filter(), now=NOW, limit=5)  # must not raise
        assert self.keyword(store, ALICE, "near") == [rec.id]

    def test_a_record_scores_its_best_passage_in_search_but_is_compared_whole_by_neighbour_lookups(
        self, store: Store
    ) -> None:
        long = make_record(ALICE, "walnut orchard. harbour crane. violin lesson.")
        plain = make_record(ALICE, "violin practice tonight")
        passages = EMB.embed_batch(["walnut orchard.", "harbour crane.", "violin lesson."])
        store.put_many([StoredItem(long, EMB.embed_batch([long.content])[0], passages=passages), item(plain)])
        q = EMB.embed_batch(["violin lesson."])[0]
        found = store.vector_candidates(ALICE, q, EMB.fingerprint, ANY, now=NOW, limit=5)
        assert found[0].id == long.id and found[0].score == pytest.approx(1.0, abs=1e-5)
        own = EMB.embed_batch([long.content])[0]
        assert np.allclose(store.vectors_of(ALICE, [long.id])[long.id], own)
        (whole,) = store.vector_candidates_many(ALICE, q[None, :], EMB.fingerprint, ANY, now=NOW, limit=5)
        assert {c.id: c.score for c in whole}[long.id] == pytest.approx(float(own @ q), abs=1e-5)

    def test_a_new_vector_replaces_the_passages_and_a_metadata_update_keeps_them(self, store: Store) -> None:
        rec = make_record(ALICE, "walnut orchard. harbour crane.")
        passages = EMB.embed_batch(["walnut orchard.", "harbour crane."])
        store.put_many([StoredItem(rec, EMB.embed_batch([rec.content])[0], passages=passages)])
        q = EMB.embed_batch(["harbour crane."])[0]

        def top_score() -> float:
            return store.vector_candidates(ALICE, q, EMB.fingerprint, ANY, now=NOW, limit=1)[0].score

        store.put_many([StoredItem(replace(rec, tags=("port",)), None, keep_vector=True)])
        assert top_score() == pytest.approx(1.0, abs=1e-5)
        moved = replace(rec, content="walnut orchard", content_hash=content_hash("walnut orchard"))
        vector = EMB.embed_batch([moved.content])[0]
        store.put_many([StoredItem(moved, vector)])
        assert top_score() == pytest.approx(float(vector @ q), abs=1e-5) and top_score() < 0.99

    # -- the audit log -------------------------------------------------------------------------------------

    def test_audit_reads_back_oldest_first_per_scope_and_per_record(self, store: Store) -> None:
        first = AuditEntry("r1", NOW, "user", "add", 1, None, {"content": "tea"}, "new")
        second = AuditEntry("r2", NOW + timedelta(seconds=1), "tool:calc", "add", 1, None, {"n": [1, 2]})
        third = AuditEntry("r1", NOW + timedelta(seconds=2), "user", "update", 2, {"content": "tea"}, {"x": None})
        store.append_audit(ALICE, [first, second])
        store.append_audit(BOB, [AuditEntry("r1", NOW, "user", "add", 1, None, {"content": "bob's"})])
        store.append_audit(ALICE, [third])
        got = store.audit(ALICE)
        assert [replace(e, seq=0) for e in got] == [first, second, third]
        assert got[0].seq < got[1].seq < got[2].seq
        assert [replace(e, seq=0) for e in store.audit(ALICE, "r1")] == [first, third]
        assert [e.after for e in store.audit(BOB)] == [{"content": "bob's"}]
        assert store.audit(OTHER_TENANT_ALICE) == [] and store.audit(ALICE, "nope") == []

    def test_audit_limit_keeps_the_oldest_entries(self, store: Store) -> None:
        entries = [AuditEntry(f"r{i}", NOW + timedelta(seconds=i), "user", "add", 1, None, None) for i in range(5)]
        store.append_audit(ALICE, entries)
        assert [e.record_id for e in store.audit(ALICE, limit=2)] == ["r0", "r1"]
        assert len(store.audit(ALICE, "r3", limit=10)) == 1

    def test_audit_appends_roll_back_with_the_transaction(self, store: Store) -> None:
        with pytest.raises(RuntimeError), store.transaction():
            store.append_audit(ALICE, [AuditEntry("r1", NOW, "user", "add", 1, None, None)])
            raise RuntimeError("boom")
        assert store.audit(ALICE) == []

    # -- writes held for approval --------------------------------------------------------------------------

    def test_pending_writes_list_oldest_first_and_are_taken_once(self, store: Store) -> None:
        later = PendingWrite("p2", NOW + timedelta(minutes=1), {"content": "second", "tags": ["a"]}, "untrusted")
        earlier = PendingWrite("p1", NOW, {"content": "first", "n": 1.5}, "untrusted source")
        store.put_pending(ALICE, later)
        store.put_pending(ALICE, earlier)
        assert store.list_pending(ALICE) == [earlier, later]
        assert store.take_pending(ALICE, "p1") == earlier
        assert store.take_pending(ALICE, "p1") is None  # taken twice: the second finds nothing
        assert store.list_pending(ALICE) == [later]

    def test_pending_writes_never_cross_user_or_tenant(self, store: Store) -> None:
        held = PendingWrite("p1", NOW, {"content": "alice's"}, "untrusted")
        store.put_pending(ALICE, held)
        for other in (BOB, OTHER_TENANT_ALICE, Scope("acme", None)):
            assert store.list_pending(other) == []
            assert store.take_pending(other, "p1") is None
        assert store.list_pending(ALICE) == [held]

    # -- scopes ----------------------------------------------------------------------------------------------

    def test_iter_scopes_names_each_tenant_and_user_holding_records_once(self, store: Store) -> None:
        shared = Scope("acme", None)
        self.put(
            store,
            make_record(ALICE, "one"),
            make_record(Scope("acme", "alice", "bot", "s1"), "two"),
            make_record(BOB, "three"),
            make_record(shared, "four"),
            make_record(OTHER_TENANT_ALICE, "five"),
        )
        store.put_pending(Scope("acme", "carol"), PendingWrite("p1", NOW, {}, "held"))  # holds no record
        found = list(store.iter_scopes())
        assert len(found) == len(set(found)) == 4
        assert set(found) == {ALICE, BOB, shared, OTHER_TENANT_ALICE}
        store.delete(BOB, [r.id for r in store.list_records(BOB, ANY, now=NOW, limit=10, cursor=None).records])
        assert set(store.iter_scopes()) == {ALICE, shared, OTHER_TENANT_ALICE}

    # -- the write-behind queue ------------------------------------------------------------------------------

    def test_unindexed_names_records_stored_without_their_vector_in_every_tenant(self, store: Store) -> None:
        waiting = make_record(Scope("acme", "alice", "bot", "s1"), "the greenhouse door sticks in damp weather")
        abroad = make_record(OTHER_TENANT_ALICE, "the ferry leaves at dawn")
        embedded = make_record(BOB, "the bakery opens at seven")
        modelless = make_record(ALICE, "a note kept without any model", embedding_model=None)
        store.put_many([StoredItem(waiting, None), StoredItem(abroad, None), item(embedded)])
        store.put_many([StoredItem(modelless, None)])
        found = store.unindexed()
        # Named by (tenant, user) only: read back through the scoped methods, whatever agent or session wrote it.
        expected = {(ALICE, waiting.id, 1), (OTHER_TENANT_ALICE, abroad.id, 1)}
        assert {(r.scope, r.id, r.version) for r in found} == expected
        assert store.get(found[0].scope, found[0].id) is not None
        assert len(store.unindexed(limit=1)) == 1
        store.put_many([item(waiting)])
        assert [r.id for r in store.unindexed()] == [abroad.id]
        store.delete(OTHER_TENANT_ALICE, [abroad.id])
        assert store.unindexed() == []
