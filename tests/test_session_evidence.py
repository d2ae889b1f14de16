"""Session evidence: a turn counts more in a session that holds the query's best matches."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tiermem import Memory, Scope
from tiermem.recall.search import RecallPolicy, rank
from tiermem.recall.sessions import with_session_evidence
from tiermem.store.base import Candidate
from tiermem.types import Hit, MemoryRecord

USER = Scope("acme", "ann")
NOW = datetime(2025, 1, 1, tzinfo=UTC)


def _write(mem: Memory, session: str | None, text: str) -> str:
    scope = USER if session is None else Scope("acme", "ann", session=session)
    return mem.remember_messages(scope, [{"role": "user", "name": "Ann", "content": text}])[0].record.id


def _chat(mem: Memory) -> tuple[str, str, str]:
    """The best match and a quiet reply in one session, a middling match in another: (best, reply, other)."""
    best = _write(mem, "s1", "I finally finished the birdhouse for the garden")
    reply = _write(mem, "s1", "it took me three weekends, mostly sanding")
    other = _write(mem, "s2", "the garden centre was out of seed")
    return best, reply, other


def _ranked(
    mem: Memory, order: list[str], policy: RecallPolicy, k: int = 3, vector_order: list[str] | None = None
) -> list[Hit]:
    # Each list ranks its order first to last, with scores 1, 1/2, 1/3...
    def listed(ids: list[str]) -> list[Candidate]:
        return [Candidate(rid, 1.0 / r) for r, rid in enumerate(ids, start=1)]

    lists = policy.fusion().lists(keyword=listed(order), vector=listed(vector_order or order))
    return rank(mem.store, USER, lists, k=k, now=NOW, policy=policy, query="How long did the birdhouse take?")


def test_a_reply_in_the_session_of_the_best_match_rises_above_another_sessions_match(mem: Memory) -> None:
    best, reply, other = _chat(mem)
    # The reply and the other match tie in fusion; the other's better cosine ranks it first without sessions.
    keyword, vector = [best, reply, other], [best, other, reply]
    # The reply also follows the best match (neighbour evidence, tested on its own): off here.
    without = _ranked(mem, keyword, RecallPolicy(session_weight=0, neighbour_weight=0), vector_order=vector)
    assert [h.record.id for h in without] == [best, other, reply]
    hits = _ranked(mem, keyword, RecallPolicy(neighbour_weight=0), vector_order=vector)
    assert [h.record.id for h in hits] == [best, reply, other]
    part = hits[1].part("session")
    assert part is not None and part.raw == pytest.approx(1.0) and part.contribution == pytest.approx(1.5)
    assert hits[2].part("session").raw < 1.0  # type: ignore[union-attr]


def test_records_without_a_session_keep_their_order(mem: Memory) -> None:
    ids = [mem.remember(USER, text).record.id for text in ("the red kite", "a blue kite", "kite string")]
    hits = _ranked(mem, ids, RecallPolicy())
    assert [h.record.id for h in hits] == ids
    assert all(h.part("session") is None for h in hits)  # nothing to weigh: no record has a session


def test_session_evidence_only_re_ranks_the_best_hits_it_is_given(mem: Memory) -> None:
    best, reply, other = _chat(mem)
    records = mem.store.get_many(USER, [best, other, reply])
    hits = [Hit(records[rid], score, ()) for rid, score in ((best, 1.0), (other, 0.8), (reply, 0.78))]
    assert [h.record.id for h in with_session_evidence(hits, 0.5, depth=2)] == [best, other, reply]
    assert [h.record.id for h in with_session_evidence(hits, 0.5, depth=3)] == [best, reply, other]


def test_a_record_without_a_session_is_its_own_session(mem: Memory) -> None:
    best, reply, _ = _chat(mem)
    loose = mem.remember(USER, "the birdhouse needs a roof").record
    records: dict[str, MemoryRecord] = {**mem.store.get_many(USER, [best, reply]), loose.id: loose}
    hits = [Hit(records[rid], score, ()) for rid, score in ((best, 1.0), (loose.id, 0.8), (reply, 0.7))]
    out = {h.record.id: h for h in with_session_evidence(hits, 0.5, depth=3)}
    assert out[loose.id].score == pytest.approx(0.8 * (1 + 0.5 * 0.8))
    assert out[reply].score == pytest.approx(0.7 * 1.5)
