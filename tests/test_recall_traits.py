"""What ranking reads of a record itself is worked out once per record object, never carried to another object."""

from __future__ import annotations

from dataclasses import replace

from store_contract import ALICE, make_record
from tiermem.recall import traits
from tiermem.recall.speakers import speaker_of
from tiermem.types import MemoryRecord


def test_a_record_object_is_read_once_and_an_equal_new_object_afresh() -> None:
    calls: list[str] = []

    @traits.per_record
    def first_word(record: MemoryRecord) -> str:
        calls.append(record.id)
        return record.content.split()[0]

    record = make_record(ALICE, "harbour at dawn")
    assert first_word(record) == first_word(record) == "harbour"
    assert len(calls) == 1
    edited = replace(record, content="lighthouse at dusk")  # the same id, another object: its own answer
    assert first_word(edited) == "lighthouse"
    assert len(calls) == 2


def test_the_remembered_answers_stay_bounded() -> None:
    calls: list[str] = []

    @traits.per_record
    def length(record: MemoryRecord) -> int:
        calls.append(record.id)
        return len(record.content)

    records = [make_record(ALICE, f"note {i}") for i in range(traits.KEPT + 1)]
    for record in records:
        length(record)
    length(records[0])  # forgotten when the bound was passed: worked out again
    assert len(calls) == traits.KEPT + 2


def test_a_speaker_is_read_from_the_record_object_it_was_asked_about() -> None:
    said = make_record(ALICE, "Ann: we moved the party to Sunday")
    assert speaker_of(said) == "Ann"
    assert speaker_of(replace(said, content="Bob: it stays on Saturday")) == "Bob"
