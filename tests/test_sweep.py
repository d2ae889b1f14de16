"""Retention: default TTLs at write time, and a sweep that deletes rows (records, full text, vectors) for real."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from tiermem import Memory
from tiermem.cli import cli
from tiermem.embed import HashingEmbedder
from tiermem.errors import ValidationError
from tiermem.lifecycle.retention import RetentionPolicy, parse_duration, sweep
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import Filter, MemoryType, Scope, utcnow
from tiermem.write.path import NewMemory, write_many

EMB = HashingEmbedder()
T0 = datetime(2026, 1, 1, tzinfo=UTC)
ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
EPISODIC = MemoryType.EPISODIC


def write(store: SQLiteStore, scope: Scope, *items: NewMemory, now: datetime = T0) -> list[str]:
    return [r.record.id for r in write_many(store, EMB, scope, list(items), now)]


def table_count(store: SQLiteStore, table: str) -> int:
    return int(store.execute(f"SELECT COUNT(*) FROM {table}")[0][0])


def keyword(store: SQLiteStore, scope: Scope, term: str, now: datetime) -> list[str]:
    return [c.id for c in store.keyword_candidates(scope, [term], Filter(), now=now, limit=50)]


def test_default_ttl_is_applied_only_to_writes_that_name_none() -> None:
    store = SQLiteStore(":memory:")
    policy = RetentionPolicy(default_ttl={EPISODIC: timedelta(days=30)})
    results = write_many(
        store,
        EMB,
        ALICE,
        [NewMemory("we met at the cafe", EPISODIC), NewMemory("short", EPISODIC, ttl=60), NewMemory("a fact")],
        T0,
        default_ttl=policy.default_ttl,
    )
    assert [r.record.expires_at for r in results] == [T0 + timedelta(days=30), T0 + timedelta(seconds=60), None]


def test_sweep_deletes_expired_records_with_their_full_text_rows_and_vectors() -> None:
    store = SQLiteStore(":memory:")
    keep = write(store, ALICE, NewMemory("durable note about gardening"), NewMemory("other lasting note"))
    gone = write(
        store,
        ALICE,
        NewMemory("temporary gardening reminder", EPISODIC, ttl=60),
        NewMemory("another short lived thing", EPISODIC, ttl=60),
    )
    gone += write(store, BOB, NewMemory("bob temporary gardening", ttl=60))
    later = T0 + timedelta(minutes=5)
    assert set(keyword(store, ALICE, "gardening", T0)) == {keep[0], gone[0]}

    report = sweep(store, RetentionPolicy(), now=later)

    assert (report.expired, report.over_limit) == (3, 0)
    for table in ("records", "records_fts", "vectors"):
        assert (report.before[table], report.after[table]) == (5, 2), table
    assert report.consistent and report.fts_orphans == report.vector_orphans == 0
    assert table_count(store, "records") == table_count(store, "records_fts_docsize") == table_count(store, "vectors")
    # as_of in the past would show an expired record: only a real delete makes it disappear from every signal
    past = Filter(as_of=T0)
    assert store.get_many(ALICE, gone) == {}
    assert [c.id for c in store.keyword_candidates(ALICE, ["gardening"], past, now=later, limit=9)] == [keep[0]]
    query = EMB.embed_batch(["temporary gardening reminder"])[0]
    near = store.vector_candidates(ALICE, query, EMB.fingerprint, past, now=later, limit=9)
    assert {c.id for c in near} == set(keep)


def test_sweep_records_each_deletion_in_the_audit_log_without_its_text() -> None:
    store = SQLiteStore(":memory:")
    (rid,) = write(store, ALICE, NewMemory("secret plan for the weekend", EPISODIC, ttl=60))
    sweep(store, RetentionPolicy(), now=T0 + timedelta(hours=1))
    entries = store.audit(ALICE, rid)
    assert [e.op for e in entries] == ["add", "expire"]
    assert all(e.before is None and e.after is None for e in entries)
    assert "secret plan" not in json.dumps(store.execute("SELECT * FROM audit_log"))


def test_retention_keeps_the_newest_n_per_user_and_type() -> None:
    store = SQLiteStore(":memory:")
    alice = [
        write(store, ALICE, NewMemory(f"event {i}", EPISODIC, valid_from=T0 + timedelta(hours=i)))[0] for i in range(8)
    ]
    bob = write(store, BOB, *(NewMemory(f"bob event {i}", EPISODIC, dedupe=False) for i in range(3)))
    facts = write(store, ALICE, *(NewMemory(f"fact number {i}", dedupe=False) for i in range(6)))
    policy = RetentionPolicy(keep_last={EPISODIC: 3})

    report = sweep(store, policy, now=T0 + timedelta(days=1))

    assert report.over_limit == 5 and report.consistent
    kept = store.get_many(ALICE, alice + facts)
    assert set(kept) == set(alice[-3:]) | set(facts)  # the newest three events, every fact
    assert set(store.get_many(BOB, bob)) == set(bob)
    assert sweep(store, policy, now=T0 + timedelta(days=1)).over_limit == 0  # idempotent


def test_retention_counts_superseded_records_and_ignores_expired_ones() -> None:
    store = SQLiteStore(":memory:")
    first = write(store, ALICE, NewMemory("I live in Paris"))[0]
    second = write(store, ALICE, NewMemory("I live in Berlin", supersedes=first), now=T0 + timedelta(days=1))[0]
    third = write(store, ALICE, NewMemory("I live in Rome", supersedes=second), now=T0 + timedelta(days=2))[0]
    expiring = write(store, ALICE, NewMemory("passing remark", ttl=60), now=T0 + timedelta(days=3))[0]
    policy = RetentionPolicy(keep_last={MemoryType.SEMANTIC: 2})

    report = sweep(store, policy, now=T0 + timedelta(days=4))

    assert (report.expired, report.over_limit) == (1, 1)
    assert set(store.get_many(ALICE, [first, second, third, expiring])) == {second, third}


def test_swept_text_is_gone_from_the_database_file_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    write(store, ALICE, *(NewMemory(f"filler number {i} of the corpus", dedupe=False) for i in range(200)))
    write(store, ALICE, NewMemory("Qwertyplantedexpiry4471 was here", ttl=60))
    assert store.residue([b"plantedexpiry4471"])  # the test would notice a trace

    report = sweep(store, RetentionPolicy(), now=T0 + timedelta(hours=1))

    assert report.scrubbed and report.expired == 1
    assert store.residue([b"Qwertyplantedexpiry4471", b"qwertyplantedexpiry4471", b"plantedexpiry4471"]) == []
    store.close()


def test_policy_parses_the_cli_forms_and_rejects_bad_ones() -> None:
    policy = RetentionPolicy.parse("episodic=30d, semantic=none", "episodic=1000")
    assert policy.default_ttl == {EPISODIC: timedelta(days=30), MemoryType.SEMANTIC: None}
    assert policy.keep_last == {EPISODIC: 1000}
    assert RetentionPolicy.from_env({"TIERMEM_TTL": "procedural=2w"}).default_ttl == {
        MemoryType.PROCEDURAL: timedelta(weeks=2)
    }
    assert [parse_duration(t) for t in ("90", "90m", "1.5h", "none")] == [
        timedelta(seconds=90),
        timedelta(minutes=90),
        timedelta(minutes=90),
        None,
    ]
    for ttl, keep, message in [
        ("episodic=soon", "", "ttl.episodic: must be a number"),
        ("dreams=1d", "", "type: must be one of"),
        ("", "episodic=-3", "keep_last.episodic: must be a whole number"),
        ("", "episodic", "keep_last: each entry is TYPE=VALUE"),
    ]:
        with pytest.raises(ValidationError, match=message):
            RetentionPolicy.parse(ttl, keep)
    with pytest.raises(ValidationError, match=r"keep_last\.episodic"):
        RetentionPolicy(keep_last={EPISODIC: 0})
    with pytest.raises(ValidationError, match=r"\$TIERMEM_KEEP_LAST\.semantic: must be a whole number"):
        RetentionPolicy.from_env({"TIERMEM_KEEP_LAST": "semantic=many"})


def test_cli_sweep_reports_counts_and_applies_keep_last(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    env = {"TIERMEM_DB": db, "TIERMEM_EMBEDDER": "hash"}
    runner = CliRunner()
    for i in range(4):
        runner.invoke(cli, ["add", "--user", "alice", "--type", "episodic", f"visit number {i}"], env=env)
    result = runner.invoke(cli, ["sweep", "--keep-last", "episodic=1", "--json"], env=env)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["over_limit"] == 3 and data["consistent"]
    assert (data["before"]["records"], data["after"]["records"]) == (4, 1)
    text = runner.invoke(cli, ["sweep"], env=env)
    assert text.exit_code == 0 and "deleted 0 expired and 0 over-limit records" in text.output
    bad = runner.invoke(cli, ["sweep", "--keep-last", "episodic=lots"], env=env)
    assert bad.exit_code == 2 and "keep_last.episodic" in bad.output


def test_refresh_ttl_restarts_the_expiry_of_live_records_that_have_one() -> None:
    with Memory.open(":memory:", embedder=EMB) as memory:
        brief = memory.remember(ALICE, "the parcel arrives on Tuesday", ttl=60).record
        lasting = memory.remember(ALICE, "a note with no expiry").record
        changed = memory.refresh_ttl(ALICE, {brief.id: timedelta(hours=2), lasting.id: timedelta(hours=2)})
        assert [r.id for r in changed] == [brief.id]  # a record without an expiry keeps none
        now = memory.get(ALICE, brief.id)
        assert now.expires_at is not None and now.expires_at - utcnow() > timedelta(minutes=119)
        assert (now.version, now.content) == (brief.version, brief.content)
        assert memory.get(ALICE, lasting.id).expires_at is None
        assert [e.op for e in memory.audit(ALICE, brief.id)] == ["add"]  # not a change of what it says
        assert memory.refresh_ttl(BOB, {brief.id: timedelta(hours=2)}) == []  # another user's id: untouched
        with pytest.raises(ValidationError, match="ttl"):
            memory.refresh_ttl(ALICE, {brief.id: timedelta(0)})


def test_with_embedder_writes_to_the_same_store_with_the_other_embedder() -> None:
    with Memory.open(":memory:", embedder=EMB) as memory:
        plain = memory.with_embedder(None)
        record = plain.remember(ALICE, "written without a vector").record
        assert plain.store is memory.store and plain.policy is memory.policy
        assert memory.get(ALICE, record.id).embedding_model is None
        assert memory.store.vectors_of(ALICE, [record.id]) == {}
