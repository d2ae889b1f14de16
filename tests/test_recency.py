"""Recency is off by default (it reordered relevant answers) and reorders only when a policy asks for it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.recall.factors import Recency
from tiermem.recall.search import RecallPolicy, rank
from tiermem.store.base import Candidate
from tiermem.types import Hit, MemoryType

ALICE = Scope("acme", "alice")
NOW = datetime(2025, 6, 1, tzinfo=UTC)


def _old_and_new(mem: Memory) -> tuple[str, str]:
    """A year-old event ranked first by both lists and a day-old one ranked second; returns (old, new) ids."""
    event = MemoryType.EPISODIC
    old, new = mem.remember_many(
        ALICE,
        [
            NewMemory("Hiked the ridge trail with Sam.", type=event, valid_from=NOW - timedelta(days=365)),
            NewMemory("Walked the river path with Sam.", type=event, valid_from=NOW - timedelta(days=1)),
        ],
    )
    return old.record.id, new.record.id


def _ranked(mem: Memory, old: str, new: str, policy: RecallPolicy) -> list[Hit]:
    cands = [Candidate(old, 2.0), Candidate(new, 1.0)]
    lists = policy.fusion().lists(keyword=cands, vector=cands)
    return rank(mem.store, ALICE, lists, k=2, now=NOW, policy=policy, query="walks with Sam")


def _order(mem: Memory, old: str, new: str, policy: RecallPolicy) -> list[str]:
    return [h.record.id for h in _ranked(mem, old, new, policy)]


def test_recency_is_off_by_default_so_age_does_not_reorder(mem: Memory) -> None:
    old, new = _old_and_new(mem)
    assert Recency().weight == 0.0 and Recency() in RecallPolicy().factors
    assert _order(mem, old, new, RecallPolicy()) == [old, new]


def test_recency_weight_ranks_the_newer_of_close_records_first_when_asked(mem: Memory) -> None:
    old, new = _old_and_new(mem)
    assert _order(mem, old, new, replace(RecallPolicy(), recency_weight=0.1)) == [new, old]


def test_recency_part_explains_the_factor_used(mem: Memory) -> None:
    old, new = _old_and_new(mem)
    for weight in (0.0, 0.1):
        hits = _ranked(mem, old, new, replace(RecallPolicy(), recency_weight=weight))
        part = next(p for p in hits[0].parts if p.name == "recency")
        assert part.raw is not None and 0.0 < part.raw <= 1.0
        assert part.contribution == pytest.approx(1.0 + weight * part.raw)
