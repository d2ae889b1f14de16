"""Stream evidence: a turn written without a session counts more near the lines that match the query best."""

from __future__ import annotations

import pytest

from rank_helpers import ranked
from tiermem import Memory, Scope
from tiermem.errors import ValidationError
from tiermem.recall.search import RecallPolicy
from tiermem.recall.sessions import with_session_evidence
from tiermem.types import Hit

USER = Scope("acme", "ann")
NO_NEIGHBOURS = RecallPolicy(neighbour_weight=0)  # adjacency has its own tests; these lines are not adjacent


def _talk(mem: Memory, far: int = 30, near_scope: Scope = USER) -> tuple[str, str, str]:
    """The best match, a quiet line two lines later, and a middling match ``far`` lines on: (best, near, other)."""
    best = mem.remember(USER, "Ann: I finally finished the birdhouse for the garden").record.id
    mem.remember(USER, "Bo: nice, what wood did you use?")
    near = mem.remember(near_scope, "Ann: it took me three weekends, mostly sanding").record.id
    for i in range(far):
        mem.remember(USER, f"Bo: the match on channel {i} went to extra time")
    other = mem.remember(USER, "Ann: the garden centre was out of seed").record.id
    return best, near, other


def _ranked(mem: Memory, keyword: list[str], vector: list[str], policy: RecallPolicy) -> list[Hit]:
    return ranked(mem, USER, keyword, vector, policy, "How long did the birdhouse take?")


def test_a_line_written_near_the_best_match_rises_above_an_equal_match_written_far_away(mem: Memory) -> None:
    best, near, other = _talk(mem)
    assert mem.get(USER, near).context  # the write path linked it to the line before: it is in the stream
    # The near line and the other match tie in fusion; the other's better cosine ranks it first without windows.
    keyword, vector = [best, near, other], [best, other, near]
    without = _ranked(mem, keyword, vector, RecallPolicy(neighbour_weight=0, stream_window=0))
    assert [h.record.id for h in without] == [best, other, near]
    hits = _ranked(mem, keyword, vector, NO_NEIGHBOURS)
    assert [h.record.id for h in hits] == [best, near, other]
    part = hits[1].part("session")
    assert part is not None and part.raw == pytest.approx(1.0) and part.contribution == pytest.approx(1.5)
    assert hits[2].part("session").raw < 1.0  # type: ignore[union-attr]


def test_a_match_just_beyond_the_window_is_its_own_document(mem: Memory) -> None:
    best, _near, other = _talk(mem, far=10)
    # best, a line, near, ten lines, other: other is 13 places after best.
    inside = _ranked(mem, [best, other], [best, other], RecallPolicy(neighbour_weight=0, stream_window=13))
    beyond = _ranked(mem, [best, other], [best, other], RecallPolicy(neighbour_weight=0, stream_window=12))
    assert inside[1].part("session").raw == pytest.approx(1.0)  # type: ignore[union-attr]
    assert beyond[1].part("session").raw < 1.0  # type: ignore[union-attr]


def test_another_agents_lines_written_between_are_not_the_same_conversation(mem: Memory) -> None:
    best, near, other = _talk(mem, near_scope=Scope("acme", "ann", "planner"))
    hits = _ranked(mem, [best, near, other], [best, other, near], NO_NEIGHBOURS)
    assert [h.record.id for h in hits] == [best, other, near]


def test_notes_the_write_path_did_not_link_keep_their_order(mem: Memory) -> None:
    ids = [mem.remember(USER, text).record.id for text in ("the red kite", "a blue kite", "kite string")]
    assert not any(mem.get(USER, rid).context for rid in ids)  # type: ignore[union-attr]
    hits = _ranked(mem, ids, ids, RecallPolicy())
    assert [h.record.id for h in hits] == ids


def test_places_decide_the_window_whatever_the_hits_order(mem: Memory) -> None:
    best, near, other = _talk(mem)
    records = mem.store.get_many(USER, [best, near, other])
    hits = [Hit(records[rid], score, ()) for rid, score in ((best, 1.0), (other, 0.8), (near, 0.78))]
    places = {best: 0, near: 2, other: 33}
    out = {h.record.id: h.score for h in with_session_evidence(hits, 0.5, 3, places, window=2)}
    assert out[near] == pytest.approx(0.78 * 1.5)
    assert out[other] == pytest.approx(0.8 * (1 + 0.5 * 0.8))
    narrower = {h.record.id: h.score for h in with_session_evidence(hits, 0.5, 3, places, window=1)}
    assert narrower[near] == pytest.approx(0.78 * (1 + 0.5 * 0.78))


@pytest.mark.parametrize("window", [-1, 1001, 2.5, True, "15"])
def test_a_stream_window_that_is_not_a_whole_number_is_refused_naming_the_field(window: object) -> None:
    with pytest.raises(ValidationError, match="stream_window") as caught:
        RecallPolicy(stream_window=window)  # type: ignore[arg-type]
    assert str(window) in str(caught.value)
