"""``tiermem migrate``: a store copied whole into another, verified row by row, and resumable."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from context_contract import ALICE_BOT, ALICE_BOT_S1, NOW, save
from maintenance_contract import plant
from pg_fixtures import PgServer
from store_contract import ALICE, BOB, EMB, make_record
from tiermem.cli.main import cli
from tiermem.errors import ConflictError
from tiermem.lifecycle import migrate as migrate_module
from tiermem.lifecycle.migrate import migrate_store, scope_checksum
from tiermem.store import StoredItem, open_store
from tiermem.store.context_base import CoreBlock, WindowState
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import Filter, Scope

ALICE_FILTER = Filter()


def _fill(path: Path) -> SQLiteStore:
    store = SQLiteStore(path)
    plant(store, ALICE, "Zorblax7731")
    plant(store, BOB, "Bobsecret42")
    long = make_record(ALICE, "walnut orchard. harbour crane.")
    passages = EMB.embed_batch(["walnut orchard.", "harbour crane."])
    store.put_many([StoredItem(long, EMB.embed_batch([long.content])[0], passages=passages)])
    save(store, ALICE_BOT, CoreBlock("human", 100, "Name: Ann", version=1, updated_at=NOW), 0)
    store.save_context_window(ALICE_BOT_S1, WindowState(("a", "b"), "a", NOW))
    save(store, Scope("acme", "carol", "bot"), CoreBlock("human", 100, "no records", version=1, updated_at=NOW), 0)
    return store


def test_a_copy_holds_the_same_rows_vectors_and_passages(tmp_path: Path) -> None:
    source = _fill(tmp_path / "a.db")
    target = SQLiteStore(tmp_path / "b.db")
    report = migrate_store(source, target, batch=2)
    carol = Scope("acme", "carol")
    assert {s.scope for s in report.scopes} == {ALICE, BOB, carol}  # carol holds a core block only
    for scope in (ALICE, BOB, carol):
        assert scope_checksum(target, scope) == scope_checksum(source, scope)
    q = EMB.embed_batch(["harbour crane."])[0]
    best = target.vector_candidates(ALICE, q, EMB.fingerprint, ALICE_FILTER, now=NOW, limit=1)[0]
    assert best.score == pytest.approx(1.0, abs=1e-5)  # the passage vectors came along
    assert report.copied["records"] == 7 and report.copied["pending_writes"] == 2


def test_a_second_run_verifies_and_skips_what_is_there(tmp_path: Path) -> None:
    source, target = _fill(tmp_path / "a.db"), SQLiteStore(tmp_path / "b.db")
    migrate_store(source, target)
    again = migrate_store(source, target)
    assert all(s.skipped for s in again.scopes) and not again.copied


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, target = _fill(tmp_path / "a.db"), SQLiteStore(tmp_path / "b.db")
    real = migrate_module.scope_checksum
    calls = {"n": 0}

    def failing(store: object, scope: Scope) -> object:
        calls["n"] += 1
        if store is target and scope == BOB:
            raise KeyboardInterrupt  # the run dies while Bob's copy is checked: his transaction was committed
        return real(store, scope)  # type: ignore[arg-type]

    monkeypatch.setattr(migrate_module, "scope_checksum", failing)
    with pytest.raises(KeyboardInterrupt):
        migrate_store(source, target)
    monkeypatch.setattr(migrate_module, "scope_checksum", real)
    report = migrate_store(source, target)
    assert {s.scope: s.skipped for s in report.scopes} == {ALICE: True, BOB: True, Scope("acme", "carol"): False}
    assert all(scope_checksum(target, s) == scope_checksum(source, s) for s in source.held_scopes())


def test_a_target_holding_other_rows_of_a_user_is_a_conflict(tmp_path: Path) -> None:
    source, target = _fill(tmp_path / "a.db"), SQLiteStore(tmp_path / "b.db")
    target.put_many([StoredItem(make_record(BOB, "something else"), None)])
    with pytest.raises(ConflictError, match="acme/bob"):
        migrate_store(source, target)


def test_sqlite_to_postgres_and_back_keeps_every_row(tmp_path: Path, pg_server: PgServer) -> None:
    _fill(tmp_path / "a.db").close()
    url = pg_server.schema_url("migrate")
    runner = CliRunner()
    there = runner.invoke(cli, ["migrate", "--from", str(tmp_path / "a.db"), "--to", url, "--json"])
    assert there.exit_code == 0, there.output
    assert json.loads(there.output)["copied"]["records"] == 7
    back = runner.invoke(cli, ["migrate", "--from", url, "--to", str(tmp_path / "c.db"), "--json"])
    assert back.exit_code == 0, back.output
    source, pg, copy = SQLiteStore(tmp_path / "a.db"), open_store(url), SQLiteStore(tmp_path / "c.db")
    for scope in source.held_scopes():
        assert scope_checksum(pg, scope) == scope_checksum(source, scope) == scope_checksum(copy, scope)
    own = copy.vectors_of(ALICE, [r.id for r in copy.scope_records(ALICE)])
    assert own and all(isinstance(v, np.ndarray) for v in own.values())
    again = runner.invoke(cli, ["migrate", "--from", str(tmp_path / "a.db"), "--to", url, "--json"])
    assert json.loads(again.output)["skipped"] == 3
    for store in (source, pg, copy):
        store.close()
