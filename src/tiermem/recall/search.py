"""Hybrid recall: the entry points of ``recall.pipeline`` for a policy (``hybrid_recall``, and ``rank`` of lists).

``Memory.recall`` and the context window call ``hybrid_recall``; ``recall.pipeline`` holds the steps.
"""

from __future__ import annotations

from datetime import datetime

from tiermem.embed import Embedder, Vectors
from tiermem.recall.fusion import Lists
from tiermem.recall.pipeline import SHORTLIST_SPAN, Pipeline
from tiermem.recall.policy import RecallPolicy
from tiermem.recall.query import MAX_K, MAX_QUERY_CHARS, parse_query, query_terms
from tiermem.store.base import Store
from tiermem.types import Filter, Hit, Scope

__all__ = ["MAX_K", "MAX_QUERY_CHARS", "SHORTLIST_SPAN", "RecallPolicy", "hybrid_recall", "query_terms", "rank"]


def hybrid_recall(
    store: Store,
    embedder: Embedder | None,
    scope: Scope,
    query: str,
    *,
    k: int,
    filter_: Filter,
    now: datetime,
    policy: RecallPolicy | None = None,
    query_vector: Vectors | None = None,
    include_quarantined: bool = False,
) -> list[Hit]:
    """The k best records for ``query`` in ``scope``, each with its score parts (quarantined notes left out)."""
    return _pipeline(policy or _DEFAULT).recall(
        store,
        embedder,
        scope,
        query,
        k=k,
        filter_=filter_,
        now=now,
        query_vector=query_vector,
        include_quarantined=include_quarantined,
    )


_DEFAULT = RecallPolicy()
_PIPELINES: dict[int, tuple[RecallPolicy, Pipeline]] = {}  # by the policy object: it is immutable


def _pipeline(policy: RecallPolicy) -> Pipeline:
    """``Pipeline.of(policy)``, made once per policy object (a memory asks with its own on every recall)."""
    # Keyed by the object's identity and holding the object, so the identity cannot be reused while kept.
    made = _PIPELINES.get(id(policy))
    if made is not None and made[0] is policy:
        return made[1]
    pipeline = Pipeline.of(policy)
    if len(_PIPELINES) >= 64:
        _PIPELINES.clear()
    _PIPELINES[id(policy)] = (policy, pipeline)
    return pipeline


def rank(
    store: Store,
    scope: Scope,
    lists: Lists,
    *,
    k: int,
    now: datetime,
    policy: RecallPolicy | None = None,
    query: str = "",
    filter_: Filter | None = None,
    include_quarantined: bool = False,
) -> list[Hit]:
    """The k best of ``lists`` fused, re-scored by the policy's stages, newer facts first, with their parts.

    A note the write path quarantined is left out unless ``include_quarantined`` (then the quarantine guard
    demotes and flags it).
    """
    return Pipeline.of(policy or RecallPolicy()).rank(
        store, scope, parse_query(query, now), lists, k=k, filter_=filter_, include_quarantined=include_quarantined
    )
