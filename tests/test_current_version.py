"""Recall credits a closed fact's match to the record that replaced it (its current version)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from tiermem import Filter, Memory, RecallPolicy, Scope
from tiermem.embed import HashingEmbedder
from tiermem.types import including_closed, utcnow

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=UTC)
NOISE = [
    "Alice collects vintage postcards from Lisbon.",
    "Alice swims every morning before work.",
    "Alice's brother teaches chemistry in Porto.",
]


@pytest.fixture
def memory() -> Iterator[Memory]:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        yield mem


def _replaced(memory: Memory, tags: tuple[str, ...] = ()) -> tuple[str, str]:
    """An old fact worded like the question, then other facts, then its replacement in other words."""
    old = memory.remember(ALICE, "Alice plays the cello in the city orchestra.", tags=("music",), valid_from=T0)
    old = old.record.id
    for n, text in enumerate(NOISE, start=1):
        memory.remember(ALICE, text, valid_from=T0 + timedelta(n))
    new = memory.remember(
        ALICE, "Alice gave up music for rock climbing.", tags=tags, valid_from=T0 + timedelta(9), supersedes=old
    )
    assert new.superseded == (old,)
    return old, new.record.id


def test_a_closed_facts_match_is_credited_to_the_fact_that_replaced_it(memory: Memory) -> None:
    old, new = _replaced(memory)
    hits = memory.recall(ALICE, "Does Alice play the cello in an orchestra?", k=4)
    assert hits[0].record.id == new and hits[0].part("current_version") is not None
    assert old not in [h.record.id for h in hits]


def test_a_closed_fact_is_credited_only_to_a_replacement_the_filter_admits(memory: Memory) -> None:
    _, new = _replaced(memory, tags=("hobby",))
    # The old fact passes the tag filter but its replacement does not: neither may be returned.
    assert memory.recall(ALICE, "Does Alice play the cello?", k=4, filter=Filter(tags=frozenset({"music"}))) == []
    hits = memory.recall(ALICE, "Does Alice play the cello?", k=4, filter=Filter(tags=frozenset({"hobby"})))
    assert [h.record.id for h in hits] == [new]


def test_the_past_still_finds_the_closed_fact_itself(memory: Memory) -> None:
    old, new = _replaced(memory)
    hits = memory.recall(ALICE, "Does Alice play the cello in an orchestra?", k=4, as_of=T0 + timedelta(5))
    assert hits[0].record.id == old and all(h.record.id != new for h in hits)


def test_a_closed_fact_whose_replacement_is_gone_is_not_returned(memory: Memory) -> None:
    old, new = _replaced(memory)
    memory.forget(ALICE, new)
    hits = memory.recall(ALICE, "Does Alice play the cello in an orchestra?", k=4)
    assert hits and all(h.record.id not in (old, new) for h in hits)


def test_the_store_returns_closed_but_never_expired_records_when_asked(memory: Memory) -> None:
    old, _ = _replaced(memory)
    gone = memory.remember(ALICE, "Alice plays the cello on Sundays.", valid_from=T0, ttl=1.0).record.id
    embedder = memory.embedder
    assert embedder is not None
    vector = embedder.embed_batch(["Alice plays the cello"])[0]
    later = utcnow() + timedelta(minutes=5)  # the time-to-live counts from the write's wall clock
    for with_closed, expected in ((False, set()), (True, {old})):
        wanted = including_closed(Filter()) if with_closed else Filter()
        words = memory.store.keyword_candidates(ALICE, ["cello"], wanted, now=later, limit=10)
        near = memory.store.vector_candidates(ALICE, vector, embedder.fingerprint, wanted, now=later, limit=10)
        assert {c.id for c in words} == expected and expected <= {c.id for c in near}
        assert gone not in {c.id for c in near} and (with_closed or old not in {c.id for c in near})


def test_equal_scores_keep_the_lists_order_whatever_order_the_store_returns_records_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tiermem.recall.search import RecallPolicy, rank
    from tiermem.store.base import Candidate

    scope = Scope("acme", "tie")
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        first = memory.remember(scope, "the blue kettle").record.id
        second = memory.remember(scope, "a red lantern").record.id
        # Each first in one list and absent from the other: the fused scores tie exactly.
        policy = RecallPolicy()
        lists = policy.fusion().lists(keyword=[Candidate(first, 1.0)], vector=[Candidate(second, 0.0)])
        store = memory.store
        got = store.get_many
        monkeypatch.setattr(store, "get_many", lambda s, ids: dict(reversed(list(got(s, ids).items()))))
        hits = rank(store, scope, lists, k=2, now=utcnow(), policy=policy, filter_=including_closed(Filter()))
    assert [h.record.id for h in hits] == [first, second]


def test_without_credit_to_current_versions_the_old_wording_no_longer_ranks_the_new_one_first(memory: Memory) -> None:
    _, new = _replaced(memory)
    memory.policy = RecallPolicy(credit_current=False)
    hits = memory.recall(ALICE, "Does Alice play the cello in an orchestra?", k=5)
    # With the credit it is first (above); without, only its own words count ("Alice", as the noise's do).
    assert hits and hits[0].record.id != new
    assert all(h.part("current_version") is None for h in hits)
