"""Rank fusion of the keyword and vector signals (recall.search.rank), on hand-made candidate lists."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.recall.search import RecallPolicy, rank
from tiermem.store.base import Candidate

ALICE = Scope("acme", "alice")
NOW = datetime(2025, 1, 1, tzinfo=UTC)
# The same words, so the same BM25 score and bag-of-words vector: only their order tells the two apart.
APART = "reading at night and poetry at dawn"
TOGETHER = "poetry reading at night and at dawn"


def _ids(mem: Memory, n: int) -> list[str]:
    results = mem.remember_many(ALICE, [NewMemory(f"note number {i}") for i in range(n)])
    return [r.record.id for r in results]


def _fused(mem: Memory, keyword: list[str], vector: list[str], k: int = 100) -> list[str]:
    policy = RecallPolicy()
    lists = policy.fusion().lists(
        keyword=[Candidate(i, 1.0 / r) for r, i in enumerate(keyword, start=1)],
        vector=[Candidate(i, 1.0 / r) for r, i in enumerate(vector, start=1)],
    )
    hits = rank(mem.store, ALICE, lists, k=k, now=NOW, policy=policy)
    return [h.record.id for h in hits]


def test_fusion_ranks_one_first_place_above_two_middling_ranks(mem: Memory) -> None:
    ids = _ids(mem, 100)
    top, middling = ids[0], ids[1]
    # ``top`` leads the keyword list and is missing from the vector list; ``middling`` is 20th and 40th.
    keyword = [top, *ids[2:21], middling, *ids[21:50]]
    vector = [*ids[50:89], middling, *ids[89:99]]
    ranked = _fused(mem, keyword, vector)
    assert ranked.index(top) < ranked.index(middling)


def test_fusion_credits_an_unlisted_signal_at_the_rank_below_its_list(mem: Memory) -> None:
    ids = _ids(mem, 2)
    policy = RecallPolicy()
    lists = policy.fusion().lists(keyword=[Candidate(ids[0], 3.0)], vector=[Candidate(ids[1], 0.9)])
    hits = rank(mem.store, ALICE, lists, k=5, now=NOW, policy=policy)
    vector = next(h for h in hits if h.record.id == ids[0]).part("vector")
    assert vector is not None and vector.rank is None
    weights = policy.keyword_weight + policy.vector_weight + policy.phrase_weight
    assert vector.contribution == pytest.approx(
        (1 / (policy.rrf_k + policy.candidates + 1)) / (weights / (policy.rrf_k + 1))
    )


def test_fusion_takes_nothing_from_a_signal_that_listed_nothing(mem: Memory) -> None:
    ids = _ids(mem, 1)
    policy = RecallPolicy()
    lists = policy.fusion().lists(keyword=[Candidate(ids[0], 3.0)], vector=[])
    hits = rank(mem.store, ALICE, lists, k=5, now=NOW, policy=policy)
    vector = hits[0].part("vector")
    assert vector is not None and vector.contribution == 0.0
    weights = policy.keyword_weight + policy.vector_weight + policy.phrase_weight
    assert hits[0].part("keyword").contribution == pytest.approx(1 / weights)  # type: ignore[union-attr]


def test_query_words_side_by_side_in_a_record_rank_it_above_the_same_words_apart(mem: Memory) -> None:
    apart, together = mem.remember_many(
        ALICE,
        [NewMemory(APART, dedupe=False), NewMemory(TOGETHER, dedupe=False)],
    )
    hits = mem.recall(ALICE, "the poetry reading", k=2)
    assert [h.record.id for h in hits] == [together.record.id, apart.record.id]
    assert hits[0].part("phrase").rank == 1  # type: ignore[union-attr]


def test_without_phrases_word_order_lifts_nothing(mem: Memory) -> None:
    apart, _ = mem.remember_many(ALICE, [NewMemory(APART, dedupe=False), NewMemory(TOGETHER, dedupe=False)])
    plain = Memory(mem.store, mem.embedder, RecallPolicy(phrase_weight=0.0))
    # Equal matches keep their storage order, so the record written first (words apart) stays first.
    assert plain.recall(ALICE, "the poetry reading", k=2)[0].record.id == apart.record.id
