"""Restating a text the store holds: current, it stays one record; closed or expired, it is said anew.

The newest statement of a fact is the current one (a value changed back is current again), and a record's expiry
is that of its newest statement: a note restated without a TTL no longer expires.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import ValidationError
from tiermem.types import Filter, MemoryRecord
from tiermem.write.path import WriteResult, WriteStatus, write_many

ANN = Scope("acme", "ann")
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
NOTE = "The spare bike lock key is in the blue drawer this week"


@pytest.fixture
def memory() -> Iterator[Memory]:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as opened:
        yield opened


def _write(memory: Memory, at: datetime, *items: NewMemory) -> list[WriteResult]:
    """Write ``items`` as one batch at the moment ``at`` (the write path with its clock given)."""
    return write_many(memory.store, memory.embedder, ANN, list(items), at)


def _live(memory: Memory, at: datetime) -> list[MemoryRecord]:
    return list(memory.store.list_records(ANN, Filter(), now=at, limit=50, cursor=None).records)


def test_a_fact_changed_back_to_an_earlier_value_is_the_current_fact(memory: Memory) -> None:
    first = memory.remember(ANN, "My home airport is SFO")
    second = memory.remember(ANN, "My home airport is JFK")
    back = memory.remember(ANN, "My home airport is SFO")
    assert second.superseded == (first.record.id,)
    assert back.status is WriteStatus.SUPERSEDED and back.superseded == (second.record.id,)
    assert back.record.id != first.record.id and back.record.valid_to is None
    assert [r.content for r in memory.list(ANN).records] == ["My home airport is SFO"]
    assert memory.get(ANN, second.record.id).valid_to is not None
    assert memory.get(ANN, first.record.id).valid_to is not None  # the first statement stays history
    assert [h.record.id for h in memory.recall(ANN, "home airport")] == [back.record.id]


def test_a_fact_restated_after_changing_back_is_one_record(memory: Memory) -> None:
    for value in ("SFO", "JFK", "SFO"):
        memory.remember(ANN, f"My home airport is {value}")
    again = memory.remember(ANN, "My home airport is SFO")
    current = [r for r in memory.store.scope_records(ANN) if r.valid_to is None]
    assert again.status is WriteStatus.UNCHANGED and [again.record.id] == [r.id for r in current]
    assert len(memory.store.scope_records(ANN)) == 3


def test_restating_an_expired_note_without_a_ttl_stores_it_without_expiry(memory: Memory) -> None:
    (old,) = _write(memory, T0, NewMemory(NOTE, ttl=timedelta(hours=1)))
    (again,) = _write(memory, T0 + timedelta(hours=2), NewMemory(NOTE))
    assert again.status is WriteStatus.ADDED and again.record.id != old.record.id
    assert again.record.expires_at is None
    assert [r.id for r in _live(memory, T0 + timedelta(days=30))] == [again.record.id]


def test_restating_an_expired_note_with_a_ttl_takes_the_new_ttl(memory: Memory) -> None:
    _write(memory, T0, NewMemory(NOTE, ttl=timedelta(hours=1)))
    (again,) = _write(memory, T0 + timedelta(hours=2), NewMemory(NOTE, ttl=timedelta(days=2)))
    assert again.status is WriteStatus.ADDED
    assert again.record.expires_at == T0 + timedelta(hours=2) + timedelta(days=2)


def test_restating_a_current_note_without_a_ttl_keeps_it_past_the_old_expiry(memory: Memory) -> None:
    (old,) = _write(memory, T0, NewMemory(NOTE, ttl=timedelta(hours=1)))
    (again,) = _write(memory, T0 + timedelta(minutes=10), NewMemory(NOTE))
    assert again.status is WriteStatus.UNCHANGED and again.record.id == old.record.id
    assert again.record.expires_at is None and again.record.version == 2
    assert again.reasons == ("restated: no longer expires",)
    assert [r.id for r in _live(memory, T0 + timedelta(days=30))] == [old.record.id]
    assert [e.op for e in memory.audit(ANN, old.record.id)] == ["add", "restate"]


def test_restating_a_current_note_with_a_ttl_expires_it_from_the_restatement(memory: Memory) -> None:
    (old,) = _write(memory, T0, NewMemory(NOTE))
    later = T0 + timedelta(hours=5)
    (again,) = _write(memory, later, NewMemory(NOTE, ttl=timedelta(hours=1)))
    assert again.status is WriteStatus.UNCHANGED and again.record.id == old.record.id
    assert again.record.expires_at == later + timedelta(hours=1)
    assert _live(memory, later + timedelta(hours=2)) == []


def test_a_less_trusted_source_restating_a_note_only_moves_its_expiry_later(memory: Memory) -> None:
    (old,) = _write(memory, T0, NewMemory(NOTE, ttl=timedelta(days=3)))
    (shorter,) = _write(memory, T0 + timedelta(hours=1), NewMemory(NOTE, source="tool:calendar", ttl=60))
    assert shorter.status is WriteStatus.UNCHANGED and shorter.record.expires_at == T0 + timedelta(days=3)
    (longer,) = _write(memory, T0 + timedelta(hours=2), NewMemory(NOTE, source="tool:calendar", ttl=timedelta(days=5)))
    assert longer.record.id == old.record.id and longer.record.expires_at == T0 + timedelta(hours=2, days=5)


def test_restating_a_note_with_its_ttl_renews_its_expiry_without_a_new_version(memory: Memory) -> None:
    (old,) = _write(memory, T0, NewMemory(NOTE, ttl=timedelta(hours=1)))
    for minutes in (10, 20, 30):
        (again,) = _write(memory, T0 + timedelta(minutes=minutes), NewMemory(NOTE, ttl=timedelta(hours=1)))
        assert again.status is WriteStatus.UNCHANGED and again.record.version == old.record.version
        assert again.record.expires_at == T0 + timedelta(minutes=minutes, hours=1)
    assert [e.op for e in memory.audit(ANN, old.record.id)] == ["add"]
    assert memory.get(ANN, old.record.id).expires_at == T0 + timedelta(minutes=30, hours=1)
    assert len(memory.history(ANN, old.record.id)) == 1


def test_a_less_trusted_source_restating_a_note_never_keeps_it_for_ever(memory: Memory) -> None:
    (old,) = _write(memory, T0, NewMemory(NOTE, ttl=timedelta(days=3)))
    (page,) = _write(memory, T0 + timedelta(hours=1), NewMemory(NOTE, source="web:https://x.example/"))
    assert page.record.id == old.record.id and page.record.expires_at == T0 + timedelta(days=3)


def test_the_same_text_twice_without_a_ttl_is_one_unchanged_record(memory: Memory) -> None:
    first = memory.remember(ANN, NOTE)
    again = memory.remember(ANN, NOTE)
    assert again.status is WriteStatus.UNCHANGED and again.record == first.record  # not even a new version
    assert [e.op for e in memory.audit(ANN, first.record.id)] == ["add"]


def test_a_batch_repeating_a_note_without_a_ttl_stores_one_record_without_expiry(memory: Memory) -> None:
    results = _write(memory, T0, NewMemory(NOTE, ttl=timedelta(hours=1)), NewMemory(NOTE))
    assert [r.status for r in results] == [WriteStatus.ADDED, WriteStatus.UNCHANGED]
    (stored,) = memory.store.scope_records(ANN)
    assert stored.expires_at is None


def test_a_keyed_statement_replayed_after_it_was_closed_stays_unchanged(memory: Memory) -> None:
    [old] = memory.remember_keyed(ANN, [NewMemory("My home airport is SFO")], ["chat-1:airport"])
    memory.remember(ANN, "My home airport is JFK")
    [replayed] = memory.remember_keyed(ANN, [NewMemory("My home airport is SFO")], ["chat-1:airport"])
    assert replayed.status is WriteStatus.UNCHANGED and replayed.record.id == old.record.id
    assert [r.content for r in memory.list(ANN).records] == ["My home airport is JFK"]
    [said] = memory.remember_keyed(ANN, [NewMemory("My home airport is SFO")], ["chat-2:airport"])
    assert said.status is WriteStatus.SUPERSEDED


def test_remember_keyed_refuses_keys_that_do_not_name_each_item_once(memory: Memory) -> None:
    items = [NewMemory("My home airport is SFO"), NewMemory(NOTE)]
    with pytest.raises(ValidationError, match="keys") as one_short:
        memory.remember_keyed(ANN, items, ["only-one"])
    assert (one_short.value.field, one_short.value.given, one_short.value.limit) == ("keys", 1, 2)
    with pytest.raises(ValidationError, match="keys"):
        memory.remember_keyed(ANN, items, ["same", "same"])
    with pytest.raises(ValidationError, match=r"keys\[1\]"):
        memory.remember_keyed(ANN, items, ["a", ""])
    assert memory.store.scope_records(ANN) == []
