"""Export holds everything about a user; import restores it into an empty scope; the round trip is exact."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tiermem.cli import cli
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConflictError, ValidationError
from tiermem.lifecycle.erase import erase
from tiermem.lifecycle.export import FORMAT, NOT_EXPORTED, SECTIONS, export_user, import_user
from tiermem.store import open_store
from tiermem.store.context_base import BlockEdit, CoreBlock, StoreWithContext, WindowState
from tiermem.store.sqlite.maintenance import scoped_tables
from tiermem.types import Filter, MemoryType, Scope, new_id
from tiermem.write.path import NewMemory, write_many

EMB = HashingEmbedder()
NOW = datetime(2026, 4, 1, 8, 30, 15, 123456, tzinfo=UTC)
ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")


def populate(store: StoreWithContext, scope: Scope) -> None:
    """A user with every kind of row: live, expired, superseded and merged records, held writes, core blocks,
    their edits, a context window and the audit trail all of that leaves."""
    paris = write_many(store, EMB, scope, [NewMemory("I live in Paris", tags=["home"])], NOW)[0].record
    later = NOW + timedelta(days=1)
    items = [
        NewMemory("I live in Lyon now", supersedes=paris.id, metadata={"confidence": 0.9, "checked": True}),
        NewMemory("dentist at nine", MemoryType.EPISODIC, ttl=60, source="tool:calendar"),
        NewMemory("user: hello there", MemoryType.EPISODIC, tags=["recall"], dedupe=False),
        NewMemory("answer in French", MemoryType.PROCEDURAL, source="web:https://example.test/tips"),
        NewMemory("Ünïcödé note — with “quotes”", valid_from=NOW - timedelta(days=400)),
    ]
    results = write_many(store, EMB, scope, items, later)
    write_many(store, EMB, scope, [NewMemory("i live in lyon now")], later)  # a duplicate: no new row
    agent = Scope(scope.tenant, scope.user, "bot")
    block = CoreBlock("human", 100, "Name: Alice", "who the user is", False, 1, NOW)
    store.save_core_block(
        agent,
        block,
        expected_version=0,
        edit=BlockEdit(new_id(), "human", "agent", NOW, "create", None, block.value, 1),
    )
    edited = CoreBlock("human", 100, "Name: Alice; lives in Lyon", "who the user is", False, 2, later)
    edit = BlockEdit(new_id(), "human", "agent", later, "append", block.value, edited.value, 2)
    store.save_core_block(agent, edited, expected_version=1, edit=edit)
    ids = tuple(r.record.id for r in results)
    store.save_context_window(Scope(scope.tenant, scope.user, "bot", "s1"), WindowState(ids, ids[1], later))


def without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "exported_at"}


def test_export_import_export_round_trips_exactly(tmp_path: Path) -> None:
    source = open_store(tmp_path / "a.db")
    populate(source, ALICE)
    populate(source, BOB)
    first = export_user(source, ALICE, now=NOW)
    assert first["format"] == FORMAT and first["user"] == "alice"
    assert {s: len(first[s]) for s in SECTIONS} == {
        "core_blocks": 1,
        "core_block_edits": 2,
        "context_windows": 1,
        "audit": 6,  # five adds and one supersession; the held write is not stored yet
        "pending": 1,
    }
    assert len(first["records"]) == 5  # the superseded and the (soon) expired record included
    assert all("vector" not in r and r["embedding_model"] == EMB.fingerprint for r in first["records"])

    target = open_store(tmp_path / "b.db")
    report = import_user(target, EMB, json.loads(json.dumps(first)), vouched=True)  # through JSON text, as a file would
    second = export_user(target, ALICE, now=NOW + timedelta(hours=1))

    assert report.restored["records"] == 5 and report.restored["audit"] == 6
    assert without_time(second) == without_time(first)
    assert second["exported_at"] != first["exported_at"]
    assert target.count(BOB) == 0
    # Restored records are indexed for both signals again.
    assert target.keyword_candidates(ALICE, ["lyon"], Filter(), now=NOW + timedelta(days=2), limit=5)
    query = EMB.embed_batch(["where do I live"])[0]
    assert target.vector_candidates(ALICE, query, EMB.fingerprint, Filter(), now=NOW + timedelta(days=2), limit=5)
    source.close()
    target.close()


def test_import_refuses_a_scope_that_holds_data_and_writes_nothing(tmp_path: Path) -> None:
    store = open_store(tmp_path / "c.db")
    populate(store, ALICE)
    data = export_user(store, ALICE, now=NOW)
    before = export_user(store, ALICE, now=NOW)
    with pytest.raises(ConflictError, match=r"scope acme/alice// is not empty \(records 5"):
        import_user(store, EMB, data)
    assert without_time(export_user(store, ALICE, now=NOW)) == without_time(before)
    store.close()


def test_import_after_erase_restores_the_user_next_to_the_erase_entry(tmp_path: Path) -> None:
    store = open_store(tmp_path / "d.db")
    populate(store, ALICE)
    data = export_user(store, ALICE, now=NOW)
    erase(store, "acme", "alice", now=NOW)
    import_user(store, EMB, data, vouched=True)
    again = export_user(store, ALICE, now=NOW)
    assert again["records"] == data["records"] and again["core_blocks"] == data["core_blocks"]
    n = len(data["audit"])
    assert [e["op"] for e in again["audit"]][-n - 1 :] == ["erase", *(e["op"] for e in data["audit"])]
    store.close()


def test_a_failed_import_writes_nothing(tmp_path: Path) -> None:
    source = open_store(tmp_path / "e.db")
    populate(source, ALICE)
    data = export_user(source, ALICE, now=NOW)
    data["core_block_edits"][1]["id"] = data["core_block_edits"][0]["id"]  # a duplicate primary key, found late
    target = open_store(tmp_path / "f.db")
    with pytest.raises(ConflictError, match="nothing was written"):
        import_user(target, EMB, data)
    assert target.execute("SELECT (SELECT COUNT(*) FROM records) + (SELECT COUNT(*) FROM core_blocks)") == [(0,)]
    source.close()
    target.close()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other/2"), "format: must be 'tiermem-export/1'"),
        (lambda d: d.update(user="a/b"), "user: may hold only"),
        (lambda d: d["records"][0].pop("content"), r"records\[0\]: is not a valid record"),
        (lambda d: d["records"][0].update(type="dream"), r"records\[0\]\.type: must be one of"),
        (lambda d: d["records"][0].update(user="bob"), r"records\[0\]: belongs to acme/bob//"),
        (lambda d: d["core_blocks"][0].update(colour="red"), r"core_blocks\[0\]: has fields .* colour"),
        (lambda d: d["audit"][0].update(at="yesterday"), r"audit\[0\]\.at: must be an ISO 8601 time"),
        (lambda d: d["core_blocks"][0].pop("value"), r"core_blocks\[0\]: misses a required field"),
        (lambda d: d.update(pending="none"), "pending: must be a list of objects"),
    ],
)
def test_import_names_what_is_wrong_in_a_bad_file(tmp_path: Path, change: Any, message: str) -> None:
    store = open_store(tmp_path / "g.db")
    populate(store, ALICE)
    data = export_user(store, ALICE, now=NOW)
    change(data)
    target = open_store(tmp_path / "h.db")
    with pytest.raises(ValidationError, match=message):
        import_user(target, EMB, data)
    assert target.count() == 0
    store.close()
    target.close()


TOKEN = "ghp_" + "Wq4Ez8Rt2Yu6Io0Pa3Sd7Fg1Hj5Kl9Zx2Cv4Bn8M"  # the shape of a GitHub token, made up


def _chain(exc: BaseException | None) -> str:
    """Every exception an error carries, however it is reached: what a logger walking the chain would see."""
    seen = []
    while exc is not None and len(seen) < 10:
        seen.append(f"{exc!r} {vars(exc)}")
        exc = exc.__cause__ or exc.__context__
    return " ".join(seen)


@pytest.mark.parametrize("field", ["created_at", "valid_from", "expires_at", "type", "source"])
def test_an_import_error_carries_no_earlier_error_quoting_a_credential(tmp_path: Path, field: str) -> None:
    store = open_store(tmp_path / "c.db")
    populate(store, ALICE)
    data = export_user(store, ALICE, now=NOW)
    data["records"][0][field] = TOKEN
    target = open_store(tmp_path / "d.db")
    with pytest.raises(ValidationError, match=rf"records\[0\]\.{field}") as refused:
        import_user(target, EMB, data)
    assert TOKEN not in _chain(refused.value) and refused.value.__context__ is None
    store.close()
    target.close()


def test_every_scoped_table_is_exported_or_deliberately_left_out(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.db")
    covered = {"records", *SECTIONS.values(), *NOT_EXPORTED}
    assert set(scoped_tables(store)) == covered, "a new table with tenant/user_key: add it to SECTIONS or NOT_EXPORTED"
    store.close()


def test_cli_export_then_import_into_a_fresh_database(tmp_path: Path) -> None:
    env = {"TIERMEM_DB": str(tmp_path / "one.db"), "TIERMEM_EMBEDDER": "hash"}
    runner = CliRunner()
    for text in ("I prefer aisle seats", "My dog is called Biscuit"):
        runner.invoke(cli, ["add", "--user", "alice", text], env=env)
    out = tmp_path / "alice.json"
    assert runner.invoke(cli, ["export", "--user", "alice", "-o", str(out)], env=env).exit_code == 0
    exported = json.loads(out.read_text())
    assert exported["format"] == FORMAT and len(exported["audit"]) == 2

    fresh = ["--db", str(tmp_path / "two.db")]
    result = runner.invoke(cli, ["import", *fresh, str(out)], env=env)
    assert result.exit_code == 0, result.output
    assert "restored user 'alice' of tenant 'default'" in result.output
    listed = runner.invoke(cli, ["list", *fresh, "--user", "alice", "--json"], env=env)
    assert sorted(r["content"] for r in json.loads(listed.output)["records"]) == sorted(
        r["content"] for r in exported["records"]
    )
    again = runner.invoke(cli, ["import", *fresh, str(out)], env=env)
    assert again.exit_code == 1 and "is not empty" in again.output and "Traceback" not in again.output
    (tmp_path / "broken.json").write_text("{not json")
    broken = runner.invoke(cli, ["import", *fresh, str(tmp_path / "broken.json")], env=env)
    assert broken.exit_code == 2 and "file: cannot be read as JSON" in broken.output
