"""The maintenance part of the store conformance suite: erase, retention, compaction and export rows.

Part of StoreContract (``store_contract.py``); a backend supplies ``make_store`` there and runs all of it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from store_fixtures import ALICE, ANY, BOB, EMB, NOW, OTHER_TENANT_ALICE, StoreFixture, item, make_record
from tiermem.errors import ConflictError, StoreError
from tiermem.lifecycle.export import export_user, import_user
from tiermem.lifecycle.retention import RetentionPolicy, sweep
from tiermem.store import AuditEntry, PendingWrite, Store, StoredItem
from tiermem.store.maintenance_base import ROW_COUNTS, FieldKind, Orphans, RecordRef
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope

SHARED = Scope("acme", None)
EPISODIC = MemoryType.EPISODIC


def plant(store: Store, scope: Scope, secret: str) -> list[MemoryRecord]:
    """Records (one without a vector), their audit trail and a held write, each carrying ``secret``."""
    records = [
        make_record(scope, f"my codename is {secret}", metadata={"origin": secret}),
        make_record(Scope(scope.tenant, scope.user, "bot", "s1"), f"user said: call me {secret}", type=EPISODIC),
    ]
    plain = make_record(scope, f"{secret} booking confirmed", embedding_model=None)
    store.put_many([item(r) for r in records] + [StoredItem(plain, None)])
    store.append_audit(
        scope, [AuditEntry(r.id, NOW, f"tool:{secret}", "add", 1, None, r.to_json(), secret) for r in records]
    )
    store.put_pending(scope, PendingWrite(f"p-{secret}", NOW, {"content": secret}, f"untrusted {secret}"))
    return [*records, plain]


class MaintenanceContract(StoreFixture):
    """What lifecycle jobs rely on: deletes that leave nothing behind, retention queries, export rows."""

    # -- purge and audit redaction -------------------------------------------------------------------------

    def test_purge_deletes_with_index_rows_and_only_in_its_scope(self, store: Store) -> None:
        gone, kept = make_record(ALICE, "the walrus note"), make_record(ALICE, "the otter note")
        self.put(store, gone, kept)
        assert store.purge(BOB, [gone.id]) == 0
        assert store.purge(ALICE, [gone.id, "no-such-id"]) == 1
        assert store.get(ALICE, gone.id) is None and store.get(ALICE, kept.id) is not None
        assert self.keyword(store, ALICE, "walrus") == [] and gone.id not in self.vector(store, ALICE, "walrus note")
        assert store.orphans() == Orphans(0, 0)

    def test_redact_audit_strips_content_and_the_supersessions_that_quote_the_record(self, store: Store) -> None:
        gone, older = "a" * 36, "b" * 36  # record ids are 36 characters long
        store.append_audit(ALICE, [AuditEntry(gone, NOW, "web:https://x.test/u", "add", 1, None, {"c": "555-0199"})])
        quoting = AuditEntry(
            older, NOW, "user", "supersede", 2, {"c": "old"}, {"c": "old*"}, f"now 555-0199; by {gone}"
        )
        other = AuditEntry(older, NOW, "user", "update", 3, {"c": "old*"}, {"c": "old**"}, f"merged; by {gone}")
        store.append_audit(ALICE, [quoting, other])
        bob = AuditEntry(gone, NOW, "user", "add", 1, None, {"c": "bob keeps this"}, "bob's")
        store.append_audit(BOB, [bob])

        assert store.redact_audit(ALICE, [gone], detail="redacted", mention_detail="quoted a deleted record") == 1

        (entry,) = store.audit(ALICE, gone)
        assert (entry.before, entry.after, entry.detail, entry.actor, entry.op) == (
            None,
            None,
            "redacted",
            "web",
            "add",
        )
        supersession, update = store.audit(ALICE, older)
        assert supersession.detail == "quoted a deleted record" and supersession.after == {"c": "old*"}
        assert replace(update, seq=0) == other  # only supersessions quote the newer record
        assert [replace(e, seq=0) for e in store.audit(BOB)] == [bob]

    # -- erase ---------------------------------------------------------------------------------------------

    def test_drop_context_lines_removes_them_from_context_index_and_audit_and_keeps_the_rest(
        self, store: Store
    ) -> None:
        quoting = make_record(ALICE, "noted, kept safe", context="my locker code is 4417\nan earlier turn")
        only = make_record(Scope("acme", "alice", "bot", "s1"), "thanks", context="my locker code is 4417")
        near = make_record(ALICE, "the walrus note", context="my locker code is 4417 or so")  # not the whole line
        bob = make_record(BOB, "bob's reply", context="my locker code is 4417")
        self.put(store, quoting, only, near, bob)
        store.append_audit(ALICE, [AuditEntry(quoting.id, NOW, "user", "add", 1, None, quoting.to_json(), "")])
        before = store.vectors_of(ALICE, [quoting.id])[quoting.id]

        assert store.drop_context_lines(ALICE, ["my locker code is 4417", ""]) == 2

        got = store.get_many(ALICE, [quoting.id, only.id, near.id])
        assert got[quoting.id].context == "an earlier turn" and got[only.id].context is None
        assert got[quoting.id].version == quoting.version and got[near.id].context == near.context
        assert store.get(BOB, bob.id).context == bob.context  # type: ignore[union-attr]
        assert self.keyword(store, ALICE, "locker") == [near.id] and self.keyword(store, BOB, "locker") == [bob.id]
        assert self.keyword(store, ALICE, "earlier") == [quoting.id]
        (entry,) = store.audit(ALICE, quoting.id)
        assert entry.after is not None and entry.after["context"] == "an earlier turn"
        assert entry.after["content"] == "noted, kept safe"
        assert (store.vectors_of(ALICE, [quoting.id])[quoting.id] == before).all()  # the context is not embedded
        assert store.drop_context_lines(ALICE, ["my locker code is 4417"]) == 0

    def test_drop_context_lines_finds_lines_of_any_script_and_lines_without_words(self, store: Store) -> None:
        lines = ["Das Café „Müller“ öffnet um 7!", "東京タワーで会いましょう", "¡¿...?!", 'x_y "quoted" (a OR b) *']
        records = [make_record(ALICE, f"reply {i}", context=f"before\n{line}") for i, line in enumerate(lines)]
        kept = make_record(ALICE, "other", context="Das Café Müller öffnet um 8!")
        self.put(store, *records, kept)

        assert [store.drop_context_lines(ALICE, [line]) for line in lines] == [1] * len(lines)  # one by one, as forget

        got = store.get_many(ALICE, [r.id for r in [*records, kept]])
        assert [got[r.id].context for r in records] == ["before"] * len(lines)
        assert got[kept.id].context == kept.context
        assert store.drop_context_lines(ALICE, lines[:1]) == 0

    def test_drop_held_context_lines_takes_them_out_of_the_users_held_writes_only(self, store: Store) -> None:
        line = 'my "locker" code is 4417 \\ Café'  # JSON escapes quotes and backslashes: matched on the decoded text
        quoting = make_record(ALICE, "arm it at night", context=f"{line}\nan earlier turn").to_json()
        held = {
            "p-quoting": quoting,
            "p-only": {**quoting, "context": line},
            "p-near": {**quoting, "context": f"{line} or so"},  # not the whole line
            "p-none": {**quoting, "context": None},
        }
        for pending_id, record in held.items():
            store.put_pending(ALICE, PendingWrite(pending_id, NOW, record, "untrusted"))
        store.put_pending(BOB, PendingWrite("p-bob", NOW, quoting, "untrusted"))

        assert store.drop_held_context_lines(ALICE, [line, ""]) == 2

        got = {p.id: p.record for p in store.list_pending(ALICE)}
        assert got == {
            **held,
            "p-quoting": {**quoting, "context": "an earlier turn"},
            "p-only": {**quoting, "context": None},
        }
        assert [p.record for p in store.list_pending(BOB)] == [quoting]
        assert store.drop_held_context_lines(ALICE, [line]) == 0

    def test_erase_scope_leaves_nothing_of_the_user_and_touches_no_one_else(self, store: Store) -> None:
        mine = plant(store, ALICE, "Zorblax7731")
        for scope, secret in ((BOB, "Bobsecret42"), (SHARED, "Sharedsecret9"), (OTHER_TENANT_ALICE, "Globex55")):
            plant(store, scope, secret)
        store.append_audit(ALICE, [AuditEntry("", NOW, "dpo", "erase", 0, None, None, "one user: records 2")])
        assert self.vector(store, ALICE, "codename")  # a search first: a cache must not outlive the erase
        others = {s: (store.held_rows(s), store.audit(s)) for s in (BOB, SHARED, OTHER_TENANT_ALICE)}

        erased = store.erase_scope("acme", "alice", audit_detail="redacted by erase", keep_ops={"erase"})

        n = len(mine)
        assert (erased.removed["records"], erased.removed["records_fts"], erased.removed["vectors"]) == (n, n, n - 1)
        assert erased.removed["pending_writes"] == 1 and erased.audit_redacted == n - 1
        assert dict(store.held_rows(ALICE)) == dict.fromkeys(store.held_rows(ALICE), 0)
        assert store.count(ALICE) == 0 and store.get_many(ALICE, [r.id for r in mine]) == {}
        assert store.list_pending(ALICE) == [] and store.vector_fingerprint(ALICE) is None
        assert self.keyword(store, ALICE, "codename") == [] and self.vector(store, ALICE, "codename") == []
        trail = store.audit(ALICE)
        assert "zorblax7731" not in json.dumps([e.__repr__() for e in trail]).casefold()
        assert [e.detail for e in trail] == ["redacted by erase"] * (n - 1) + ["one user: records 2"]
        assert all(e.before is None and e.after is None and ":" not in e.actor for e in trail)
        assert {s: (store.held_rows(s), store.audit(s)) for s in others} == others

    def test_erase_scope_of_a_tenant_covers_every_user_and_its_shared_memory(self, store: Store) -> None:
        for scope, secret in ((ALICE, "Zorblax7731"), (BOB, "Bobsecret42"), (SHARED, "Sharedsecret9")):
            plant(store, scope, secret)
        kept = plant(store, OTHER_TENANT_ALICE, "Globex55")
        before = store.held_rows(OTHER_TENANT_ALICE)

        erased = store.erase_scope("acme", None, audit_detail="redacted by erase")

        assert erased.removed["records"] == 9 and erased.removed["pending_writes"] == 3
        for scope in (ALICE, BOB, SHARED):
            assert not any(store.held_rows(scope).values()), scope
            assert all(e.detail == "redacted by erase" for e in store.audit(scope))
        assert store.held_rows(OTHER_TENANT_ALICE) == before
        assert set(store.get_many(OTHER_TENANT_ALICE, [r.id for r in kept])) == {r.id for r in kept}
        assert list(store.iter_scopes()) == [OTHER_TENANT_ALICE]

    # -- compaction ----------------------------------------------------------------------------------------

    def test_compaction_keeps_every_live_row_searchable(self, store: Store) -> None:
        records = [make_record(ALICE, f"kiwi note {i}") for i in range(20)]
        self.put(store, *records)
        store.purge(ALICE, [r.id for r in records[:10]])
        assert store.compact(full=False) is True
        assert store.compact(full=True) is True
        assert store.row_counts()["records"] == store.row_counts()["records_fts"] == 10
        assert set(self.keyword(store, ALICE, "kiwi")) == {r.id for r in records[10:]}
        assert set(self.vector(store, ALICE, "kiwi note")) == {r.id for r in records[10:]}

    def test_full_compaction_inside_a_transaction_is_refused_and_changes_nothing(self, store: Store) -> None:
        self.put(store, make_record(ALICE, "kiwi note"))
        with pytest.raises(StoreError), store.transaction():
            store.purge(ALICE, [r.id for r in store.scope_records(ALICE)])
            store.compact(full=True)
        assert store.count(ALICE) == 1

    # -- retention -----------------------------------------------------------------------------------------

    def test_expired_records_are_named_in_a_scope_or_store_wide(self, store: Store) -> None:
        soon = NOW - timedelta(seconds=1)
        mine = make_record(Scope("acme", "alice", "bot"), "expired note", expires_at=soon, version=3)
        bobs = make_record(BOB, "bob's expired note", expires_at=soon)
        self.put(store, mine, bobs, make_record(ALICE, "live", expires_at=NOW + timedelta(days=1)))
        assert store.expired_records(NOW, ALICE) == [RecordRef(ALICE, mine.id, 3)]
        assert sorted(store.expired_records(NOW), key=lambda r: r.id) == sorted(
            [RecordRef(ALICE, mine.id, 3), RecordRef(BOB, bobs.id, 1)], key=lambda r: r.id
        )
        assert store.expired_records(soon - timedelta(seconds=1)) == []

    def test_over_limit_records_are_the_oldest_beyond_the_newest_n_per_user_and_type(self, store: Store) -> None:
        events = [
            make_record(ALICE, f"event {i}", type=EPISODIC, valid_from=NOW - timedelta(hours=9 - i)) for i in range(5)
        ]
        tied = [make_record(ALICE, f"tied {i}", type=EPISODIC, valid_from=NOW - timedelta(hours=20)) for i in range(2)]
        dead = make_record(ALICE, "expired event", type=EPISODIC, expires_at=NOW - timedelta(hours=1))
        self.put(store, *events, *tied, dead, make_record(ALICE, "a fact"), make_record(BOB, "bob", type=EPISODIC))
        found = store.over_limit_records(EPISODIC, 5, NOW, ALICE)
        # Equal valid_from: the one inserted later counts as newer. Expired records do not count at all.
        assert {r.id for r in found} == {tied[0].id, tied[1].id}
        assert [r.id for r in store.over_limit_records(EPISODIC, 6, NOW)] == [tied[0].id]
        assert store.over_limit_records(MemoryType.SEMANTIC, 1, NOW) == []

    def test_row_counts_and_orphans_follow_writes_and_deletes(self, store: Store) -> None:
        assert tuple(store.row_counts()) == ROW_COUNTS
        with_vectors = [make_record(ALICE, f"note {i}") for i in range(2)]
        plain = make_record(BOB, "plain", embedding_model=None)
        store.put_many([item(r) for r in with_vectors] + [StoredItem(plain, None)])
        store.append_audit(ALICE, [AuditEntry(with_vectors[0].id, NOW, "user", "add", 1, None, None)])
        assert dict(store.row_counts()) == {"records": 3, "records_fts": 3, "vectors": 2, "audit_log": 1}
        store.purge(ALICE, [with_vectors[0].id])
        assert dict(store.row_counts()) == {"records": 2, "records_fts": 2, "vectors": 1, "audit_log": 1}
        assert store.orphans() == Orphans(0, 0)

    def test_sweep_deletes_expired_rows_for_real(self, store: Store) -> None:
        gone = make_record(ALICE, "temporary walrus reminder", expires_at=NOW + timedelta(minutes=1))
        kept = make_record(ALICE, "lasting walrus fact")
        self.put(store, gone, kept)
        later = NOW + timedelta(hours=1)

        report = sweep(store, RetentionPolicy(), now=later)

        assert report.expired == 1 and report.consistent and report.scrubbed
        assert (report.before["records"], report.after["records"]) == (2, 1)
        assert store.get(ALICE, gone.id) is None  # not hidden: gone, as_of in the past shows nothing either
        past = Filter(as_of=NOW)
        found = store.keyword_candidates(ALICE, ["walrus"], past, now=later, limit=5)
        assert [c.id for c in found] == [kept.id]
        assert [e.op for e in store.audit(ALICE, gone.id)] == ["expire"]

    # -- export rows ---------------------------------------------------------------------------------------

    def test_held_rows_and_scope_records_cover_exactly_one_tenant_and_user(self, store: Store) -> None:
        mine = plant(store, ALICE, "Zorblax7731")
        plant(store, SHARED, "Sharedsecret9")
        closed = make_record(ALICE, "closed", valid_to=NOW - timedelta(days=1), expires_at=NOW - timedelta(hours=1))
        self.put(store, closed)
        held = store.held_rows(ALICE)
        assert (held["records"], held["records_fts"], held["pending_writes"]) == (4, 4, 1)
        assert "audit_log" not in held
        assert {r.id for r in store.scope_records(ALICE)} == {r.id for r in mine} | {closed.id}
        assert {r.id for r in store.scope_records(SHARED)}.isdisjoint(r.id for r in mine)
        assert not any(store.held_rows(Scope("acme", "nobody")).values())

    def test_held_scopes_name_every_user_holding_any_row_not_only_records(self, store: Store) -> None:
        self.put(store, make_record(ALICE, "a note"))
        store.append_audit(BOB, [AuditEntry("c" * 36, NOW, "user", "add", 1, None, None)])
        store.put_pending(OTHER_TENANT_ALICE, PendingWrite("p-1", NOW, {"content": "x"}, "untrusted"))
        store.put_pending(SHARED, PendingWrite("p-2", NOW, {"content": "y"}, "untrusted"))
        assert store.held_scopes() == [SHARED, ALICE, BOB, OTHER_TENANT_ALICE]

    def test_stored_vectors_are_each_records_vector_and_passages_as_stored_in_its_scope_only(
        self, store: Store
    ) -> None:
        long, plain = make_record(ALICE, "walnut orchard. harbour crane."), make_record(ALICE, "violin practice")
        bare = make_record(ALICE, "no vector here", embedding_model=None)
        passages = EMB.embed_batch(["walnut orchard.", "harbour crane."])
        own = EMB.embed_batch([long.content])[0]
        store.put_many([StoredItem(long, own, passages=passages), item(plain), StoredItem(bare, None)])
        held = store.stored_vectors(ALICE, [long.id, plain.id, bare.id, "no-such-id"])
        assert set(held) == {long.id, plain.id}
        parts = held[long.id][1]
        assert np.array_equal(held[long.id][0], own) and parts is not None and np.array_equal(parts, passages)
        assert np.array_equal(held[plain.id][0], EMB.embed_batch([plain.content])[0]) and held[plain.id][1] is None
        assert store.stored_vectors(BOB, [long.id, plain.id]) == {}

    def test_export_rows_name_their_fields_and_import_into_an_empty_store(
        self, store: Store, empty_store: Store
    ) -> None:
        plant(store, ALICE, "Zorblax7731")
        kinds = {f.name: f.kind for f in store.row_fields("audit_log")}
        assert (kinds["at"], kinds["after"], kinds["record_id"]) == (FieldKind.TIME, FieldKind.JSON, FieldKind.TEXT)
        assert {f.name for f in store.row_fields("pending_writes") if f.required} >= {"record", "reason"}
        for table in ("audit_log", "pending_writes"):
            rows = store.export_rows(ALICE, table)
            assert rows and all("tenant" not in r and "user_key" not in r for r in rows)
            assert empty_store.import_rows(ALICE, table, rows) == len(rows)
            assert empty_store.export_rows(ALICE, table) == rows
            assert empty_store.export_rows(BOB, table) == []
        assert empty_store.export_rows(ALICE, "audit_log")[0]["at"] == NOW
        with pytest.raises(ConflictError):
            empty_store.import_rows(ALICE, "pending_writes", store.export_rows(ALICE, "pending_writes"))

    def test_export_then_import_into_an_empty_store_round_trips(self, store: Store, empty_store: Store) -> None:
        plant(store, ALICE, "Zorblax7731")
        plant(store, BOB, "Bobsecret42")
        self.put(store, make_record(ALICE, "an expired note", expires_at=NOW - timedelta(days=1)))
        first = export_user(store, ALICE, now=NOW)
        assert len(first["records"]) == 4 and len(first["audit"]) == 2 and len(first["pending"]) == 1

        report = import_user(empty_store, EMB, json.loads(json.dumps(first)), vouched=True)

        assert report.restored["records"] == 4
        second = export_user(empty_store, ALICE, now=NOW + timedelta(hours=1))
        assert {k: v for k, v in second.items() if k != "exported_at"} == {
            k: v for k, v in first.items() if k != "exported_at"
        }
        assert empty_store.count(BOB) == 0
        assert self.keyword(empty_store, ALICE, "codename") and self.vector(empty_store, ALICE, "codename")
        assert store.list_records(ALICE, ANY, now=NOW, limit=10, cursor=None).records  # the source is untouched
