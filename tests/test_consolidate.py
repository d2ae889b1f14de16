"""Consolidation applies merge and supersession to stored facts, idempotently, with a dry run."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.embed import MiniLMEmbedder
from tiermem.write.consolidate import ActionKind
from tiermem.write.path import DetectionPolicy, WritePolicy

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.fixture
def undetected(minilm: MiniLMEmbedder) -> Iterator[Memory]:
    with Memory.open(":memory:", embedder=minilm, write_policy=WritePolicy(detect=False)) as m:
        m.remember_many(
            ALICE,
            [
                NewMemory("I live in Seattle.", valid_from=T0),
                NewMemory("I really like hiking in the mountains.", valid_from=T0 + timedelta(days=1)),
                NewMemory("Alice likes tea.", valid_from=T0 + timedelta(days=2)),
                NewMemory("I like hiking in the mountains a lot.", valid_from=T0 + timedelta(days=3)),
                NewMemory("Alice likes coffee.", valid_from=T0 + timedelta(days=4)),
                NewMemory("I moved to Austin.", valid_from=T0 + timedelta(days=5)),
            ],
        )
        yield m


def test_dry_run_reports_and_writes_nothing(undetected: Memory) -> None:
    before = [r.to_json() for r in undetected.list(ALICE).records]
    actions = undetected.consolidate(ALICE, dry_run=True)
    assert sorted(a.kind for a in actions) == [ActionKind.MERGE, ActionKind.SUPERSEDE]
    assert [r.to_json() for r in undetected.list(ALICE).records] == before


def test_consolidation_merges_paraphrases_and_closes_stale_facts(undetected: Memory) -> None:
    actions = undetected.consolidate(ALICE)
    assert len(actions) == 2
    current = {r.content for r in undetected.list(ALICE).records}
    assert current == {
        "I really like hiking in the mountains.",
        "Alice likes tea.",
        "Alice likes coffee.",
        "I moved to Austin.",
    }
    austin = next(r for r in undetected.list(ALICE).records if r.content == "I moved to Austin.")
    assert [r.content for r in undetected.history(ALICE, austin.id)] == ["I live in Seattle.", "I moved to Austin."]
    hiking = next(r for r in undetected.list(ALICE).records if "hiking" in r.content)
    assert hiking.metadata["consolidated_from"]
    assert undetected.store.count(ALICE) == 6  # nothing deleted
    assert any(e.op == "consolidate" for e in undetected.audit(ALICE))


def test_consolidation_is_idempotent(undetected: Memory) -> None:
    undetected.consolidate(ALICE)
    snapshot = [r.to_json() for r in undetected.list(ALICE).records]
    assert undetected.consolidate(ALICE) == []
    assert [r.to_json() for r in undetected.list(ALICE).records] == snapshot


def test_consolidation_compares_with_the_nearest_facts_still_current(minilm: MiniLMEmbedder) -> None:
    # The third paraphrase is nearest to the second, which the run already folded into the first: like the
    # write path's store search, consolidation skips it and compares with the nearest current fact instead.
    texts = [
        "I really like hiking in the mountains.",
        "I like hiking in the mountains a lot.",
        "I really like hiking in the mountains a lot.",
    ]
    one = WritePolicy(detect=False, detection=DetectionPolicy(neighbours=1))
    with Memory.open(":memory:", embedder=minilm, write_policy=one) as m:
        first, *_ = m.remember_many(
            ALICE, [NewMemory(t, valid_from=T0 + timedelta(days=i)) for i, t in enumerate(texts)]
        )
        actions = m.consolidate(ALICE, dry_run=True)
    assert [(a.kind, a.keep) for a in actions] == [(ActionKind.MERGE, first.record.id)] * 2


def test_consolidation_uses_the_write_policys_detection(minilm: MiniLMEmbedder) -> None:
    strict = WritePolicy(detect=False, detection=DetectionPolicy(min_cosine=0.999))
    with Memory.open(":memory:", embedder=minilm, write_policy=strict) as m:
        m.remember_many(ALICE, [NewMemory("I live in Seattle.", valid_from=T0), NewMemory("I moved to Austin.")])
        assert m.consolidate(ALICE) == []
