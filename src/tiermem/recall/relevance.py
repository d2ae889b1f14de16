"""Relevance: whether a hit answers its query at all, on a scale that means the same across queries and scopes.

Fused scores only order hits: the best of ten unrelated notes still scores near the top. Relevance is read from
the evidence behind a hit instead:

- ``cosine``: the best cosine between the query and the hit (its whole text or its best passage, as the vector
  search scored it; computed for a hit the vector list did not reach). None without an embedder.
- ``matched``: the share of the query's *known* vocabulary (the words some record of the scope holds) the hit's
  own text holds, each word weighted by its rarity in the scope (BM25's IDF, from the store's document counts
  when it has ``store.TermStatistics``, equal weights otherwise). A word no record holds cannot be matched by
  any hit, so its absence says nothing about this hit against another: "kitten" asked of notes that say "cat"
  is left to the cosine. Words match on a short stem (suffix dropped, first six letters), in any language.
- ``unknown``: 1 when no content word of the query is known to the scope: then the words do speak, against
  every hit, and only a strong cosine carries one. Then, though, a word the hit holds *by meaning* counts as
  matched and makes the query known for that hit (``recall.meaning``: "who looks after the animal" of a note
  about a dog); ``meaning`` is the share of ``matched`` held so.
- ``stranger``: 1 when the query names someone or something the scope never mentions (an English word
  capitalised inside the sentence, ``english.names``, read once with the query, ``recall.query``): a name has
  no synonym, so the question is about something else.
- ``few``: how few records the vector search found, ``log(limit / found)`` (0 when its list is full): the
  per-scope part of the calibration. The best of a few unrelated notes sits far lower than the best of
  hundreds, so in a small scope a lower cosine already stands out.
- ``best``: the best cosine of the hits judged together, the same for each: how closely the scope holds
  anything recall may show like the question at all. A question the scope answers lifts its other evidence hits
  (the second fact of a two-fact question) with it; an off-topic one finds nothing close.
- ``phrase``: 1 when the hit holds two of the query's words side by side (the phrase list placed it): a
  paraphrase keeps few of the question's words, but the ones it keeps tend to come as a pair ("garden shed"),
  which an unrelated note rarely holds.

They are combined by logistic regression, ``relevance = 1 / (1 + exp(-(a·cosine + b·matched + c·unknown +
d·stranger + f·few + g·best + h·phrase + e)))``, fitted per embedding model (the models' cosines live on
different scales) by ``scripts/fit_relevance.py`` on the LoCoMo dev conversations 0-2 and LongMemEval questions
0-29: positives are the evidence turns among the top 10 of each question, negatives the top 10 of each LoCoMo
question asked in the scope of another conversation (off-topic), once as asked and once with its stranger name
left out, so the cosine and the words must reject an off-topic question that names no one; the same again in
small scopes of one session each, for ``few``. LongMemEval's questions rarely share words with their evidence
(the paraphrase case); its positives weigh as much as needed for the fit to keep 0.99 of them. e5 keeps its
earlier fit, without ``few``, ``best`` and ``phrase``. Unknown models (and hits without a vector) use words only (see
``WORDS_ONLY``). Each hit's evidence is in its parts (``relevance:cosine``, ...): they explain the relevance and
leave the score unchanged. ``docs/recall.md`` shows the fit and the floor chosen from it.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

from tiermem.embed import Embedder, Vectors
from tiermem.recall.meaning import held_by_meaning
from tiermem.recall.rows import Row, parts_of
from tiermem.store.base import Store
from tiermem.text_index import query_words
from tiermem.types import Hit, MemoryRecord, Scope, ScorePart

__all__ = [
    "CALIBRATIONS",
    "EVIDENCE_PREFIX",
    "WORDS_ONLY",
    "Calibration",
    "Evidence",
    "TermWeights",
    "calibration_for",
    "evidence",
    "few_found",
    "judged",
    "matched_share",
    "stem",
    "term_weights",
]


@dataclass(frozen=True, slots=True)
class Calibration:
    """Logistic-regression coefficients turning a hit's evidence into a relevance in (0, 1)."""

    cosine: float
    matched: float
    unknown: float
    stranger: float
    bias: float
    few: float = 0.0
    best: float = 0.0
    phrase: float = 0.0

    def relevance(self, found: Evidence) -> float:
        """The relevance of a hit with this evidence (a missing cosine counts as 0)."""
        z = (
            self.cosine * (found.cosine or 0.0)
            + self.matched * found.matched
            + self.unknown * found.unknown
            + self.stranger * found.stranger
            + self.few * found.few
            + self.best * found.best
            + self.phrase * found.phrase
            + self.bias
        )
        return 1.0 / (1.0 + math.exp(-z))

    def without_cosine(self, cosine: float, spread: float) -> Calibration:
        """This calibration for hits without a vector, whose cosine is taken to be ``cosine`` give or take
        ``spread`` (a standard deviation): the cosine term folds into the bias, and the logit is averaged over
        the spread (the probit approximation: E[sigmoid(z)] ≈ sigmoid(mean / √(1 + π s² / 8))), so it leans less
        either way. ``few`` is left out: it says how far a cosine stands out, and there is none."""
        shrink = 1.0 / math.sqrt(1.0 + math.pi * (self.cosine * spread) ** 2 / 8.0)
        return Calibration(
            cosine=0.0,
            matched=self.matched * shrink,
            unknown=self.unknown * shrink,
            stranger=self.stranger * shrink,
            bias=(self.bias + self.cosine * cosine) * shrink,
            phrase=self.phrase * shrink,
        )


# Fitted with scripts/fit_relevance.py on the LoCoMo dev conversations 0-2 and LongMemEval questions 0-29 (see
# docs/recall.md).
CALIBRATIONS: Mapping[str, Calibration] = {
    "all-MiniLM-L6-v2-onnx-int8-384": Calibration(
        cosine=5.44, matched=0.07, unknown=-5.06, stranger=-5.02, bias=-12.15, few=1.92, best=22.55, phrase=0.34
    ),
    # e5's cosines crowd near the top (an unrelated pair about 0.73): a steep slope, a far bias.
    "multilingual-e5-small-q4-384": Calibration(cosine=34.82, matched=2.07, unknown=-4.39, stranger=-3.53, bias=-28.64),
}
# Without a cosine (no embedder, an unknown model): MiniLM's weights with the cosine taken as an unrelated note's,
# 0.32 give or take 0.11 (mean and spread of the dev off-topic hits' cosines; the evidence's spread is the same),
# so a hit passes the default floor by holding a sixth of the query's known words (by weight). Not fitted
# on its own: there off-topic hits share about as many words as the evidence, and a words-only fit learns the
# names alone.
# The MiniLM weights are those of the fit before ``few`` and words by meaning existed (same data, same script):
# the later fit leans on the cosine and the scope's size, which a words-only judgement has neither of.
WORDS_ONLY = Calibration(cosine=21.12, matched=2.86, unknown=-3.61, stranger=-2.51, bias=-10.32).without_cosine(
    0.32, 0.11
)


def calibration_for(fingerprint: str | None) -> Calibration:
    """The calibration of an embedding model (by fingerprint); words only for None or an unknown model."""
    return CALIBRATIONS.get(fingerprint or "", WORDS_ONLY)


EVIDENCE_PREFIX = "relevance:"
"""The name prefix of the score parts that hold a hit's relevance evidence."""
_COSINE, _MATCHED = f"{EVIDENCE_PREFIX}cosine", f"{EVIDENCE_PREFIX}matched"


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a hit's relevance is read from: its best cosine (None: no vector), its matched share of the query's
    known words, and two facts about the query in its scope (the same for every hit): no content word known,
    a name never mentioned."""

    cosine: float | None
    matched: float
    unknown: float = 0.0
    stranger: float = 0.0
    few: float = 0.0
    meaning: float = 0.0  # the share of ``matched`` that is held by meaning, not by spelling
    best: float = 0.0  # the best cosine of the hits judged together (the same for every hit)
    phrase: float = 0.0  # 1 when the hit holds two of the query's words side by side

    def parts(self, shared: dict[tuple[str, float, bool], ScorePart] | None = None) -> tuple[ScorePart, ...]:
        """The evidence as score parts (contribution 1: they explain the relevance, not the score).

        ``shared``: parts made for other hits of one recall, reused where the value is the same (parts are
        immutable, and every hit of a recall has the same ``unknown``, ``stranger``, ``few`` and ``best``)."""
        made = shared if shared is not None else {}
        out = [ScorePart(_COSINE, None, self.cosine, 1.0)] if self.cosine is not None else []
        out.append(ScorePart(_MATCHED, None, self.matched, 1.0))
        common = (
            ("unknown", self.unknown),
            ("stranger", self.stranger),
            ("few", self.few),
            ("meaning", self.meaning),
            ("best", self.best),
            ("phrase", self.phrase),
        )
        for name, value in common:
            # 0.0 and -0.0 are equal keys, not equal parts: the sign is part of the key.
            positive = math.copysign(1.0, value) > 0
            settled = _SETTLED.get(value) if positive else None  # 0 and 1: the usual values, made once
            part = settled[name] if settled is not None else made.get((name, value, positive))
            if part is None:
                part = made[(name, value, positive)] = ScorePart(f"{EVIDENCE_PREFIX}{name}", None, value, 1.0)
            out.append(part)
        return tuple(out)


_SETTLED = {
    value: {
        name: ScorePart(f"{EVIDENCE_PREFIX}{name}", None, value, 1.0)
        for name in ("unknown", "stranger", "few", "meaning", "best", "phrase")
    }
    for value in (0.0, 1.0)
}


def few_found(found: int, limit: int) -> float:
    """``few`` for a vector search that found ``found`` of at most ``limit`` records."""
    return math.log(limit / found) if 0 < found < limit else 0.0


_SUFFIX = re.compile(r"(?:ing|ed|es|s)$")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A short stem that survives inflection in most languages: an English suffix dropped, six letters kept."""
    if word.isascii() and len(word) > 4:
        word = _SUFFIX.sub("", word)
    return word[:6]


@dataclass(frozen=True, slots=True)
class TermWeights:
    """The query's known terms with their weights (BM25 IDF in the scope: rarer words weigh more), whether no
    term is known, and whether the query names something the scope never mentions."""

    weights: Mapping[str, float]
    unknown: bool = False
    stranger: bool = False
    # Terms no record holds as the index matches words, weighted as such: a hit may still hold one by its stem
    # ("allergies" in a scope that says "allergic"), and then the scope does know it.
    unseen: Mapping[str, float] = field(default_factory=dict)

    def for_text(self, text: str) -> tuple[dict[str, float], bool]:
        """The weights a text is matched against (the known terms and the unseen ones it holds by stem), and
        whether the query stays unknown for it."""
        return self.for_stems(_stems(text))

    def for_stems(self, stems: AbstractSet[str]) -> tuple[dict[str, float], bool]:
        """``for_text`` of a text whose stems are already known."""
        held = {t: w for t, w in self.unseen.items() if stem(t) in stems}
        return {**self.weights, **held}, self.unknown and not held


def term_weights(
    store: Store, scope: Scope, terms: Sequence[str], names: AbstractSet[str] = frozenset()
) -> TermWeights:
    """The weights of the ``terms`` some record of the scope holds; all, equal, if the store cannot count.

    ``names``: the names the query holds (``Query.english.names``), a stranger when the scope never holds one."""
    count = getattr(store, "term_document_counts", None)  # ``TermStatistics``, without a protocol check's cost
    if count is None:
        return TermWeights(dict.fromkeys(terms, 1.0))
    total, counts = count(scope, terms)
    idf = {t: math.log(1.0 + (total - counts.get(t, 0) + 0.5) / (counts.get(t, 0) + 0.5)) for t in terms}
    known = {t: w for t, w in idf.items() if counts.get(t, 0) > 0}
    unseen = {t: w for t, w in idf.items() if t not in known}
    strangers = set(names).intersection(terms).difference(known)
    return TermWeights(known, unknown=bool(terms) and not known, stranger=bool(strangers), unseen=unseen)


def matched_share(weights: Mapping[str, float], text: str) -> float:
    """The weighted share of the terms (by ``weights``) that ``text`` holds, compared by ``stem``."""
    return _share(weights, _stems(text))


@functools.lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    """The stems of a text's words (the latest texts kept: recall judges the same records query after query)."""
    return frozenset(stem(w) for w in query_words(text))


def _share(weights: Mapping[str, float], stems: AbstractSet[str], stems_of: Mapping[str, str] | None = None) -> float:
    """``matched_share`` of a text's stems; ``stems_of``: the terms' stems, if known."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    if stems_of is None:
        return sum(w for t, w in weights.items() if stem(t) in stems) / total
    return sum(w for t, w in weights.items() if stems_of[t] in stems) / total


def _listed(parts: Sequence[ScorePart]) -> tuple[float | None, float]:
    """The best cosine a vector list gave (None: none placed it), and 1 if the phrase list placed it."""
    cosine: float | None = None
    phrase = 0.0
    for p in parts:
        name = p.name
        if name == "vector" or name == "perspective":
            raw = p.raw
            if raw is not None and (cosine is None or raw > cosine):  # as ``max`` keeps the first of equals
                cosine = raw
        elif name == "phrase" and p.rank is not None:
            phrase = 1.0
    return cosine, phrase


def evidence(
    store: Store,
    scope: Scope,
    hits: Sequence[Hit],
    weights: TermWeights,
    query_vector: Vectors | None,
    *,
    embedder: Embedder | None = None,
    names: AbstractSet[str] = frozenset(),
    few: float = 0.0,
) -> list[Evidence]:
    """The evidence of each hit: its best cosine (looked up when no vector list placed it) and matched share.

    ``embedder``: the model that reads unknown words by meaning (``recall.meaning``); ``few``: see ``few_found``."""
    records, parts = [h.record for h in hits], [h.parts for h in hits]
    return _evidence(store, scope, records, parts, weights, query_vector, embedder, names, few)


def _evidence(
    store: Store,
    scope: Scope,
    records: Sequence[MemoryRecord],
    parts: Sequence[Sequence[ScorePart]],
    weights: TermWeights,
    query_vector: Vectors | None,
    embedder: Embedder | None,
    names: AbstractSet[str],
    few: float,
) -> list[Evidence]:
    """``evidence`` of records with these parts."""
    listed = [_listed(p) for p in parts]
    cosines = [cosine for cosine, _ in listed]
    if query_vector is not None:
        missing = [r.id for r, c in zip(records, cosines, strict=True) if c is None]
        stored = store.vectors_of(scope, missing) if missing else {}
        q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        cosines = [
            c if c is not None or r.id not in stored else float(np.dot(stored[r.id], q))
            for r, c in zip(records, cosines, strict=True)
        ]
    else:
        cosines = [None] * len(records)
    top = max((c for c in cosines if c is not None), default=0.0)
    meant: list[frozenset[str]] = [frozenset()] * len(records)
    if weights.unknown and embedder is not None and query_vector is not None:
        meant = held_by_meaning(embedder, weights.unseen, [r.content for r in records], names)
    stranger = float(weights.stranger)
    stems_of = {t: stem(t) for t in (*weights.weights, *weights.unseen)}  # each term's stem, once a query
    known = weights.weights
    known_total = sum(known.values())  # what ``_share`` divides by for a record holding no unseen term
    unseen = [(t, w, stems_of[t]) for t, w in weights.unseen.items()]
    found: list[Evidence] = []
    for record, (_, phrase), cosine, by_meaning in zip(records, listed, cosines, meant, strict=True):
        stems = _stems(record.content)  # once a record: both the unseen terms and the share read them
        spelt_unseen = {t: w for t, w, s in unseen if s in stems}
        against: Mapping[str, float]
        if spelt_unseen:  # ``TermWeights.for_stems`` and ``_share``, as they are
            against, unknown = {**known, **spelt_unseen}, False
            share = _share(against, stems, stems_of)
        else:  # the same, with the known terms' total read once
            against, unknown = known, weights.unknown
            share = 0.0 if known_total <= 0 else sum(w for t, w in known.items() if stems_of[t] in stems) / known_total
        meaning = 0.0
        if by_meaning:
            against = {**against, **{t: weights.unseen[t] for t in by_meaning}}
            total = sum(against.values())
            spelt = sum(w for t, w in against.items() if stem(t) in stems)
            meant_w = sum(w for t, w in against.items() if t in by_meaning and stem(t) not in stems)
            share, meaning, unknown = (spelt + meant_w) / total, meant_w / total, False
        best = top if cosine is not None else 0.0
        found.append(Evidence(cosine, share, float(unknown), stranger, few, meaning, best, phrase))
    return found


def judged(
    store: Store,
    scope: Scope,
    terms: Sequence[str],
    rows: Sequence[Row],
    *,
    query_vector: Vectors | None,
    calibration: Calibration,
    names: AbstractSet[str] = frozenset(),
    weights: TermWeights | None = None,
    embedder: Embedder | None = None,
    few: float = 0.0,
) -> list[Hit]:
    """The hits ``rows`` make, each with its ``relevance`` set and its evidence in its parts (see the module docstring).

    ``names``: the query's names; ``weights``: ``term_weights(store, scope, terms, names)`` when the caller has
    read them already; ``embedder`` and ``few``: see ``evidence``."""
    if not rows:
        return []
    weights = weights if weights is not None else term_weights(store, scope, terms, names)
    parts = parts_of(rows)
    records = [row.record for row in rows]
    found = _evidence(store, scope, records, parts, weights, query_vector, embedder, names, few)
    # A hit with no vector yet (a write-behind write the worker has not embedded) is judged on its words, as
    # without a model: a missing cosine counted as 0 would sink it below any floor while it waits.
    shared: dict[tuple[str, float, bool], ScorePart] = {}
    return [
        Hit(
            row.record,
            row.score,
            (*held, *e.parts(shared)),
            row.flags,
            (calibration if e.cosine is not None else WORDS_ONLY).relevance(e),
        )
        for row, held, e in zip(rows, parts, found, strict=True)
    ]
