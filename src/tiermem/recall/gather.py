"""(internal) Gathering candidates: full-text, phrase and vector lists for a query, the one place recall runs work
side by side.

The model touches no database, so it embeds the question on a worker thread while the caller's thread asks the
keyword index (the store's work stays in the caller's thread, which may hold the store's lock inside a
transaction). A vector scan starts as soon as its vector is known: a store may run it while the caller goes on
(``Store.start_vector_candidates``). While the model still runs, the caller's thread also reads what the
relevance floor needs of the scope (its word counts) and, from a store that can (``PreparedVectorScan``), what
the vector scan reads of the store, so the time after the model is the scan and ranking alone. The caller
waits for the model's thread to start before it goes on, so that thread takes the GIL at once.
``ask_store`` is the one function that asks the store for the lists (``Ask`` in, ``Found`` out).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
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

__all__ = ["Ask", "Candidates", "Found", "Gather", "ask_store"]

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
        embedding: Future[list[Vectors]] | None = None,
    ) -> Candidates:
        """The candidate lists of ``query`` in ``scope``; ``query_vector``: the question's vector, if known;
        ``embedding``: the question's vector on its way (``embed_early``)."""
        wanted = filter_ if filter_.as_of is not None or not self.credit_current else including_closed(filter_)
        # The attribute first: a protocol check costs microseconds, and most stores lack the capability.
        if (
            getattr(store, "recall_reads", None) is not None
            and isinstance(store, OneTripRecall)
            and not self.perspective
        ):
            limit = max(self.candidates, k)
            pairs = tuple(query.pairs) if self.phrases else ()
            trip = RecallAsk(scope, wanted, query.now, limit, query.terms, pairs, self.stream_window)
            return _in_one_trip(store, embedder, trip, query, query_vector, embedding)
        usable = embedder is not None and store.vector_fingerprint(scope) == embedder.fingerprint
        model = embedder if usable else None
        english = query.english
        ask = Ask(
            scope,
            wanted,
            query.now,
            max(self.candidates, k),
            query.terms,
            tuple(query.pairs) if self.phrases else (),
            english.names if english is not None else frozenset(),
            model.fingerprint if model is not None else None,
        )
        keyword: list[Candidate] | None = None
        asked_as: str | None = None  # the question in the first person of the speaker it names
        if model is not None and self.perspective and english is not None and english.may_name:
            # The speaker's name is a full-text term, so the full-text list's best records show who is named;
            # asked first, it lets both questions be embedded in one model call.
            keyword = store.keyword_candidates(scope, ask.terms, wanted, now=ask.now, limit=ask.limit)
            asked_as = _asked_as_speaker(store, scope, query.text, keyword[:10])
        vectors = (
            embedding if embedding is not None and model is not None else _vectors(model, query, query_vector, asked_as)
        )
        found = ask_store(store, ask, vectors, keyword)
        return Candidates(
            _with_vector(query, found.vectors[0] if found.vectors else None),
            wanted,
            found.keyword,
            found.phrase,
            found.vector[0] if found.vector else [],
            found.vector[1] if len(found.vector) > 1 else [],
            ask.fingerprint,
            found.weights,
        )

    def embed_early(self, embedder: Embedder | None, text: str, given: Vectors | None) -> Future[list[Vectors]] | None:
        """The question's vector, started before anything is read, so that the model runs beside all of recall's
        reads (None: nothing to embed, or embedded with a speaker's question once the lists name one). Should the
        scope hold another model's vectors, or none, the vector goes unused."""
        if embedder is None or given is not None or self.perspective:
            return None
        started = threading.Lock()
        started.acquire()

        def embed() -> list[Vectors]:
            started.release()
            return list(embed_queries(embedder, [text]))

        future = _MODEL_THREADS.get().submit(embed)
        # Waiting (the GIL released) lets the model's thread take the GIL as soon as it wakes; otherwise it waits
        # until the caller's next query to the store. At most a millisecond, should every thread be busy.
        started.acquire(timeout=0.001)
        return future


def _vectors(
    model: Embedder | None, query: Query, given: Vectors | None, asked_as: str | None
) -> Future[list[Vectors]]:
    """The query's vectors (the question's, then the speaker's question's): the model embeds on a worker thread."""
    done: Future[list[Vectors]] = Future()
    if model is None:
        done.set_result([])
        return done
    known = [given] if given is not None else []
    texts = ([] if given is not None else [query.text]) + ([asked_as] if asked_as else [])
    if not texts:
        done.set_result(known)
        return done
    return _MODEL_THREADS.get().submit(lambda: known + list(embed_queries(model, texts)))


@dataclass(frozen=True, slots=True)
class Ask:
    """What one search asks of the store: where, which records, how many per list, the lists' terms."""

    scope: Scope
    filter: Filter  # closed facts included when credited to their current version
    now: datetime
    limit: int  # candidates per list
    terms: tuple[str, ...]  # the keyword list's terms
    pairs: tuple[str, ...]  # the phrase list's terms (none: no phrase list)
    names: frozenset[str]  # the query's names, for the relevance floor's word counts
    fingerprint: str | None  # the model whose vectors are searched (None: no vector list)


@dataclass(frozen=True, slots=True)
class Found:
    """What the store answered: the lists (best first), the vectors searched, the floor's word counts if read."""

    keyword: list[Candidate]
    phrase: list[Candidate]
    vectors: list[Vectors]
    vector: list[list[Candidate]]  # one list per vector, in ``vectors``' order
    weights: TermWeights | None


def ask_store(store: Store, ask: Ask, vectors: Future[list[Vectors]], keyword: list[Candidate] | None = None) -> Found:
    """Every candidate list of one search from the store: the one function that asks it for them.

    The store's work stays in the caller's thread (which may hold the store's lock inside a transaction) while
    ``vectors`` are computed; a vector scan starts as soon as its vector is known (a store may run it while the
    keyword queries go on), and while the model still runs the relevance floor's word counts are read, then
    the scan's own reads (``PreparedVectorScan``). ``keyword``: the keyword list, when it was asked already.
    """

    def keyword_list(terms: Sequence[str]) -> list[Candidate]:
        return store.keyword_candidates(ask.scope, terms, ask.filter, now=ask.now, limit=ask.limit)

    def scans() -> list[Future[list[Candidate]]]:
        fingerprint = ask.fingerprint
        if fingerprint is None:
            return []
        f, now, limit = ask.filter, ask.now, ask.limit
        return [
            store.start_vector_candidates(ask.scope, v, fingerprint, f, now=now, limit=limit) for v in vectors.result()
        ]

    started = scans() if vectors.done() else None
    if keyword is None:
        keyword = keyword_list(ask.terms)
    if started is None and vectors.done():
        started = scans()
    phrase = keyword_list(ask.pairs) if ask.pairs else []
    weights = None
    if not vectors.done():
        weights = term_weights(store, ask.scope, ask.terms, ask.names)
    if started is None and not vectors.done():
        # The scan's reads while the model still runs, so that once it is done only the scan is left.
        scan = _prepared_scan(store, ask)
        if scan is not None and len(vectors.result()) == 1:
            return Found(keyword, phrase, vectors.result(), [scan(vectors.result()[0])], weights)
    if started is None:
        started = scans()
    return Found(keyword, phrase, vectors.result(), [s.result() for s in started], weights)


def _prepared_scan(store: Store, ask: Ask) -> Callable[[Vectors], list[Candidate]] | None:
    """The vector scan of ``ask`` with its reads of the store done, if the store can (``PreparedVectorScan``)."""
    prepare = getattr(store, "prepare_vector_candidates", None)  # the capability, without a protocol check's cost
    if prepare is None or ask.fingerprint is None:
        return None
    scan: Callable[[Vectors], list[Candidate]] = prepare(
        ask.scope, ask.fingerprint, ask.filter, now=ask.now, limit=ask.limit
    )
    return scan


def _in_one_trip(
    store: OneTripRecall,
    embedder: Embedder | None,
    ask: RecallAsk,
    query: Query,
    given: Vectors | None,
    embedding: Future[list[Vectors]] | None,
) -> Candidates:
    """The lists from a store that reads them, and what ranking reads, at once; the model embeds meanwhile (even
    if the scope turns out to hold another model's vectors: the store says which only with the lists)."""
    if embedding is None and embedder is not None and given is None:
        embedding = _MODEL_THREADS.get().submit(lambda: list(embed_queries(embedder, [query.text])))

    def vector_for(fingerprint: str | None) -> Vectors | None:
        if embedder is None or fingerprint != embedder.fingerprint:
            return None
        return given if embedding is None else embedding.result()[0]

    found = store.recall_reads(ask, vector_for)
    reads = cast(Store, ReadThrough(cast(Store, store), ask.scope, found.prefetched))
    return Candidates(
        _with_vector(query, found.query_vector),
        ask.filter_,
        found.keyword,
        found.phrase,
        found.vector,
        fingerprint=found.fingerprint,
        reads=reads,
    )


def _with_vector(query: Query, vector: Vectors | None) -> Query:
    """``query`` with its vector (``dataclasses.replace`` reads the fields' definitions on every call)."""
    return Query(query.text, query.now, query.terms, query.english, vector)


def _asked_as_speaker(store: Store, scope: Scope, query: str, best: list[Candidate]) -> str | None:
    """The question in the first person of the one speaker among ``best`` it names, if it changes."""
    speaker = named_speaker(query, store.get_many(scope, [c.id for c in best]).values())
    asked_as = first_person(query, speaker) if speaker is not None else None
    return asked_as if asked_as != query else None
