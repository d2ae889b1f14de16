"""Transcript lines ("Ann: ...") written as plain notes: who said them, and they are events, not facts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.english.transcript import transcript_speaker
from tiermem.recall.search import RecallPolicy, rank
from tiermem.store.base import Candidate
from tiermem.types import Hit
from tiermem.write.follows import TRANSCRIPT_WINDOW, with_preceding

ROOM = Scope("acme", "room-9")
NOW = datetime(2025, 3, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "speaker"),
    [
        ("Ann: we loved the trams", "Ann"),
        ("Mary Jo: the bus was late again", "Mary Jo"),
        ("O'Neil: count me in", "O'Neil"),
        ("Note to self: buy stamps", None),  # lower-case words are no name
        ("here are the tips: water daily", None),
        ("Ann:no space after the colon", None),
        ("The Big Old Red Barn: four words is a heading", None),
        ("I think so", None),
        ("Ann: ", None),
    ],
)
def test_a_transcript_line_names_its_speaker_by_its_label(text: str, speaker: str | None) -> None:
    assert transcript_speaker(text) == speaker


def _two_notes(mem: Memory, older_text: str, newer_text: str) -> tuple[str, str]:
    """The ids of two notes, the first written three days ago, the second one day ago."""
    older, newer = (
        mem.remember(ROOM, text, valid_from=NOW - timedelta(days=days)).record.id
        for text, days in [(older_text, 3), (newer_text, 1)]
    )
    return older, newer


def _ranked(mem: Memory, older: str, newer: str) -> list[Hit]:
    """The two notes ranked for the choir question, the older one ahead in both lists."""
    cands = [Candidate(older, 2.0), Candidate(newer, 1.0)]
    policy = RecallPolicy()
    lists = policy.fusion().lists(keyword=cands, vector=cands)
    return rank(mem.store, ROOM, lists, k=2, now=NOW, policy=policy, query="Where does the choir meet?")


def test_transcript_lines_are_ranked_by_their_words_not_newest_first(mem: Memory) -> None:
    older, newer = _two_notes(
        mem, "Ann: our choir meets in the church hall on Mondays", "Ann: our choir meets in the school gym on Fridays"
    )
    hits = _ranked(mem, older, newer)
    assert [h.record.id for h in hits] == [older, newer]
    assert all(h.part("newer_fact") is None and "possibly_outdated" not in h.flags for h in hits)


def test_a_labelled_value_is_a_standing_fact_ranked_newest_first(mem: Memory) -> None:
    older, newer = _two_notes(mem, "Choir: the church hall on Mondays", "Choir: the school gym on Fridays")
    hits = _ranked(mem, older, newer)
    assert [h.record.id for h in hits] == [newer, older]


def test_the_same_statements_without_labels_are_ranked_newest_first(mem: Memory) -> None:
    older, newer = _two_notes(
        mem, "The choir meets in the church hall on Mondays", "The choir meets in the school gym on Fridays"
    )
    hits = _ranked(mem, older, newer)
    assert [h.record.id for h in hits] == [newer, older]


def test_a_transcript_line_follows_the_line_before_it_without_a_follow_window(mem: Memory) -> None:
    mem.remember(ROOM, "Bo: are we still on for the kayak trip?")
    reply = mem.remember(ROOM, "Ann: yes, Saturday at nine, from the north dock")
    assert reply.record.context == "Bo: are we still on for the kayak trip?"
    found = [hit.record.id for hit in mem.recall(ROOM, "kayak trip", k=3)]
    assert reply.record.id in found


@pytest.mark.parametrize(
    ("before", "after", "source"),
    [
        ("Are we still on for the kayak trip?", "Ann: yes, Saturday at nine", "user"),  # the first is no line
        ("Bo: are we still on for the kayak trip?", "Yes, Saturday at nine", "user"),  # the second is no line
        ("Bo: are we still on for the kayak trip?", "Ann: yes, Saturday at nine", "agent"),
    ],
)
def test_notes_that_are_not_two_users_transcript_lines_do_not_follow(
    mem: Memory, before: str, after: str, source: str
) -> None:
    mem.remember(ROOM, before)
    assert mem.remember(ROOM, after, source=source).record.context is None


def test_a_transcript_line_after_a_long_pause_starts_afresh(mem: Memory) -> None:
    first = mem.remember(ROOM, "Bo: are we still on for the kayak trip?").record
    items = [NewMemory("Ann: yes, Saturday at nine")]
    later = first.created_at + TRANSCRIPT_WINDOW + timedelta(minutes=1)
    sooner = first.created_at + TRANSCRIPT_WINDOW - timedelta(minutes=1)
    assert with_preceding(mem.store, ROOM, items, later, None)[0].context is None
    assert with_preceding(mem.store, ROOM, items, sooner, None)[0].context == first.content
