"""Neighbour evidence: a turn counts more next to a turn that matches the query."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rank_helpers import ranked
from tiermem import Memory, Scope
from tiermem.recall.neighbours import neighbours_of, with_neighbour_evidence
from tiermem.recall.search import RecallPolicy
from tiermem.types import Hit, MemoryRecord

USER = Scope("acme", "ann")
QUERY = "How long did the birdhouse take?"


def _lines(mem: Memory) -> tuple[str, str, str]:
    """Two transcript lines, the second following the first, and an unrelated note: (best, reply, other)."""
    best = mem.remember(USER, "Ann: I finally finished the birdhouse for the garden").record.id
    reply = mem.remember(USER, "Ann: it took me three weekends, mostly sanding").record.id
    other = mem.remember(USER, "The garden centre closes early on Sundays").record.id
    return best, reply, other


def _ranked(mem: Memory, keyword: list[str], vector: list[str], policy: RecallPolicy) -> list[Hit]:
    return ranked(mem, USER, keyword, vector, policy, QUERY)


def _hits(records: dict[str, MemoryRecord], scored: list[tuple[str, float]]) -> list[Hit]:
    return [Hit(records[rid], score, ()) for rid, score in scored]


def test_a_reply_next_to_the_best_match_rises_above_an_equal_match_elsewhere(mem: Memory) -> None:
    best, reply, other = _lines(mem)
    assert mem.get(USER, reply).context == "Ann: I finally finished the birdhouse for the garden"
    # The reply and the other note tie in fusion; the other's better cosine ranks it first without neighbours.
    keyword, vector = [best, reply, other], [best, other, reply]
    # The lines are one stream too (stream evidence, tested on its own): off here.
    without = _ranked(mem, keyword, vector, RecallPolicy(neighbour_weight=0, stream_window=0))
    assert [h.record.id for h in without] == [best, other, reply]
    hits = _ranked(mem, keyword, vector, RecallPolicy(stream_window=0))
    assert [h.record.id for h in hits] == [best, reply, other]
    part = hits[1].part("neighbour")
    assert part is not None and part.raw == pytest.approx(1.0) and part.contribution == pytest.approx(1.1)
    assert hits[0].part("neighbour") is not None  # the best match is the reply's neighbour too
    assert hits[2].part("neighbour") is None


def test_the_turn_before_a_match_gains_by_the_match(mem: Memory) -> None:
    best, reply, other = _lines(mem)
    records = mem.store.get_many(USER, [best, reply, other])
    # Here the reply matches best; the line it follows gains from it and passes the other note.
    out = with_neighbour_evidence(_hits(records, [(reply, 1.0), (other, 0.8), (best, 0.75)]), 0.1, depth=3)
    assert [h.record.id for h in out] == [reply, best, other]
    assert out[1].score == pytest.approx(0.75 * 1.1)


def test_neighbour_evidence_only_re_ranks_the_best_hits_it_is_given(mem: Memory) -> None:
    best, reply, other = _lines(mem)
    records = mem.store.get_many(USER, [best, reply, other])
    hits = _hits(records, [(best, 1.0), (other, 0.8), (reply, 0.75)])
    assert [h.record.id for h in with_neighbour_evidence(hits, 0.1, depth=2)] == [best, other, reply]
    assert [h.record.id for h in with_neighbour_evidence(hits, 0.1, depth=3)] == [best, reply, other]


def test_turns_of_different_sessions_are_not_neighbours(mem: Memory) -> None:
    best, reply, _ = _lines(mem)
    records = mem.store.get_many(USER, [best, reply])
    moved = replace(records[reply], scope=Scope("acme", "ann", session="s2"))
    assert neighbours_of(_hits({**records, reply: moved}, [(best, 1.0), (reply, 0.5)])) == {}
    assert neighbours_of(_hits(records, [(best, 1.0), (reply, 0.5)])) == {0: {1}, 1: {0}}


def test_a_context_that_ends_like_a_text_but_not_on_a_word_is_not_a_neighbour(mem: Memory) -> None:
    best, reply, _ = _lines(mem)
    records = mem.store.get_many(USER, [best, reply])
    cut = replace(records[reply], context="nished the birdhouse for the garden")
    assert neighbours_of(_hits({**records, reply: cut}, [(best, 1.0), (reply, 0.5)])) == {}
    end = replace(records[reply], context="an earlier line\nfinished the birdhouse for the garden")
    assert neighbours_of(_hits({**records, reply: end}, [(best, 1.0), (reply, 0.5)])) == {0: {1}, 1: {0}}


def test_recall_shows_the_neighbour_part_for_adjacent_turns_of_a_conversation(mem: Memory) -> None:
    scope = Scope("acme", "ann", session="chat")
    turns = [
        {"role": "user", "name": "Ann", "content": "Where did you go hiking last weekend?"},
        {"role": "user", "name": "Bo", "content": "Up the coast path, all the way to the lighthouse."},
        {"role": "user", "name": "Ann", "content": "My sister bought a new kettle."},
    ]
    mem.remember_messages(scope, turns)
    hits = mem.recall(scope, "Where did Bo go hiking?", k=3)
    parts = {h.record.content: h.part("neighbour") for h in hits}
    assert parts["Bo: Up the coast path, all the way to the lighthouse."] is not None
    assert parts["Ann: Where did you go hiking last weekend?"] is not None
    mem.policy = RecallPolicy(neighbour_weight=0)
    off = mem.recall(scope, "Where did Bo go hiking?", k=3)
    assert all(h.part("neighbour") is None for h in off)


def test_a_user_turn_and_the_assistant_reply_to_it_are_not_neighbours(mem: Memory) -> None:
    scope = Scope("acme", "ann", session="help")
    turns = [
        {"role": "user", "content": "I repotted the fig tree on Sunday."},
        {"role": "assistant", "content": "Repotting a fig tree on Sunday sounds like a good weekend job."},
    ]
    ids = [r.record.id for r in mem.remember_messages(scope, turns)]
    records = mem.store.get_many(scope, ids)
    assert records[ids[1]].context == "I repotted the fig tree on Sunday."  # adjacent all the same
    assert neighbours_of(_hits(records, [(ids[0], 1.0), (ids[1], 0.9)])) == {}
