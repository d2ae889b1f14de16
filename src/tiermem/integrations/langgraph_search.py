"""(internal) The adapter's search: tiermem's hybrid recall ranks the items, and each one's score is a similarity.

Ranking. With a query, each scope under the prefix is searched by hybrid recall (full text and vectors, fused,
re-scored) without its credit to current versions: an item's earlier versions neither find it nor lend it
their rank. The items recall does not return (it keeps the best ``MAX_K``; a vector or a word must bring an
item in) follow, by the cosine of their vector to the question (items without one last, newest first), so a
search returns as many items as LangGraph's own stores would. Without a query, items come newest first.

Score. ``SearchItem.score`` is what LangGraph's stores and their users read it as: the cosine similarity of the
question's vector to the item's, 1.0 for the identical text, near 0 for an unrelated one; for an item indexed by
several texts (several fields, or a path that matches several values) the best of its texts, each embedded
alone. None for an item without a vector (``index=False``, or no embedder). Tiermem's own score, relevance,
score parts and flags stay on the ``ScoredItem``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import islice
from typing import Any

import numpy as np
from langgraph.store.base import Item, SearchItem, SearchOp, get_text_at_path

from tiermem.embed import Embedder, EmbedderWrapper, Vectors, embed_queries
from tiermem.integrations.langgraph_filters import matches_filter
from tiermem.integrations.langgraph_items import Place, indexed_by, item_fields, namespace_tag, texts_of
from tiermem.memory import MAX_LIST
from tiermem.recall.policy import RecallPolicy
from tiermem.recall.search import MAX_K, hybrid_recall
from tiermem.store.base import Store
from tiermem.trust.prompt_gate import admit_hits, admitted
from tiermem.types import Filter, Hit, MemoryRecord, Scope, ScorePart

__all__ = ["FlaggedItem", "ScoredItem", "Searcher", "item_of", "live_records", "shown_item"]

# The vectors of the latest texts of multi-text items kept: the same items come back search after search.
_CACHED_TEXTS = 4096


class ScoredItem(SearchItem):
    """A search result: ``score`` is the item's cosine similarity to the question (see the module docstring);
    ``rank_score``, ``relevance``, ``parts`` and ``flags`` are tiermem's hit behind it (None and empty for an
    item recall did not return), ``record_id`` its record."""

    __slots__ = ("flags", "parts", "rank_score", "record_id", "relevance")

    def __init__(self, item: Item, hit: Hit | None, score: float | None, record_id: str | None = None) -> None:
        super().__init__(item.namespace, item.key, item.value, item.created_at, item.updated_at, score)
        self.parts: tuple[ScorePart, ...] = () if hit is None else hit.parts
        self.flags: tuple[str, ...] = () if hit is None else hit.flags
        self.rank_score: float | None = None if hit is None else hit.score
        self.relevance: float | None = None if hit is None else hit.relevance
        self.record_id: str | None = record_id if hit is None else hit.record.id

    def dict(self) -> dict[str, Any]:
        """LangGraph's dict, with tiermem's rank score, relevance, parts, flags and record id."""
        out: dict[str, Any] = super().dict()
        out["rank_score"] = self.rank_score
        out["relevance"] = self.relevance
        out["parts"] = [
            {"name": p.name, "rank": p.rank, "raw": p.raw, "contribution": p.contribution} for p in self.parts
        ]
        out["flags"] = list(self.flags)
        out["record_id"] = self.record_id
        return out


class FlaggedItem(Item):
    """An item ``get`` returns: LangGraph's ``Item``, with the flags the prompt gate gives its record (``suspicious``
    for a note the write gate flagged) and its ``record_id``."""

    __slots__ = ("flags", "record_id")

    def __init__(self, item: Item, flags: tuple[str, ...], record_id: str) -> None:
        super().__init__(
            value=item.value,
            key=item.key,
            namespace=item.namespace,
            created_at=item.created_at,
            updated_at=item.updated_at,
        )
        self.flags = flags
        self.record_id = record_id

    def dict(self) -> dict[str, Any]:
        """LangGraph's dict, with tiermem's flags and record id."""
        out: dict[str, Any] = super().dict()
        out["flags"] = list(self.flags)
        out["record_id"] = self.record_id
        return out


def shown_item(record: MemoryRecord) -> FlaggedItem | None:
    """The item a record holds as a graph may see it: None for a quarantined one (a graph puts ``get``'s value
    into prompts, so the prompt gate withholds it as recall does), else flagged as its stored verdict says."""
    item = item_of(record)
    admitted = admit_hits([Hit(record, 1.0, ())])
    if item is None or not admitted:
        return None
    return FlaggedItem(item, admitted[0].flags, record.id)


def item_of(record: MemoryRecord) -> Item | None:
    """The LangGraph item a record holds (None for a record another writer put in the scope)."""
    fields = item_fields(record)
    if fields is None:
        return None
    namespace, key, value, created = fields
    return Item(value=value, key=key, namespace=namespace, created_at=created, updated_at=record.created_at)


def live_records(store: Store, scope: Scope, tags: Iterable[str], now: datetime) -> Iterator[MemoryRecord]:
    """Live records of ``scope`` carrying any of ``tags``, newest first."""
    filter_ = Filter(tags=frozenset(tags))
    cursor: str | None = None
    while True:
        page = store.list_records(scope, filter_, now=now, limit=MAX_LIST, cursor=cursor)
        yield from page.records
        if page.next_cursor is None:
            return
        cursor = page.next_cursor


@dataclass(frozen=True, slots=True)
class _Found:
    record: MemoryRecord
    item: Item
    hit: Hit | None


class _QueryTap(EmbedderWrapper):
    """An embedder that keeps the question's vector recall computes, so the score needs no second model call."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.vector: Vectors | None = None

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        vectors = embed_queries(self.inner, texts)
        if self.vector is None and len(vectors):  # recall embeds the question first (then its speaker's form)
            self.vector = vectors[0]
        return vectors


class Searcher:
    """Runs a ``SearchOp`` over the places its prefix covers (see the module docstring)."""

    def __init__(self, store: Store, embedder: Embedder | None) -> None:
        self.store = store
        self.embedder = embedder
        self._texts: OrderedDict[tuple[str, str], Vectors] = OrderedDict()
        self._lock = threading.Lock()
        self._policy: tuple[RecallPolicy, RecallPolicy] | None = None  # the last policy given, and without credit

    def search(
        self, op: SearchOp, places: Sequence[Place], now: datetime, policy: RecallPolicy
    ) -> list[tuple[MemoryRecord, ScoredItem]]:
        """The page of items ``op`` asks for, ranked by ``policy``, with the records they come from."""
        if not op.query:  # a listing a graph hands its model too: what the prompt gate withholds, it leaves out
            found = (
                _Found(r, i, None)
                for r, i in self._items(places, now)
                if matches_filter(i.value, op.filter) and admitted(r)
            )
            return [
                (f.record, ScoredItem(f.item, None, None, f.record.id))
                for f in islice(found, op.offset, op.offset + op.limit)
            ]
        with ExitStack() as pins:  # one read of each scope's state serves its recall and the scores after it
            for scope in dict.fromkeys(p.scope for p in places):
                pins.enter_context(self.store.pinned(scope))
            return self._query(op, op.query, places, now, policy)

    def _query(
        self, op: SearchOp, query: str, places: Sequence[Place], now: datetime, policy: RecallPolicy
    ) -> list[tuple[MemoryRecord, ScoredItem]]:
        """``search`` with ``query`` (``op``'s): recall's hits, then the rest of the items nearest first."""
        tap = _QueryTap(self.embedder) if self.embedder is not None else None
        query_vector = embed_queries(self.embedder, [query])[0] if self.embedder and len(places) > 1 else None
        ranked = self._recalled(places, op, now, policy, tap, query_vector)
        wanted = op.offset + op.limit
        if len(ranked) < wanted:  # the rest of the items under the prefix, nearest first
            seen = {(f.item.namespace, f.item.key) for f in ranked}
            # Recall leaves quarantined notes out (the prompt gate's rule): so do the items that follow its hits.
            others = (
                _Found(r, i, None)
                for r, i in self._items(places, now)
                if (i.namespace, i.key) not in seen and matches_filter(i.value, op.filter) and admitted(r)
            )
            if self.embedder is None:  # nothing to compare: newest first, and no more of them read than needed
                ranked += islice(others, wanted - len(ranked))
            else:
                rest = list(others)
                ranked += self._nearest(rest, self._question(query, query_vector, tap, rest))[: wanted - len(ranked)]
        page = ranked[op.offset : wanted]
        question = self._question(query, query_vector, tap, page)
        scores = self._similarities(page, question)
        return [(f.record, ScoredItem(f.item, f.hit, s, f.record.id)) for f, s in zip(page, scores, strict=True)]

    def _items(self, places: Sequence[Place], now: datetime) -> Iterator[tuple[MemoryRecord, Item]]:
        for place in places:
            for record in live_records(self.store, place.scope, [namespace_tag(place.rest)], now):
                item = item_of(record)
                if item is not None:
                    yield record, item

    def _recalled(
        self,
        places: Sequence[Place],
        op: SearchOp,
        now: datetime,
        policy: RecallPolicy,
        tap: _QueryTap | None,
        vector: Vectors | None,
    ) -> list[_Found]:
        """Hybrid recall's hits in each place, best first, as items that pass the filter (one per key)."""
        query = op.query or ""
        k = MAX_K if op.filter else max(1, min(MAX_K, op.offset + op.limit))
        # An item's earlier versions (closed when it was put again) are not candidates: they neither find it by its
        # old text nor lend it their rank (recall's credit to a current version).
        policy = self._without_credit(policy)
        hits: list[Hit] = []
        for place in places:
            filter_ = Filter(tags=frozenset({namespace_tag(place.rest)}))
            hits += hybrid_recall(
                self.store,
                tap,
                place.scope,
                query,
                k=k,
                filter_=filter_,
                now=now,
                policy=policy,
                query_vector=vector,
            )
        hits.sort(key=lambda h: h.score, reverse=True)
        out: list[_Found] = []
        seen: set[tuple[tuple[str, ...], str]] = set()
        for hit in hits:
            item = item_of(hit.record)
            if item is None or (item.namespace, item.key) in seen or not matches_filter(item.value, op.filter):
                continue
            seen.add((item.namespace, item.key))
            out.append(_Found(hit.record, item, hit))
        return out

    def _without_credit(self, policy: RecallPolicy) -> RecallPolicy:
        """``policy`` without its credit to current versions, made once per policy the searches are given."""
        kept = self._policy
        if kept is None or kept[0] is not policy:
            kept = self._policy = (policy, replace(policy, credit_current=False))
        return kept[1]

    def _question(
        self, query: str, given: Vectors | None, tap: _QueryTap | None, found: Sequence[_Found]
    ) -> Vectors | None:
        """The question's vector: the one recall computed, else embedded now if an item has a vector to compare."""
        if given is not None:
            return given
        if tap is not None and tap.vector is not None:
            return tap.vector
        embedder = self.embedder
        if embedder is None or not any(f.record.embedding_model == embedder.fingerprint for f in found):
            return None
        vector: Vectors = embed_queries(embedder, [query])[0]
        if tap is not None:
            tap.vector = vector
        return vector

    def _nearest(self, found: list[_Found], question: Vectors | None) -> list[_Found]:
        """``found`` by the cosine of each record's own vector to the question, those without one last."""
        cosines = self._stored_cosines([f.record for f in found], question)
        order = sorted(range(len(found)), key=lambda j: (cosines[j] is None, -(cosines[j] or 0.0)))
        return [found[j] for j in order]

    def _similarities(self, found: Sequence[_Found], question: Vectors | None) -> list[float | None]:
        """Each item's similarity to the question: the best cosine of its texts (see the module docstring)."""
        out = self._stored_cosines([f.record for f in found], question)
        if question is None or self.embedder is None:
            return out
        for j, f in enumerate(found):
            fields = indexed_by(f.record)
            if out[j] is None or not fields:
                continue
            texts = texts_of(f.item.value, fields, get_text_at_path)
            if len(texts) > 1:
                out[j] = float(np.max(self._text_vectors(texts) @ np.asarray(question, dtype=np.float32)))
        return out

    def _stored_cosines(self, records: Sequence[MemoryRecord], question: Vectors | None) -> list[float | None]:
        """The cosine of each record's stored vector to the question (None: no vector of this embedder)."""
        if question is None or self.embedder is None:
            return [None] * len(records)
        fingerprint = self.embedder.fingerprint
        by_scope: dict[Scope, list[str]] = {}
        for r in records:
            if r.embedding_model == fingerprint:
                by_scope.setdefault(Scope(r.scope.tenant, r.scope.user), []).append(r.id)
        stored: dict[str, Vectors] = {}
        for scope, ids in by_scope.items():
            stored.update(self.store.vectors_of(scope, ids))
        q = np.asarray(question, dtype=np.float32).reshape(-1)
        return [float(np.dot(stored[r.id], q)) if r.id in stored else None for r in records]

    def _text_vectors(self, texts: Sequence[str]) -> Vectors:
        """The texts' vectors, each embedded alone (the latest ones kept)."""
        assert self.embedder is not None  # only asked with a question vector
        fingerprint = self.embedder.fingerprint
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if (fingerprint, t) not in self._texts]
        if missing:
            vectors = self.embedder.embed_batch(missing)
            with self._lock:
                for text, vector in zip(missing, vectors, strict=True):
                    self._texts[(fingerprint, text)] = vector
                    self._texts.move_to_end((fingerprint, text))
                while len(self._texts) > _CACHED_TEXTS:
                    self._texts.popitem(last=False)
        with self._lock:
            found = {t: self._texts.get((fingerprint, t)) for t in texts}
        rows = [v if v is not None else self.embedder.embed_batch([t])[0] for t, v in found.items()]
        return np.stack(rows).astype(np.float32, copy=False)
