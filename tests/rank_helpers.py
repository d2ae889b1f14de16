"""Ranking given candidate lists, as recall's re-scoring tests need it."""

from __future__ import annotations

from datetime import UTC, datetime

from tiermem import Memory, Scope
from tiermem.recall.search import RecallPolicy, rank
from tiermem.store.base import Candidate
from tiermem.types import Hit

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def listed(ids: list[str]) -> list[Candidate]:
    """``ids`` as a candidate list ranked first to last, with scores 1, 1/2, 1/3..."""
    return [Candidate(rid, 1.0 / r) for r, rid in enumerate(ids, start=1)]


def ranked(
    mem: Memory, scope: Scope, keyword: list[str], vector: list[str], policy: RecallPolicy, query: str, k: int = 3
) -> list[Hit]:
    """The k best of a keyword and a vector list in these orders, re-scored by ``policy`` for ``query``."""
    lists = policy.fusion().lists(keyword=listed(keyword), vector=listed(vector))
    return rank(mem.store, scope, lists, k=k, now=NOW, policy=policy, query=query)
