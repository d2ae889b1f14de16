"""Forget and erase remove every trace: rows, full-text index, vectors, context, audit text, and the file's bytes."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from pg_fixtures import PgServer
from tiermem.cli import cli
from tiermem.embed import Embedder, HashingEmbedder, MiniLMEmbedder
from tiermem.errors import NotFoundError, StoreError
from tiermem.lifecycle.erase import erase, forget
from tiermem.store import open_store
from tiermem.store.base import Store
from tiermem.store.context_base import BlockEdit, CoreBlock, StoreWithContext, WindowState
from tiermem.store.sqlite import find_bytes
from tiermem.types import Filter, MemoryType, Scope, new_id
from tiermem.write.path import NewMemory, write_many

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
SECRET = "Zorblax7731Quintessa"
HASH = HashingEmbedder()


def needles(secret: str) -> list[str]:
    """The secret, its case-folded form, and every 8-character window of that (the full-text index stores
    tokens lower-cased and prefix-compressed, so only a part of a token may appear verbatim)."""
    low = secret.casefold()
    return [secret, low, *(low[i : i + 8] for i in range(len(low) - 7))]


def left(store: Store, *texts: str) -> list[bytes]:
    """Which of the texts' needles are still in the database's files (read by the store's child process)."""
    found = store.residue([n.encode() for text in texts for n in needles(text)])
    assert found is not None
    return found


def populate(store: StoreWithContext, embedder: Embedder, scope: Scope, secret: str) -> int:
    """Put ``secret`` everywhere a user's data lives; returns the number of records written."""
    agent = Scope(scope.tenant, scope.user, "bot")
    old = write_many(store, embedder, scope, [NewMemory(f"I live in {secret} town")], NOW)[0].record
    items = [
        NewMemory(f"My codename is {secret}", metadata={"origin": secret}, tags=["profile"]),
        NewMemory(f"I moved to Rome from {secret}", supersedes=old.id),
        NewMemory(f"user said: call me {secret} tomorrow", MemoryType.EPISODIC, tags=["recall"], dedupe=False),
        NewMemory(f"{secret} booking confirmed", MemoryType.EPISODIC, source=f"tool:{secret}-calendar"),
        NewMemory(f"always greet {secret} warmly", MemoryType.PROCEDURAL, source=f"web:https://x.test/{secret}"),
    ]
    results = write_many(store, embedder, scope, items, NOW + timedelta(minutes=1))
    block = CoreBlock("human", 200, f"Name: {secret}", version=1, updated_at=NOW)
    edit = BlockEdit(new_id(), "human", "agent", NOW, "append", "", block.value, 1)
    store.save_core_block(agent, block, expected_version=0, edit=edit)
    ids = tuple(r.record.id for r in results)
    store.save_context_window(Scope(scope.tenant, scope.user, "bot", "s1"), WindowState(ids, ids[0], NOW))
    return 1 + sum(r.status.value != "pending" for r in results)


@pytest.mark.slow
def test_erase_user_leaves_no_byte_of_a_planted_string_and_keeps_other_users(tmp_path: Path) -> None:
    path = tmp_path / "e.db"
    minilm = MiniLMEmbedder()
    store = open_store(path)
    n_alice = populate(store, minilm, ALICE, SECRET)
    populate(store, minilm, BOB, "Bobsecret4242Varnish")
    query = minilm.embed_batch([f"what is my codename {SECRET}"])[0]
    assert store.vector_candidates(ALICE, query, minilm.fingerprint, Filter(), now=NOW, limit=5)  # caches vectors
    assert left(store, SECRET)  # the check below can see a trace

    report = erase(store, "acme", "alice", now=NOW)

    assert report.scrubbed
    assert ("acme", "alice") not in store._vectors  # no decoded vectors of Alice left in this process
    assert report.removed["records"] == report.removed["records_fts"] == report.removed["vectors"] == n_alice
    expected = {"core_blocks": 1, "core_block_edits": 1, "context_windows": 1, "pending_writes": 1}
    assert {t: report.removed[t] for t in expected} == expected
    assert left(store, SECRET) == []
    # Bob is untouched and still searchable by both signals.
    assert store.count(BOB) == n_alice
    assert store.keyword_candidates(BOB, ["codename"], Filter(), now=NOW, limit=5)
    assert store.vector_candidates(BOB, query, minilm.fingerprint, Filter(), now=NOW, limit=5)
    assert store.vector_candidates(ALICE, query, minilm.fingerprint, Filter(), now=NOW, limit=5) == []
    store.close()
    assert find_bytes(path, SECRET.casefold()) == []


def test_erase_redacts_the_audit_log_and_records_that_it_happened(tmp_path: Path) -> None:
    store = open_store(tmp_path / "a.db")
    populate(store, HASH, ALICE, SECRET)
    before = len(store.audit(ALICE))
    report = erase(store, "acme", "alice", now=NOW, actor="dpo")
    entries = store.audit(ALICE)
    assert len(entries) == before + 1 and report.audit_redacted == before
    assert all(e.before is None and e.after is None for e in entries)
    assert all(e.detail == "redacted by erase" for e in entries[:-1])
    assert all(":" not in e.actor for e in entries)  # 'tool:<name>' and 'web:<url>' lose their detail
    last = entries[-1]
    assert (last.op, last.actor, last.record_id) == ("erase", "dpo", "")
    assert SECRET.casefold() not in json.dumps(store.execute("SELECT * FROM audit_log")).casefold()
    assert store.execute("SELECT n FROM scope_generations WHERE tenant = 'acme' AND user_key = 'alice'") == [(0,)]
    store.close()


def test_erase_tenant_covers_every_user_and_shared_memory_but_no_other_tenant(tmp_path: Path) -> None:
    store = open_store(tmp_path / "t.db")
    populate(store, HASH, ALICE, SECRET)
    populate(store, HASH, BOB, "Bobsecret4242Varnish")
    populate(store, HASH, Scope("acme", None), "Sharedsecret99")
    other = Scope("globex", "alice")
    kept = populate(store, HASH, other, "Globexsecret55")
    report = erase(store, "acme", now=NOW)
    assert report.user is None and report.removed["core_blocks"] == 3
    for table in ("records", "vectors", "core_blocks", "core_block_edits", "context_windows", "pending_writes"):
        assert store.execute(f"SELECT COUNT(*) FROM {table} WHERE tenant = 'acme'") == [(0,)], table
    assert store.count(other) == kept and store.load_core_blocks(Scope("globex", "alice", "bot"))
    assert left(store, SECRET, "Bobsecret4242Varnish", "Sharedsecret99") == []
    assert store.residue([b"Globexsecret55"]) == [b"Globexsecret55"]
    store.close()


def test_erase_finds_a_scoped_table_added_by_a_later_migration(tmp_path: Path) -> None:
    store = open_store(tmp_path / "l.db")
    store.execute("CREATE TABLE later_notes (tenant TEXT NOT NULL, user_key TEXT NOT NULL, body TEXT)")
    store.execute("INSERT INTO later_notes VALUES ('acme', 'alice', ?), ('acme', 'bob', 'keep')", [SECRET])
    report = erase(store, "acme", "alice", now=NOW)
    assert report.removed["later_notes"] == 1
    assert store.execute("SELECT user_key, body FROM later_notes") == [("bob", "keep")]
    store.close()


def test_erase_inside_an_open_transaction_fails_and_erases_nothing(tmp_path: Path) -> None:
    store = open_store(tmp_path / "x.db")
    n = populate(store, HASH, ALICE, SECRET)
    with pytest.raises(StoreError, match="VACUUM"), store.transaction():
        erase(store, "acme", "alice", now=NOW)
    assert store.count(ALICE) == n and store.load_core_blocks(Scope("acme", "alice", "bot"))
    store.close()


def test_plain_delete_leaves_the_text_in_the_file_and_forget_does_not(tmp_path: Path) -> None:
    path = tmp_path / "f.db"
    store = open_store(path)
    filler = [NewMemory(f"filler line {i} of the corpus", dedupe=False) for i in range(100)]
    write_many(store, HASH, ALICE, filler, NOW)
    first, second = (
        r.record
        for r in write_many(store, HASH, ALICE, [NewMemory(SECRET + " one"), NewMemory("Plumtree8830 two")], NOW)
    )
    store.delete(ALICE, [first.id])  # what Store.delete alone does
    assert store.residue([SECRET.encode()])  # still in the audit log's JSON (and in the WAL)

    with pytest.raises(NotFoundError):
        forget(store, BOB, second.id, now=NOW)  # another user's id is not found
    forget(store, ALICE, second.id, now=NOW, scrub_file=True)

    assert store.get(ALICE, second.id) is None
    assert [e.op for e in store.audit(ALICE, second.id)] == ["add", "forget"]
    assert all(e.after is None for e in store.audit(ALICE, second.id))
    assert left(store, "Plumtree8830") == []
    store.close()


def test_cli_erase_asks_first_prints_counts_and_verifies(tmp_path: Path) -> None:
    env = {"TIERMEM_DB": str(tmp_path / "cli.db"), "TIERMEM_EMBEDDER": "hash"}
    runner = CliRunner()
    for text in (f"my name is {SECRET}", "I like tea"):
        assert runner.invoke(cli, ["add", "--tenant", "acme", "--user", "alice", text], env=env).exit_code == 0
    declined = runner.invoke(cli, ["erase", "--tenant", "acme", "--user", "alice"], env=env, input="n\n")
    assert declined.exit_code == 1 and "Erase everything held about user 'alice'" in declined.output
    listed = runner.invoke(cli, ["list", "--tenant", "acme", "--user", "alice", "--json"], env=env)
    assert len(json.loads(listed.output)["records"]) == 2

    args = ["erase", "--tenant", "acme", "--user", "alice", "--yes", "--verify", SECRET]
    result = runner.invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    assert re.search(r"records\s+2\n", result.output) and re.search(r"audit_log \(redacted\)\s+2", result.output)
    assert f"verify '{SECRET}': not found" in result.output
    again = runner.invoke(cli, [*args, "--json"], env=env)
    assert json.loads(again.output)["removed"]["records"] == 0  # idempotent

    missing = runner.invoke(cli, ["erase", "--user", "alice", "--yes"], env=env)
    assert missing.exit_code == 2 and "--tenant" in missing.output
    bad = runner.invoke(cli, ["erase", "--tenant", "acme", "--user", "a/b", "--yes"], env=env)
    assert bad.exit_code == 2 and "user: may hold only" in bad.output and "Traceback" not in bad.output


def test_forget_also_blanks_the_supersession_note_that_quotes_the_forgotten_record(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    store = open_store(path)
    old = write_many(store, HASH, ALICE, [NewMemory("Dana locker number is 48213")], NOW)[0].record
    new = write_many(store, HASH, ALICE, [NewMemory("Dana locker number is 99173645")], NOW)[0]
    assert new.superseded == (old.id,)
    assert "99173645" in store.audit(ALICE, old.id)[-1].detail  # the reason quotes the new value

    forget(store, ALICE, new.record.id, now=NOW, scrub_file=True)

    old_trail = store.audit(ALICE, old.id)
    assert old_trail[-1].detail == "superseded by a record since deleted"
    assert old_trail[-1].after is not None  # the older record keeps its own history
    assert store.residue([b"99173645"]) == []
    store.close()


def test_cli_erase_verify_on_a_server_database_is_refused_before_anything_is_erased(pg_server: PgServer) -> None:
    env = {"TIERMEM_DB": pg_server.schema_url("verify"), "TIERMEM_EMBEDDER": "hash"}
    runner = CliRunner()
    added = runner.invoke(cli, ["add", "--tenant", "acme", "--user", "alice", f"my name is {SECRET}"], env=env)
    assert added.exit_code == 0, added.output
    refused = runner.invoke(cli, ["erase", "--tenant", "acme", "--user", "alice", "--yes", "--verify", SECRET], env=env)
    assert refused.exit_code == 2 and "--verify" in refused.output and "sweep --vacuum" in refused.output
    listed = runner.invoke(cli, ["list", "--tenant", "acme", "--user", "alice", "--json"], env=env)
    assert len(json.loads(listed.output)["records"]) == 1
