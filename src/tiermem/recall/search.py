"""Hybrid recall: full-text and vector candidates, reciprocal-rank fusion, recency and trust re-scoring."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime

from tiermem.embed import Embedder, Vectors
from tiermem.english.named_days import NamedDays, named_days
from tiermem.english.perspective import first_person
from tiermem.english.statements import about_the_user, answered, asked, same_frame, same_subject
from tiermem.errors import ValidationError
from tiermem.recall.current import current_versions
from tiermem.store.base import Candidate, Store
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, Scope, ScorePart, SourceKind

__all__ = ["MAX_K", "MAX_QUERY_CHARS", "RecallPolicy", "hybrid_recall", "query_terms"]

MAX_K = 100
MAX_QUERY_CHARS = 4000
_MAX_TERMS = 48
_TIE_BREAK = 1e-4  # far below the gap between two adjacent reciprocal ranks (about 1/3700 at rank 60)

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


@dataclass(frozen=True, slots=True)
class RecallPolicy:
    """The knobs of ranking, chosen on principle rather than fitted to a benchmark.

    - ``rrf_k`` 60 is the constant of Cormack et al.'s reciprocal-rank fusion.
    - Each signal proposes ``candidates`` ids (at least k). Imputed ranks: a record a signal did not list is
      ranked below its list (at ``candidates + 1``), not nowhere; without that, a record 20th and 40th in the
      two lists outscores one first in one list and missing from the other.
    - Phrases: adjacent query words (stop words dropped) found side by side in a record are a third, weaker
      list, as in Metzler & Croft's sequential dependence model; ``phrase_weight`` is that model's weight of
      ordered pairs against single words (0.10 / 0.85).
    - Perspective: a transcript's turns are in their speakers' first person ("Ann: I got my boy a bike"), but a
      question about one of them is in the third person ("What did Ann give her son?"), and its vector sits
      nearer to talk *about* Ann. When the question names one speaker among its best full-text matches, it is
      also asked as that speaker would ask it ("What did I give my son?", ``perspective.first_person``): a
      fourth list at ``perspective_weight`` (1, another phrasing of the same question counts like the first).
      LoCoMo: evidence recall@10 0.762 -> 0.782, session recall@5 0.843 -> 0.859, @10 0.927 -> 0.926; it costs
      a second query vector, embedded in the same model call (p50 ~20 -> ~38 ms for such questions here).
    - Recency multiplies by ``1 + recency_weight * 2^(-age / half_life)``; off (0) by default. Fused scores are
      close (ranks 1 and 10 differ by 13%), so even a factor of 1.1 is a ranker, not a tie-breaker: asked when
      its user would ask (a day after the last session), LoCoMo lost 0.014 evidence and 0.026 session
      recall@10 to it, and no dev set gained. What is current comes first by other means: newer facts above
      the facts they replace (below), and the days a question names ("yesterday", "last week").
    - Trust multiplies by ``trust_floor + (1 - trust_floor) * trust``: a web note (0.3) keeps 65% of its score.
    - First hand: a question about the user ("what did I buy", "my commute") is answered by what the user said,
      and the agent's replies echo the user's words ("With a 40-minute commute, podcasts..."): among events
      (episodic records), the agent's are multiplied by ``first_hand_weight`` (score part ``first_hand``). Facts
      and procedures keep their score (an agent's note of the user's preference is the memory written for that
      question), and so do tool and web events (no echo; trust already ranks them, and a booking tool's output
      may hold the answer). A question about what the agent said ("you recommended", "our last chat") is left
      alone. 0.8 demotes like a tie-breaker, not a filter (LongMemEval dev: any value from 0.6 to 0.9 gives the
      same figures).
    - Named speaker: in a group chat or a transcript a record may say who said it (source ``user:Ann``). A
      question naming one of the candidates' speakers ("What did Ann say about the trip?", "Ann's pets") is
      answered by what that person said: events by the other named speakers are multiplied by
      ``speaker_weight`` (score part ``speaker``). Unnamed sources and facts keep their score; a question naming
      two speakers, or none, changes nothing. 0.9, like first hand, demotes without filtering (LoCoMo: 96% of
      evidence turns are by the person the question names; 0.8 and 0.6 lost evidence recall).
    - Named days: a question that names a day ("on 8 May, 2023", "May 8th", "between August 11 and August 15,
      2023", "in June 2023", "in late June", "yesterday", "last Friday", "3 days ago") is about what happened
      then, so a record's score is multiplied by ``1 + date_weight * 2^(-days / date_half_life_days)``, ``days``
      its ``valid_from``'s distance from the days named (0 within them): a record of that day counts double, one
      a day off 1.5 times (an event is often told a day or two after it). A fact is as near as its validity (a
      fact true from 2021 until now was true in June 2023). Days are read in ``now``'s time zone. Score part
      ``named_day``; the words still decide within the day.
    - Newer facts first: facts hold until replaced, so when two retrieved facts compete to answer the query
      (one topic: embedding cosine ≥ ``update_cosine``, or the newer one contains every word of the question
      beyond names that the older one contains; the same subject, or the same statement about another person;
      and the newer one's score within ``competing_ratio`` of the older's), the newest is ranked just above
      the older even when the write-time detector was too cautious to close it (score part ``newer_fact``;
      flag ``possibly_outdated`` on the older). A fact that closed an older one competes wherever that one
      would have: it is its current version; a closed fact's fused rank is handed to that version (score part
      ``current_version``) and the closed fact dropped. Nothing is hidden; ``as_of`` asks about the past; events
      (episodic) are never reordered.
    """

    rrf_k: int = 60
    candidates: int = 50
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    phrase_weight: float = 0.10 / 0.85
    recency_half_life_days: float = 30.0
    recency_weight: float = 0.0
    trust_floor: float = 0.5
    first_hand_weight: float = 0.8
    speaker_weight: float = 0.9
    perspective_weight: float = 1.0
    date_weight: float = 1.0
    date_half_life_days: float = 1.0
    update_cosine: float = 0.5
    competing_ratio: float = 0.9


def query_terms(text: str) -> list[str]:
    """Words of ``text`` usable as full-text terms: any input is safe, stop words dropped when others remain."""
    words = [w.casefold() for w in _WORD.findall(text)]
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
    policy: RecallPolicy = RecallPolicy(),
    query_vector: Vectors | None = None,
) -> list[Hit]:
    """The k best records for ``query`` in ``scope``, each with its score parts."""
    _check(query, k)
    if now.tzinfo is None:  # ages, validity and the days a question names are compared with stored UTC times
        raise ValidationError("now", "must be timezone-aware", given=now.isoformat())
    if not query.strip():
        return []
    limit = max(policy.candidates, k)
    # Facts a newer record closed are candidates too: their match is credited to it (see _fuse).
    wanted = filter_ if filter_.as_of is not None else replace(filter_, with_closed=True)
    terms = query_terms(query)
    keyword: list[Candidate] | None = None
    asked_as: str | None = None  # the question in the first person of the speaker it names (see RecallPolicy)
    vectors_usable = embedder is not None and store.vector_fingerprint(scope) == embedder.fingerprint
    if vectors_usable and policy.perspective_weight > 0 and _may_name(query):
        # The speaker's name is a full-text term, so the full-text list's best records show who is named; asked
        # first, it lets both questions be embedded in one model call.
        keyword = store.keyword_candidates(scope, terms, wanted, now=now, limit=limit)
        asked_as = _asked_as_speaker(store, scope, query, keyword[:10])
    pending: Future[list[Candidate]] | None = None
    pending_own: Future[list[Candidate]] | None = None
    if embedder is not None and vectors_usable:
        fingerprint = embedder.fingerprint
        texts = ([] if query_vector is not None else [query]) + ([asked_as] if asked_as else [])
        embedded = list(embedder.embed_batch(texts)) if texts else []
        qv = query_vector if query_vector is not None else embedded[0]
        # Started before the keyword queries below: a store may scan vectors while they run.
        pending = store.start_vector_candidates(scope, qv, fingerprint, wanted, now=now, limit=limit)
        if asked_as:
            own = embedded[-1]
            pending_own = store.start_vector_candidates(scope, own, fingerprint, wanted, now=now, limit=limit)
    if keyword is None:
        keyword = store.keyword_candidates(scope, terms, wanted, now=now, limit=limit)
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(terms)] if policy.phrase_weight > 0 else []
    phrase = store.keyword_candidates(scope, pairs, wanted, now=now, limit=limit) if pairs else []
    vector = pending.result() if pending is not None else []
    perspective = pending_own.result() if pending_own is not None else []
    return _fuse(
        store,
        scope,
        keyword,
        vector,
        k=k,
        now=now,
        policy=policy,
        query=query,
        filter_=wanted,
        phrase=phrase,
        perspective=perspective,
    )


def _may_name(query: str) -> bool:
    """Whether a word after the first is capitalised (a name), so looking for speakers may pay."""
    return any(w[:1].isupper() and w != "I" for w in _WORD.findall(query)[1:])


def _asked_as_speaker(store: Store, scope: Scope, query: str, best: list[Candidate]) -> str | None:
    """The question in the first person of the one speaker among ``best`` it names, if it changes."""
    speaker = _named_speaker(query, store.get_many(scope, [c.id for c in best]).values())
    asked_as = first_person(query, speaker) if speaker is not None else None
    return asked_as if asked_as != query else None


def _fuse(
    store: Store,
    scope: Scope,
    keyword: list[Candidate],
    vector: list[Candidate],
    *,
    k: int,
    now: datetime,
    policy: RecallPolicy,
    query: str = "",
    filter_: Filter | None = None,
    phrase: list[Candidate] | None = None,
    perspective: list[Candidate] | None = None,
) -> list[Hit]:
    signals = {
        "keyword": (keyword, policy.keyword_weight),
        "vector": (vector, policy.vector_weight),
        "phrase": (phrase or [], policy.phrase_weight),
    }
    if perspective:  # a list only a question naming a speaker has
        signals["perspective"] = (perspective, policy.perspective_weight)
    # Each signal was asked for its top ``depth``: a record it did not list ranks below that, not nowhere, so it
    # counts at rank depth + 1 (see RecallPolicy: imputed ranks). A signal that listed nothing (no embedder)
    # tells nothing and adds nothing.
    depth = max(policy.candidates, k)
    unlisted = {
        name: weight / (policy.rrf_k + depth + 1) if cands else 0.0 for name, (cands, weight) in signals.items()
    }
    nowhere = sum(unlisted.values())  # a record's score before any list has placed it
    ranks: dict[str, dict[str, tuple[int, float]]] = {}
    fused: dict[str, float] = {}
    for name, (cands, weight) in signals.items():
        for rank, cand in enumerate(cands[:depth], start=1):
            ranks.setdefault(cand.id, {})[name] = (rank, cand.score)
            start = fused.get(cand.id, nowhere)
            fused[cand.id] = start + weight / (policy.rrf_k + rank) - unlisted[name]
    if not fused:
        return []
    best_possible = sum(w for _, w in signals.values()) / (policy.rrf_k + 1)
    # Re-scoring moves a record by at most (1 + recency_weight) / (trust_floor * speaker_weight), so a short list
    # suffices; a question about the user or naming a day can move it further: then every candidate is re-scored.
    days = named_days(query, now) if policy.date_weight > 0 else None
    first_hand = about_the_user(query) and policy.first_hand_weight != 1.0
    size = len(fused) if days is not None or first_hand else max(3 * k, k + 20)
    shortlist = sorted(fused, key=fused.__getitem__, reverse=True)[:size]
    records = store.get_many(scope, shortlist)
    credited: set[str] = set()
    if filter_ is not None and filter_.with_closed:
        shortlist, credited = _credit_current(store, scope, records, fused, ranks, filter_, now)
    speaker = _named_speaker(query, records.values()) if policy.speaker_weight != 1.0 else None
    hits: list[Hit] = []
    half_life = policy.recency_half_life_days * 86400.0
    day_half_life = max(policy.date_half_life_days, 1e-9)
    for rid in shortlist:
        record = records.get(rid)
        if record is None:  # deleted between candidate and fetch
            continue
        # Reciprocal ranks tie often (1st + 2nd = 2nd + 1st); the vector's cosine breaks such ties.
        cosine = ranks[rid]["vector"][1] if "vector" in ranks[rid] else 0.0
        relevance = fused[rid] / best_possible + _TIE_BREAK * cosine
        age = max(0.0, (now - record.valid_from).total_seconds())
        recency = math.pow(2.0, -age / half_life) if half_life > 0 else 0.0
        recency_factor = 1.0 + policy.recency_weight * recency
        trust_factor = policy.trust_floor + (1.0 - policy.trust_floor) * record.trust
        hand_factor = _hand_factor(record, policy) if first_hand else 1.0
        speaker_factor = _speaker_factor(record, speaker, policy) if speaker is not None else 1.0
        distance = _days_apart(days, record, now) if days is not None else None
        day_factor = 1.0 if distance is None else 1.0 + policy.date_weight * math.pow(2.0, -distance / day_half_life)
        parts = [
            ScorePart(
                name,
                ranks[rid][name][0] if name in ranks[rid] else None,
                ranks[rid][name][1] if name in ranks[rid] else None,
                (signals[name][1] / (policy.rrf_k + ranks[rid][name][0]) if name in ranks[rid] else unlisted[name])
                / best_possible,
            )
            for name in signals
        ]
        if rid in credited:
            parts.append(ScorePart("current_version", None, None, 1.0))
        parts.append(ScorePart("recency", None, recency, recency_factor))
        parts.append(ScorePart("trust", None, record.trust, trust_factor))
        if first_hand:
            parts.append(ScorePart("first_hand", None, None, hand_factor))
        if speaker is not None:
            parts.append(ScorePart("speaker", None, None, speaker_factor))
        if distance is not None:
            parts.append(ScorePart("named_day", None, float(distance), day_factor))
        flags = ("untrusted",) if record.source.untrusted else ()
        score = relevance * recency_factor * trust_factor * hand_factor * speaker_factor * day_factor
        hits.append(Hit(record, score, tuple(parts), flags))
    hits.sort(key=lambda h: h.score, reverse=True)
    return _newer_facts_first(store, scope, hits, policy, query)[:k]


def _days_apart(days: NamedDays, record: MemoryRecord, now: datetime) -> int:
    """Days between the named days and a record's: an event's day, a fact's whole validity; in now's zone."""
    zone = now.tzinfo
    first = record.valid_from.astimezone(zone).date()
    if record.type is MemoryType.EPISODIC:
        return days.distance(first)
    until = record.valid_to if record.valid_to is not None and record.valid_to < now else now
    return days.distance(first, until.astimezone(zone).date())


def _hand_factor(record: MemoryRecord, policy: RecallPolicy) -> float:
    """For a question about the user: the demotion for an event the agent wrote, else 1."""
    if record.type is MemoryType.EPISODIC and record.source.kind is SourceKind.AGENT:
        return policy.first_hand_weight
    return 1.0


def _named_speaker(query: str, records: Iterable[MemoryRecord]) -> str | None:
    """The one speaker of these records whom the question names as a whole word (case kept), else None."""
    names = {name for r in records if (name := r.source.speaker)}
    named = [name for name in names if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", query)]
    return named[0] if len(named) == 1 else None


def _speaker_factor(record: MemoryRecord, speaker: str, policy: RecallPolicy) -> float:
    """For a question naming ``speaker``: the demotion for an event another named person said, else 1."""
    other = record.source.speaker not in (None, speaker)
    return policy.speaker_weight if record.type is MemoryType.EPISODIC and other else 1.0


def _credit_current(
    store: Store,
    scope: Scope,
    records: dict[str, MemoryRecord],
    fused: dict[str, float],
    ranks: dict[str, dict[str, tuple[int, float]]],
    filter_: Filter,
    now: datetime,
) -> tuple[list[str], set[str]]:
    """Hand each closed fact's match to its current version, drop closed facts; the new shortlist, who gained."""
    # A question worded like the old fact finds the fact that replaced it at the old fact's rank.
    credited: set[str] = set()
    for old, new in current_versions(store, scope, records, filter_, now).items():
        if fused[old] > fused.get(new.id, 0.0):
            fused[new.id], ranks[new.id] = fused[old], ranks[old]
            credited.add(new.id)
        records[new.id] = new
    live = [rid for rid, record in records.items() if record.valid_to is None or record.valid_to > now]
    return sorted(live, key=fused.__getitem__, reverse=True), credited


def _competing(
    older: Hit, faces: list[tuple[str, Vectors]], older_vector: Vectors, what: frozenset[str], update_cosine: float
) -> bool:
    """Two facts give rival answers: one topic, and one subject or one statement about two people."""
    said = answered(what, older.record.content)
    for content, vector in faces:
        # One topic: close vectors, or the newer fact answers every word of the question the older one answers
        # (vectors of two facts about one person are dominated by the name, so a change of topic words hides).
        topic = float(older_vector @ vector) >= update_cosine or (bool(said) and said <= answered(what, content))
        if topic and (same_subject(older.record.content, content) or same_frame(older.record.content, content)):
            return True
    return False


def _faces(
    record: MemoryRecord, predecessors: dict[str, MemoryRecord], vectors: dict[str, Vectors]
) -> list[tuple[str, Vectors]]:
    """The texts and vectors a fact competes with: its own, and the predecessor it closed, if any."""
    faces = [(record.content, vectors[record.id])]
    previous = predecessors.get(record.supersedes or "")
    if previous is not None and previous.id in vectors:
        faces.append((previous.content, vectors[previous.id]))
    return faces


def _newer_facts_first(store: Store, scope: Scope, hits: list[Hit], policy: RecallPolicy, query: str = "") -> list[Hit]:
    """Rank the newest of competing facts first (see RecallPolicy: newer facts first)."""
    facts = [i for i, h in enumerate(hits) if h.record.type is MemoryType.SEMANTIC]
    if len(facts) < 2:
        return hits
    # A fact that closed an older one is its current version: it competes wherever its predecessor would.
    before = {p for i in facts if (p := hits[i].record.supersedes) is not None}
    predecessors = store.get_many(scope, sorted(before)) if before else {}
    vectors = store.vectors_of(scope, [hits[i].record.id for i in facts] + sorted(predecessors))
    facts = [i for i in facts if hits[i].record.id in vectors]
    if len(facts) < 2:
        return hits
    faces = {i: _faces(hits[i].record, predecessors, vectors) for i in facts}
    what = asked(query)
    similarity = {i: faces[i][0][1] for i in facts}
    out = list(hits)
    order = list(range(len(hits)))
    lifted: set[int] = set()
    for a, i in enumerate(facts):  # i: the higher-ranked, possibly older fact
        if i in lifted:
            continue
        older = out[i]
        rivals = [
            j
            for j in facts[a + 1 :]
            if j not in lifted
            and out[j].record.valid_from > older.record.valid_from
            and out[j].score >= policy.competing_ratio * older.score
            and _competing(older, faces[j], similarity[i], what, policy.update_cosine)
        ]
        if not rivals:
            continue
        j = max(rivals, key=lambda r: out[r].record.valid_from)
        cosine = float(similarity[i] @ similarity[j])
        lift = ScorePart("newer_fact", None, cosine, older.score / max(out[j].score, 1e-12))
        # Just above the older fact, by position: an equal score must not carry it past a fact tied above.
        out[j] = replace(out[j], score=older.score, parts=(*out[j].parts, lift))
        out[i] = replace(older, flags=(*older.flags, "possibly_outdated"))
        order.remove(j)
        order.insert(order.index(i), j)
        lifted.update((i, j))
    return [out[x] for x in order]
