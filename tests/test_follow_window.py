"""WritePolicy.follow_window: a note written soon after its scope's previous one is also found by that note's end."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import pytest

from tiermem.embed import HashingEmbedder
from tiermem.errors import ValidationError
from tiermem.memory import Memory
from tiermem.types import Scope
from tiermem.write.follows import with_preceding
from tiermem.write.path import NewMemory, WritePolicy, WriteStatus

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
QUESTION = "When does the pottery club meet?"
ANSWER = "Thursdays at seven, in the library annex."
FOLLOWING = WritePolicy(follow_window=timedelta(minutes=30))


@pytest.fixture
def following() -> Iterator[Memory]:
    memory = Memory.open(":memory:", embedder=HashingEmbedder(), write_policy=FOLLOWING)
    yield memory
    memory.close()


def test_follow_window_is_off_by_default(mem: Memory) -> None:
    mem.remember(ALICE, QUESTION)
    answer = mem.remember(ALICE, ANSWER)
    assert answer.record.context is None
    assert mem.recall(ALICE, "pottery club", k=5)[0].record.content == QUESTION


def test_a_note_within_the_follow_window_is_found_by_the_previous_notes_words(following: Memory) -> None:
    following.remember(ALICE, QUESTION)
    answer = following.remember(ALICE, ANSWER)
    assert answer.record.context == QUESTION
    assert answer.record.content == ANSWER  # the context is never part of the content
    found = [hit.record.content for hit in following.recall(ALICE, "pottery club", k=5)]
    assert found[0] == QUESTION  # a word in a note's own text outranks the same word in its context
    assert ANSWER in found


def test_the_first_note_of_a_scope_has_no_context(following: Memory) -> None:
    assert following.remember(ALICE, QUESTION).record.context is None


def test_a_note_after_a_pause_longer_than_the_follow_window_gets_no_context(following: Memory) -> None:
    first = following.remember(ALICE, QUESTION).record
    items = [NewMemory(ANSWER)]
    later = first.created_at + timedelta(minutes=31)
    sooner = first.created_at + timedelta(minutes=29)
    window = timedelta(minutes=30)
    assert with_preceding(following.store, ALICE, items, later, window)[0].context is None
    assert with_preceding(following.store, ALICE, items, sooner, window)[0].context == QUESTION


def test_the_follow_window_never_crosses_scopes(following: Memory) -> None:
    following.remember(ALICE, QUESTION)
    assert following.remember(BOB, ANSWER).record.context is None
    in_a_session = replace(ALICE, session="evening")
    assert following.remember(in_a_session, ANSWER).record.context is None
    # A scope without a session lists its sessions' notes too, but follows only a note of its own scope.
    assert following.remember(ALICE, "The annex is on the second floor.").record.context is None


def test_items_of_one_batch_follow_each_other_and_the_stored_note(following: Memory) -> None:
    following.remember(ALICE, QUESTION)
    results = following.remember_many(ALICE, [NewMemory(ANSWER), NewMemory("Bring your own apron.")])
    assert [r.record.context for r in results] == [QUESTION, ANSWER]


def test_a_note_with_its_own_context_keeps_it(following: Memory) -> None:
    following.remember(ALICE, QUESTION)
    (result,) = following.remember_many(ALICE, [NewMemory(ANSWER, context="the weekly club")])
    assert result.record.context == "the weekly club"


def test_the_follow_context_is_the_end_of_a_long_previous_note(following: Memory) -> None:
    long_note = " ".join(f"word{i}" for i in range(100)) + " pottery"
    following.remember(ALICE, long_note)
    context = following.remember(ALICE, ANSWER).record.context
    assert context is not None and context.endswith("word99 pottery") and "word0 " not in context


def test_the_follow_window_leaves_duplicates_unchanged(following: Memory) -> None:
    first = following.remember(ALICE, ANSWER)
    following.remember(ALICE, QUESTION)
    again = following.remember(ALICE, ANSWER)
    assert again.status is WriteStatus.UNCHANGED and again.record.id == first.record.id


def test_the_follow_window_works_with_write_behind() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder(), write_policy=FOLLOWING, write_behind=True) as memory:
        memory.remember(ALICE, QUESTION)
        answer = memory.remember(ALICE, ANSWER)
        memory.flush()
        assert answer.record.context == QUESTION


@pytest.mark.parametrize("window", [timedelta(0), timedelta(seconds=-1), 30])
def test_follow_window_must_be_a_positive_timedelta(window: object) -> None:
    with pytest.raises(ValidationError, match="follow_window"):
        WritePolicy(follow_window=window)  # type: ignore[arg-type]
