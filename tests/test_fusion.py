"""Rank fusion of the keyword and vector signals (retrieval._fuse), on hand-made candidate lists."""

from __future__ import annotations

from datetime import UTC, datetime

from tiermem import Memory, NewMemory, Scope
from tiermem.retrieval import RecallPolicy, _fuse
from tiermem.store.base import Candidate

ALICE = Scope("acme", "alice")
NOW = datetime(2025, 1, 1, tzinfo=UTC)


def _ids(mem: Memory, n: int) -> list[str]:
    results = mem.remember_many(ALICE, [NewMemory(f"note number {i}") for i in range(n)])
    return [r.record.id for r in results]


def _fused(mem: Memory, keyword: list[str], vector: list[str], k: int = 100) -> list[str]:
    hits = _fuse(
        mem.store,
        ALICE,
        [Candidate(i, 1.0 / r) for r, i in enumerate(keyword, start=1)],
        [Candidate(i, 1.0 / r) for r, i in enumerate(vector, start=1)],
        k=k,
        now=NOW,
        policy=RecallPolicy(),
    )
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
    hits = _fuse(mem.store, ALICE, [Candidate(ids[0], 3.0)], [Candidate(ids[1], 0.9)], k=5, now=NOW, policy=policy)
    vector = next(h for h in hits if h.record.id == ids[0]).part("vector")
    assert vector is not None and vector.rank is None
    assert vector.contribution == (1 / (policy.rrf_k + policy.candidates + 1)) / (2 / (policy.rrf_k + 1))


def test_fusion_takes_nothing_from_a_signal_that_listed_nothing(mem: Memory) -> None:
    ids = _ids(mem, 1)
    hits = _fuse(mem.store, ALICE, [Candidate(ids[0], 3.0)], [], k=5, now=NOW, policy=RecallPolicy())
    vector = hits[0].part("vector")
    assert vector is not None and vector.contribution == 0.0
    assert hits[0].part("keyword").contribution == 0.5  # type: ignore[union-attr]
