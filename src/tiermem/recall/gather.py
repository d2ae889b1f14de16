"""(internal) Gathering candidates: full-text, phrase and vector lists for a query, the one place recall runs work
side by side.

The model touches no database, so it embeds the question on a worker thread while the caller's thread asks the
keyword index (the store's work stays in the caller's thread, which may hold the store's lock inside a
transaction). A vector scan starts as soon as its vector is known: a store may run it while the caller goes on
(``Store.start_vector_candidates``). While the model still runs, the caller's thread also reads what the
relevance floor needs of the scope (its word counts), so the time after the model is ranking alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import cast

from tiermem.embed import Embedder, Vectors, embed_queries
from tiermem.english.perspective import first_person
from tiermem.recall.factors import named_speaker
from tiermem.recall.query import Query
from tiermem.recall.relevance import TermWeights, term_weights
from tiermem.store.base import Candidate, Store
from tiermem.store.recall_reads import OneTripRecall, ReadThrough, RecallAsk
from tiermem.threads import LazyPool
from tiermem.types import Filter, Scope, including_closed

__all__ = ["Candidates", "Gather"]

_MODEL_THREADS = LazyPool("tiermem-embed")  # query embeddings, beside the caller's keyword queries


@dataclass(frozen=True, slots=True)
class Candidates:
    """What gathering found: each signal's candidates (best first), the query with its vector, and what else was
    read while the model ran."""

    query: Query
    wanted: Filter  # the filter the candidates were asked with (closed facts included when credited)
    keyword: list[Candidate]
    phrase: list[Candidate]
    vector: list[Candidate] = field(default_factory=list)
    perspective: list[Candidate] = field(default_factory=list)  # the speaker's first-person question's list
    fingerprint: str | None = None  # the model whose vectors were searched (None: no vector search)
    weights: TermWeights | None = None  # the relevance floor's word counts, when read while the model ran
    reads: Store | None = None  # the store as ranking should read it: from what gathering fetched, if it did


@dataclass(frozen=True, slots=True)
class Gather:
    """How many candidates each signal proposes, and which signals ask (see ``RecallPolicy``)."""

    candidates: int = 50
    phrases: bool = True  # adjacent query words as phrases, a third list
    perspective: bool = False  # a question naming a speaker also asked in their first person, a fourth list
    credit_current: bool = True  # closed facts are candidates too, to hand their match to their current version
    stream_window: int = 15  # session evidence's window, for a store that reads write places with the lists

    def __call__(
        self,
        store: Store,
        embedder: Embedder | None,
        scope: Scope,
        query: Query,
        filter_: Filter,
        *,
        k: int,
        query_vector: Vectors | None = None,
    ) -> Candidates:
        """The candidate lists of ``query`` in ``scope``; ``query_vector``: the question's vector, if known."""
        limit = max(self.candidates, k)
        wanted = filter_ if filter_.as_of is not None or not self.credit_current else including_closed(filter_)
        now = query.now
        if isinstance(store, OneTripRecall) and not self.perspective:
            return _in_one_trip(store, embedder, RecallAsk(
                scope, wanted, now, limit, query.terms, tuple(query.pairs if self.phrases else ()), self.stream_window
            ), query, query_vector)  # fmt: skip

        def keyword_list(terms: Sequence[str]) -> list[Candidate]:
            return store.keyword_candidates(scope, terms, wanted, now=now, limit=limit)

        keyword: list[Candidate] | None = None
        asked_as: str | None = None  # the question in the first person of the speaker it names
        usable = embedder is not None and store.vector_fingerprint(scope) == embedder.fingerprint
        model = embedder if usable else None
        english = query.english
        if model is not None and self.perspective and english is not None and english.may_name:
            # The speaker's name is a full-text term, so the full-text list's best records show who is named;
            # asked first, it lets both questions be embedded in one model call.
            keyword = keyword_list(query.terms)
            asked_as = _asked_as_speaker(store, scope, query.text, keyword[:10])
        scans = _Scans(store, scope, wanted, limit, query, model, query_vector, asked_as)
        if keyword is None:
            keyword = keyword_list(query.terms)
        scans.start_if_ready()
        pairs = query.pairs if self.phrases else []
        phrase = keyword_list(pairs) if pairs else []
        # While the model still runs, this thread reads the relevance floor's word counts instead of waiting.
        weights = None
        if scans.embedding is not None and not scans.embedding.done():
            weights = term_weights(store, scope, query.terms, english.names if english is not None else frozenset())
        vector, perspective = scans.results()
        return Candidates(
            replace(query, vector=scans.vectors[0] if scans.vectors else None),
            wanted,
            keyword,
            phrase,
            vector,
            perspective,
            model.fingerprint if model is not None else None,
            weights,
        )


class _Scans:
    """The query's vector scans: the model embeds on a worker thread, each scan starts once its vector is known."""

    def __init__(
        self,
        store: Store,
        scope: Scope,
        filter_: Filter,
        limit: int,
        query: Query,
        model: Embedder | None,
        given: Vectors | None,
        asked_as: str | None,
    ) -> None:
        self._store, self._scope, self._filter, self._limit, self._now = store, scope, filter_, limit, query.now
        self._model, self._given = model, given
        texts = ([] if given is not None else [query.text]) + ([asked_as] if asked_as else [])
        self.embedding: Future[Vectors] | None = None
        if model is not None and texts:
            self.embedding = _MODEL_THREADS.get().submit(embed_queries, model, texts)
        self.vectors: list[Vectors] = []  # the question's, then the speaker's question's, once known
        self._searches: list[Future[list[Candidate]]] | None = None
        if model is not None and self.embedding is None:  # every vector given: the scans start at once
            self._start()

    def start_if_ready(self) -> None:
        """Start the scans if the model has finished (a store may scan while the caller asks for phrases)."""
        if self._searches is None and self.embedding is not None and self.embedding.done():
            self._start()

    def results(self) -> tuple[list[Candidate], list[Candidate]]:
        """The question's vector candidates and the speaker's question's (empty without a model)."""
        if self._model is None:
            return [], []
        if self._searches is None:
            self._start()
        searches = self._searches or []
        vector = searches[0].result() if searches else []
        perspective = searches[1].result() if len(searches) > 1 else []
        return vector, perspective

    def _start(self) -> None:
        if self._model is None:
            return
        given = [self._given] if self._given is not None else []
        self.vectors = given + list(self.embedding.result() if self.embedding is not None else [])
        fingerprint = self._model.fingerprint
        self._searches = [
            self._store.start_vector_candidates(
                self._scope, v, fingerprint, self._filter, now=self._now, limit=self._limit
            )
            for v in self.vectors
        ]


def _in_one_trip(
    store: OneTripRecall, embedder: Embedder | None, ask: RecallAsk, query: Query, given: Vectors | None
) -> Candidates:
    """The lists from a store that reads them, and what ranking reads, at once; the model embeds meanwhile (even
    if the scope turns out to hold another model's vectors: the store says which only with the lists)."""
    embedding = None
    if embedder is not None and given is None:
        embedding = _MODEL_THREADS.get().submit(embed_queries, embedder, [query.text])

    def vector_for(fingerprint: str | None) -> Vectors | None:
        if embedder is None or fingerprint != embedder.fingerprint:
            return None
        return given if embedding is None else embedding.result()[0]

    found = store.recall_reads(ask, vector_for)
    reads = cast(Store, ReadThrough(cast(Store, store), ask.scope, found.prefetched))
    return Candidates(
        replace(query, vector=found.query_vector),
        ask.filter_,
        found.keyword,
        found.phrase,
        found.vector,
        fingerprint=found.fingerprint,
        reads=reads,
    )


def _asked_as_speaker(store: Store, scope: Scope, query: str, best: list[Candidate]) -> str | None:
    """The question in the first person of the one speaker among ``best`` it names, if it changes."""
    speaker = named_speaker(query, store.get_many(scope, [c.id for c in best]).values())
    asked_as = first_person(query, speaker) if speaker is not None else None
    return asked_as if asked_as != query else None
