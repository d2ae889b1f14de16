"""Hybrid recall: gather full-text and vector candidates, fuse them, re-score the best by the policy's factors.

Fusion lives in ``recall.fusion``, the factors in ``recall.factors``, the newer-facts-first pass in
``recall.newer``; this module gathers the candidates, chooses how many fused records to re-score, and hands a
closed fact's rank to its current version.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from concurrent.futures import Future
from datetime import datetime

from tiermem.embed import Embedder, Vectors, embed_queries
from tiermem.english.language import looks_english
from tiermem.english.perspective import first_person
from tiermem.errors import ValidationError
from tiermem.recall.current import current_versions
from tiermem.recall.factors import Question, named_speaker
from tiermem.recall.fusion import FusedList, Lists, fuse
from tiermem.recall.neighbours import with_neighbour_evidence
from tiermem.recall.newer import newer_facts_first
from tiermem.recall.policy import RecallPolicy
from tiermem.recall.relevance import calibration_for, term_weights, with_relevance
from tiermem.recall.sessions import rerank_depth, stream_places, with_session_evidence
from tiermem.store.base import Candidate, Store
from tiermem.text_index import query_words
from tiermem.threads import LazyPool
from tiermem.trust.injection import ScanLevel, stored_level
from tiermem.types import Filter, Hit, MemoryRecord, Scope, ScorePart, including_closed

__all__ = ["MAX_K", "MAX_QUERY_CHARS", "SHORTLIST_SPAN", "RecallPolicy", "hybrid_recall", "query_terms", "rank"]

MAX_K = 100
MAX_QUERY_CHARS = 4000
_MAX_TERMS = 48
_TIE_BREAK = 1e-4  # far below the gap between two adjacent reciprocal ranks (about 1/3700 at rank 60)
SHORTLIST_SPAN = 2.5
"""Re-scoring that moves a record at most this many times against another needs only a short list of the best
fused records (``max(3k, k + 20)``): trust (floor 0.5) and a named speaker (0.9) move it 2.2 times. When the
factors' spans multiply to more (a question about the user, or naming a day, or a factor that cannot bound its
reach), every candidate is re-scored. 2.5 draws that line where the default factors always drew it."""

# Function words carry no topic; dropping them keeps the OR-query's candidate set small and on topic.
_STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves s t don didn doesn isn wasn weren won ll ve re d m o y""".split()
)
_WORD = re.compile(r"\w+", re.UNICODE)
_MODEL_THREADS = LazyPool("tiermem-embed")  # query embeddings, beside the caller's keyword queries


def query_terms(text: str) -> list[str]:
    """Words of ``text`` usable as full-text terms: any input is safe, stop words dropped when others remain.

    The words are the index's own (``text_index.query_words``): folded before they are split, so a letter whose
    case-folding adds a mark stays one word, and Chinese or Japanese runs become the pairs the index holds.
    """
    words = query_words(text)
    content = [w for w in words if w not in _STOP_WORDS]
    chosen = content or words
    return list(dict.fromkeys(chosen))[:_MAX_TERMS]


def _check(query: str, k: int) -> None:
    if not isinstance(query, str):
        raise ValidationError("query", "must be a string", given=type(query).__name__)
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationError("query", "is too long", given=f"{len(query)} characters", limit=MAX_QUERY_CHARS)
    if not isinstance(k, int) or isinstance(k, bool) or k < 1 or k > MAX_K:
        raise ValidationError("k", f"must be an integer from 1 to {MAX_K}", given=k, limit=MAX_K)


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
    _check(query, k)
    policy = policy or RecallPolicy()
    if now.tzinfo is None:  # ages, validity and the days a question names are compared with stored UTC times
        raise ValidationError("now", "must be timezone-aware", given=now.isoformat())
    if not query.strip():
        return []
    limit = max(policy.candidates, k)
    # Facts a newer record closed are candidates too: their match is credited to it (see rank).
    wanted = filter_ if filter_.as_of is not None or not policy.credit_current else including_closed(filter_)
    terms = query_terms(query)
    keyword: list[Candidate] | None = None
    asked_as: str | None = None  # the question in the first person of the speaker it names (see RecallPolicy)
    vectors_usable = embedder is not None and store.vector_fingerprint(scope) == embedder.fingerprint
    if vectors_usable and policy.perspective_weight > 0 and _may_name(query) and looks_english(query):
        # The speaker's name is a full-text term, so the full-text list's best records show who is named; asked
        # first, it lets both questions be embedded in one model call.
        keyword = store.keyword_candidates(scope, terms, wanted, now=now, limit=limit)
        asked_as = _asked_as_speaker(store, scope, query, keyword[:10])
    model = embedder if vectors_usable else None
    texts = ([] if query_vector is not None else [query]) + ([asked_as] if asked_as else [])
    # The model touches no database, so it embeds on a worker thread while this one asks the keyword index: the
    # store's work stays in the caller's thread, which may hold the store's lock inside a transaction.
    embedding = _MODEL_THREADS.get().submit(embed_queries, model, texts) if model is not None and texts else None
    vectors: list[Vectors] = []  # the question's, then the speaker's question's, once known
    searches: list[Future[list[Candidate]]] = []

    def search_vectors(model: Embedder) -> tuple[list[Vectors], list[Future[list[Candidate]]]]:
        found = ([query_vector] if query_vector is not None else []) + list(embedding.result() if embedding else [])
        fp = model.fingerprint
        return found, [store.start_vector_candidates(scope, v, fp, wanted, now=now, limit=limit) for v in found]

    # A store may scan vectors while a keyword query runs: the scans start as soon as their vectors are known.
    if model is not None and embedding is None:
        vectors, searches = search_vectors(model)
    if keyword is None:
        keyword = store.keyword_candidates(scope, terms, wanted, now=now, limit=limit)
    if model is not None and embedding is not None and embedding.done():
        vectors, searches = search_vectors(model)
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(terms)] if policy.phrase_weight > 0 else []
    phrase = store.keyword_candidates(scope, pairs, wanted, now=now, limit=limit) if pairs else []
    # While the model still runs, this thread reads the relevance floor's word counts instead of waiting.
    weights = term_weights(store, scope, terms, query) if embedding is not None and not embedding.done() else None
    if model is not None and not vectors:
        vectors, searches = search_vectors(model)
    qv = vectors[0] if vectors else None
    vector = searches[0].result() if searches else []
    perspective = searches[1].result() if len(searches) > 1 else []
    lists = policy.weighted(keyword=keyword, vector=vector, phrase=phrase, perspective=perspective)
    hits = rank(
        store,
        scope,
        lists,
        k=k,
        now=now,
        policy=policy,
        query=query,
        filter_=wanted,
        include_quarantined=include_quarantined,
    )
    fingerprint = model.fingerprint if model is not None else None
    hits = with_relevance(
        store,
        scope,
        terms,
        hits,
        query_vector=qv,
        calibration=calibration_for(fingerprint),
        query=query,
        weights=weights,
    )
    floor = policy.min_relevance
    return hits if floor is None else [h for h in hits if h.relevance is not None and h.relevance >= floor]


def _may_name(query: str) -> bool:
    """Whether a word after the first is capitalised (a name), so looking for speakers may pay."""
    return any(w[:1].isupper() and w != "I" for w in _WORD.findall(query)[1:])


def _asked_as_speaker(store: Store, scope: Scope, query: str, best: list[Candidate]) -> str | None:
    """The question in the first person of the one speaker among ``best`` it names, if it changes."""
    speaker = named_speaker(query, store.get_many(scope, [c.id for c in best]).values())
    asked_as = first_person(query, speaker) if speaker is not None else None
    return asked_as if asked_as != query else None


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
    """The k best of ``lists`` fused, re-scored by the policy's factors, newer facts first, with their parts.

    A note the write path quarantined is left out unless ``include_quarantined`` (then the quarantine guard
    demotes and flags it).
    """
    policy = policy or RecallPolicy()
    fused = fuse(lists, depth=max(policy.candidates, k), rrf_k=policy.rrf_k)
    if not fused.scores:
        return []
    question = Question(query, now, policy)
    reach = math.prod(factor.span(question) for factor in (*policy.factors, *policy.guards))
    size = len(fused.scores) if reach > SHORTLIST_SPAN else max(3 * k, k + 20)
    shortlist = fused.best(size)
    records = store.get_many(scope, shortlist)
    credited: set[str] = set()
    if filter_ is not None and filter_.with_closed:
        shortlist, credited = _credit_current(store, scope, shortlist, records, fused, filter_, now)
    factored = [(factor.flag, factor.parts(question, records)) for factor in policy.factors]
    hits: list[Hit] = []
    for rid in shortlist:
        record = records.get(rid)
        if record is None:  # deleted between candidate and fetch
            continue
        if not include_quarantined and stored_level(record) is ScanLevel.QUARANTINE:
            continue
        # Reciprocal ranks tie often (1st + 2nd = 2nd + 1st); the vector's cosine breaks such ties.
        cosine = fused.raw(rid, "vector") or 0.0
        score = fused.scores[rid] / fused.best_possible + _TIE_BREAK * cosine
        parts = fused.parts(rid)
        if rid in credited:
            parts.append(ScorePart("current_version", None, None, 1.0))
        flags = ["untrusted"] if record.source.untrusted else []
        for flag, by_id in factored:  # in the policy's order, which fixes the product to the last bit
            part = by_id.get(rid)
            if part is not None:
                parts.append(part)
                score *= part.contribution
                if flag is not None and flag not in flags:
                    flags.append(flag)
        hits.append(Hit(record, score, tuple(parts), tuple(flags)))
    hits.sort(key=lambda h: h.score, reverse=True)
    depth = rerank_depth(k)
    window = policy.stream_window if policy.session_weight > 0 else 0
    places = stream_places(store, scope, hits[:depth], window)
    hits = with_neighbour_evidence(
        with_session_evidence(hits, policy.session_weight, depth, places, window), policy.neighbour_weight, depth
    )
    return _guarded(newer_facts_first(store, scope, hits, policy, query), question, k)


def _guarded(ranked: list[Hit], question: Question, k: int) -> list[Hit]:
    """The k best of ``ranked`` (best first) once the policy's guards have demoted what they judge.

    Exactly what applying the guards to every hit and sorting again (stable) would give, but a hit is judged
    only while it can still reach the k best: a guard never raises a score, so once a hit's score is below the
    k-th best judged so far, no later hit can get in.
    """
    guards = question.policy.guards
    if not guards:
        return ranked[:k]
    judged: list[Hit] = []
    best: list[float] = []  # a min-heap of the k best judged scores
    for hit in ranked:
        if len(best) == k and hit.score < best[0]:
            break
        parts, flags, score = list(hit.parts), list(hit.flags), hit.score
        for guard in guards:
            part = guard.parts(question, {hit.record.id: hit.record}).get(hit.record.id)
            if part is None:
                continue
            if not part.contribution <= 1.0:
                raise ValidationError("guards", f"{guard.name} may only demote", given=part.contribution, limit=1.0)
            parts.append(part)
            score *= part.contribution
            if guard.flag is not None and guard.flag not in flags:
                flags.append(guard.flag)
        judged.append(Hit(hit.record, score, tuple(parts), tuple(flags)) if len(parts) > len(hit.parts) else hit)
        if len(best) < k:
            heapq.heappush(best, score)
        else:
            heapq.heappushpop(best, score)
    judged.sort(key=lambda h: h.score, reverse=True)  # stable: equal scores keep the ranking's order
    return judged[:k]


def _credit_current(
    store: Store,
    scope: Scope,
    shortlist: list[str],
    records: dict[str, MemoryRecord],
    fused: FusedList,
    filter_: Filter,
    now: datetime,
) -> tuple[list[str], set[str]]:
    """Hand each closed fact's match to its current version, drop closed facts; the new shortlist, who gained."""
    # A question worded like the old fact finds the fact that replaced it at the old fact's rank.
    credited: set[str] = set()
    for old, new in current_versions(store, scope, records, filter_, now).items():
        if fused.hand_over(old, new.id):
            credited.add(new.id)
        records[new.id] = new
    # In the shortlist's order, then the versions that joined it: equal scores keep the lists' order, never the
    # order the store happened to return records in (which a read cache changes).
    ordered = [records[rid] for rid in dict.fromkeys([*shortlist, *records]) if rid in records]
    live = [r.id for r in ordered if r.valid_to is None or r.valid_to > now]
    return sorted(live, key=fused.scores.__getitem__, reverse=True), credited
