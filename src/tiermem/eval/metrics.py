"""(internal) Retrieval metrics as pure functions over ranked id lists, plus a per-group averager.

Every function takes ``ranked`` (ids best first, no repeats) and ``gold`` (the relevant ids). nDCG follows
LongMemEval's own retrieval script (``src/retrieval/eval_utils.py``): binary relevance, DCG = rel_1 +
sum_{r>=2} rel_r / log2(r) over the top k, ideal DCG from min(k, |gold|) relevant items at the top.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from tiermem.errors import ValidationError
from tiermem.types import utcnow

__all__ = [
    "Averager",
    "all_at_k",
    "day_after_last",
    "dcg",
    "flatten_ranking",
    "latency_json",
    "ndcg_at_k",
    "percentile",
    "rank_sessions",
    "recall_all",
    "recall_any",
    "recall_at_k",
    "session_recall_at_k",
]


def _check(gold: Collection[str], k: int) -> None:
    if k < 1:
        raise ValidationError("k", "must be at least 1", given=k)
    if not gold:
        raise ValidationError("gold", "must not be empty: a question without evidence cannot be scored")


def recall_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """Fraction of the gold ids found in the top k: |top-k ∩ gold| / |gold|."""
    _check(gold, k)
    gold_set = set(gold)
    return len(gold_set.intersection(ranked[:k])) / len(gold_set)


def all_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 when every gold id is in the top k, else 0.0."""
    _check(gold, k)
    return float(set(gold).issubset(ranked[:k]))


def recall_any(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 when at least one gold id is in the top k, else 0.0 (LongMemEval's recall_any@k)."""
    _check(gold, k)
    return float(not set(gold).isdisjoint(ranked[:k]))


def recall_all(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 when all gold ids are in the top k, else 0.0 (LongMemEval's recall_all@k)."""
    return all_at_k(ranked, gold, k)


def dcg(relevances: Sequence[float], k: int) -> float:
    """Discounted cumulative gain of the first k relevances: rel_1 + sum_{r>=2} rel_r / log2(r)."""
    head = relevances[:k]
    if not head:
        return 0.0
    return float(head[0]) + sum(rel / math.log2(rank) for rank, rel in enumerate(head[1:], start=2))


def ndcg_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """Binary-relevance nDCG@k, normalised by min(k, |gold|) relevant items ranked first."""
    _check(gold, k)
    gold_set = set(gold)
    actual = dcg([1.0 if doc in gold_set else 0.0 for doc in ranked[:k]], k)
    ideal = dcg([1.0] * min(k, len(gold_set)), k)
    return actual / ideal


def rank_sessions(ranked_turns: Iterable[str], session_of: Mapping[str, str]) -> list[str]:
    """Sessions in the order of their first (best) turn in the turn ranking."""
    seen: dict[str, None] = {}
    for turn in ranked_turns:
        try:
            seen.setdefault(session_of[turn], None)
        except KeyError:
            raise ValidationError("ranked_turns", "names a turn with no known session", given=turn) from None
    return list(seen)


def flatten_ranking(groups: Iterable[Iterable[str]]) -> list[str]:
    """Concatenate ranked groups of ids (one per hit), keeping only each id's first occurrence."""
    seen: dict[str, None] = {}
    for group in groups:
        for item in group:
            seen.setdefault(item, None)
    return list(seen)


def day_after_last(times: Iterable[datetime]) -> datetime:
    """When a user asks about a conversation: a day after its last turn ("yesterday" is that day), else now."""
    last = max(times, default=None)
    return last + timedelta(days=1) if last is not None else utcnow()


def session_recall_at_k(
    ranked_turns: Sequence[str], gold_sessions: Collection[str], session_of: Mapping[str, str], k: int
) -> float:
    """Fraction of gold sessions that at least one of the top-k turns comes from."""
    _check(gold_sessions, k)
    gold_set = set(gold_sessions)
    return len(gold_set.intersection(rank_sessions(ranked_turns[:k], session_of))) / len(gold_set)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation between closest ranks (numpy's default)."""
    if not values:
        raise ValidationError("values", "must not be empty")
    if not 0 <= q <= 100:
        raise ValidationError("q", "must be within 0..100", given=q)
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def latency_json(query_ms: Sequence[float]) -> dict[str, float | None]:
    """A run's query latency for its JSON report: p50 and p95 in ms, None for a run that asked nothing."""
    return {
        "query_ms_p50": percentile(query_ms, 50) if query_ms else None,
        "query_ms_p95": percentile(query_ms, 95) if query_ms else None,
    }


class Averager:
    """Running means of named metrics, overall and per group (category, question type)."""

    def __init__(self) -> None:
        self._sums: dict[str | None, dict[str, float]] = {}
        self._counts: dict[str | None, dict[str, int]] = {}
        self._items: dict[str | None, int] = {}

    def add(self, group: str, scores: Mapping[str, float]) -> None:
        """Record one item's scores under ``group`` and overall."""
        for key in (None, group):
            self._items[key] = self._items.get(key, 0) + 1
            sums = self._sums.setdefault(key, {})
            counts = self._counts.setdefault(key, {})
            for name, value in scores.items():
                sums[name] = sums.get(name, 0.0) + value
                counts[name] = counts.get(name, 0) + 1

    def count(self, group: str | None = None) -> int:
        """How many items were added (overall, or in ``group``)."""
        return self._items.get(group, 0)

    def means(self, group: str | None = None) -> dict[str, float]:
        """Mean of each metric (overall when ``group`` is None)."""
        sums = self._sums.get(group, {})
        counts = self._counts.get(group, {})
        return {name: sums[name] / counts[name] for name in sums}

    def groups(self) -> list[str]:
        """The groups seen, sorted."""
        return sorted(key for key in self._items if key is not None)
