"""Erase, forget, sweep and rollback racing a user's other writes, on a SQLite file and on PostgreSQL.

Each of them changes a user's records, so each is serialised with that user's other writers and decides on what
it reads inside that lock: a record it deleted never comes back, one it left alone is not deleted on a stale
read, and the full-text statistics recall weighs words by agree with the records once the writers are done.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from at_once import at_once
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConflictError, NotFoundError
from tiermem.lifecycle.retention import RetentionPolicy, restart_expiry, sweep
from tiermem.lifecycle.revise import revise
from tiermem.memory import Memory
from tiermem.store.base import TermStatistics
from tiermem.store.postgres.connect import UNREACHABLE, driver_error
from tiermem.types import MemoryRecord, Scope, utcnow

ROUNDS = 6


@pytest.fixture(params=["sqlite-file", "postgres"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    """A memory on a SQLite file (so that threads really share it) and on a fresh PostgreSQL schema."""
    url = (
        str(tmp_path / "races.db")
        if request.param == "sqlite-file"
        else request.getfixturevalue("pg_server").schema_url("life")
    )
    with Memory.open(url, embedder=HashingEmbedder(dim=64)) as mem:
        yield mem


def _remember(memory: Memory, scope: Scope, prefix: str, count: int) -> None:
    for i in range(count):
        memory.remember(scope, f"Kestrel {prefix}{i} nests by the quarry {prefix}gate{i}.")


def _statistics_agree(memory: Memory, scope: Scope) -> None:
    """The scope's full-text statistics count its records (recall divides by them), and recall works."""
    store = memory.store
    assert isinstance(store, TermStatistics)
    docs, counts = store.term_document_counts(scope, ["kestrel"])
    held = memory.store.count(scope)
    assert (docs, counts["kestrel"]) == (held, held), f"{scope}: statistics {docs}/{counts} for {held} records"
    hits = memory.recall(scope, "kestrel quarry", k=20)
    assert len(hits) == held


def test_erasing_a_user_racing_its_writes_leaves_statistics_that_agree(memory: Memory) -> None:
    for i in range(ROUNDS):
        ann = Scope("acme", f"ann{i}")
        _remember(memory, ann, "old", 3)
        at_once(lambda s=ann: _remember(memory, s, "new", 4), lambda s=ann: memory.erase(s.tenant, s.user))
        _statistics_agree(memory, ann)
        assert not [r for r in memory.list(ann).records if "old" in r.content]


def test_erasing_a_tenant_racing_writes_of_old_and_new_users_leaves_statistics_that_agree(memory: Memory) -> None:
    for i in range(ROUNDS):
        tenant = f"t{i}"
        old, new = Scope(tenant, "ann"), Scope(tenant, "bob")
        _remember(memory, old, "old", 3)
        at_once(
            lambda s=old: _remember(memory, s, "more", 3),
            lambda s=new: _remember(memory, s, "new", 3),
            lambda t=tenant: memory.erase(t),
        )
        _statistics_agree(memory, old)
        _statistics_agree(memory, new)
        assert not [r for r in memory.list(old).records if "old" in r.content]


def _forget_racing_refresh_and_rollback(memory: Memory, ann: Scope) -> None:
    first = memory.remember(ann, f"The kestrel of {ann.user} nests by the quarry.", ttl=3600).record
    assert first is not None
    text = f"The kestrel of {ann.user} nests by the mill."
    revise(memory.store, memory.embedder, ann, first.id, actor="user", now=utcnow(), content=text)

    def rollback() -> None:
        with contextlib.suppress(NotFoundError, ConflictError):  # the forget came first, or changed it under it
            memory.rollback(ann, first.id, 1)

    def refresh() -> None:
        memory.refresh_ttl(ann, {first.id: timedelta(hours=5)})

    at_once(refresh, rollback, lambda: memory.forget(ann, first.id))
    with pytest.raises(NotFoundError):
        memory.get(ann, first.id)
    assert memory.store.count(ann) == 0


def test_a_forgotten_record_never_comes_back_from_a_racing_refresh_or_rollback(memory: Memory) -> None:
    for i in range(ROUNDS):
        _forget_racing_refresh_and_rollback(memory, Scope("acme", f"ann{i}"))


def _sweep_racing_refresh(memory: Memory, ann: Scope) -> None:
    record = memory.remember(ann, f"The kestrel of {ann.user} nests by the river.", ttl=3600).record
    assert record is not None
    now = utcnow()
    refreshed: list[MemoryRecord] = []

    def refresh() -> None:
        # Live when read (an hour left), then good for five more: the sweep two hours on must keep it.
        refreshed.extend(restart_expiry(memory.store, ann, {record.id: timedelta(hours=5)}, now=now))

    def sweep_later() -> None:
        sweep(memory.store, RetentionPolicy(), now=now + timedelta(hours=2))

    at_once(refresh, sweep_later)
    ops = [e.op for e in memory.audit(ann, record.id)]
    try:
        kept = memory.get(ann, record.id)
    except NotFoundError:
        assert not refreshed, "a refresh that was acknowledged was swept on a stale read"
        assert "expire" in ops
    else:
        assert refreshed, "a swept record came back"
        assert "expire" not in ops and kept.expires_at is not None
        assert abs(kept.expires_at - (now + timedelta(hours=5))) < timedelta(seconds=1)


def test_a_swept_record_never_comes_back_and_a_refreshed_one_is_never_swept(memory: Memory) -> None:
    for i in range(ROUNDS * 3):
        _sweep_racing_refresh(memory, Scope("acme", f"ann{i}"))


def test_a_deadlock_is_reported_as_a_concurrent_write_not_as_an_unreachable_server() -> None:
    for exc in (psycopg.errors.DeadlockDetected("deadlock detected"), psycopg.errors.SerializationFailure("x")):
        error = driver_error("write to", "pg", exc)
        assert error.public != UNREACHABLE and "cannot be reached" not in str(error)
        assert "retry" in str(error)
