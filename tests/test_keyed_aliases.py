"""A keyed statement that matched an existing record names that record from then on, on both stores.

A replayed source (an import run again, extraction over the whole conversation again) must state nothing anew:
not a fact the user has since changed, and not by closing the newer one.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from at_once import at_once
from tiermem import Memory, NewMemory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.write.aliases import ALIAS_OP
from tiermem.write.path import WriteStatus

ANN = Scope("acme", "ann")
OLD, NEW = "My favourite tea is oolong.", "My favourite tea is sencha."


@pytest.fixture
def memory(url_on_both_stores: str) -> Iterator[Memory]:
    with Memory.open(url_on_both_stores, embedder=HashingEmbedder()) as opened:
        yield opened


def _current(memory: Memory) -> list[str]:
    return sorted(r.content for r in memory.list(ANN).records)


def test_a_replayed_key_that_matched_an_earlier_note_does_not_revive_it_once_changed(memory: Memory) -> None:
    first = memory.remember(ANN, OLD)
    [matched] = memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
    assert matched.status is WriteStatus.UNCHANGED and matched.record.id == first.record.id
    changed = memory.remember(ANN, NEW)
    assert changed.superseded == (first.record.id,)
    [replayed] = memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
    assert replayed.status is WriteStatus.UNCHANGED and replayed.record.id == first.record.id
    assert replayed.record.valid_to is not None
    assert _current(memory) == [NEW]


def test_a_key_that_matched_a_note_earlier_in_its_batch_names_it_too(memory: Memory) -> None:
    memory.remember_keyed(ANN, [NewMemory(OLD), NewMemory(OLD)], ["import-7:a", "import-7:b"])
    memory.remember(ANN, NEW)
    replayed = memory.remember_keyed(ANN, [NewMemory(OLD), NewMemory(OLD)], ["import-7:a", "import-7:b"])
    assert [r.status for r in replayed] == [WriteStatus.UNCHANGED, WriteStatus.UNCHANGED]
    assert _current(memory) == [NEW]


def test_a_key_whose_note_was_forgotten_is_written_again_as_a_forgotten_keys_note_is(memory: Memory) -> None:
    first = memory.remember(ANN, OLD)
    memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
    memory.forget(ANN, first.record.id)
    [again] = memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
    assert again.status is WriteStatus.ADDED and _current(memory) == [OLD]


def test_a_keys_alias_is_audited_once_without_its_text_and_redacted_by_an_erase(memory: Memory) -> None:
    memory.remember(ANN, OLD)
    [matched] = memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
    memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
    aliases = [e for e in memory.audit(ANN) if e.op == ALIAS_OP]
    assert len(aliases) == 1 and aliases[0].before is None and aliases[0].after is None
    assert aliases[0].detail == f"recorded as {matched.record.id}" and OLD not in aliases[0].detail
    memory.erase("acme", "ann")
    assert all(matched.record.id not in e.detail for e in memory.audit(ANN))


def test_two_writers_of_one_key_at_the_same_instant_leave_it_naming_the_earlier_note(memory: Memory) -> None:
    first = memory.remember(ANN, OLD)
    results: list[WriteStatus] = []

    def replay() -> None:
        [written] = memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
        results.append(written.status)

    at_once(replay, replay)
    assert results == [WriteStatus.UNCHANGED, WriteStatus.UNCHANGED]
    memory.remember(ANN, NEW)
    [replayed] = memory.remember_keyed(ANN, [NewMemory(OLD)], ["import-7:tea"])
    assert replayed.status is WriteStatus.UNCHANGED and replayed.record.id == first.record.id
    assert _current(memory) == [NEW]
