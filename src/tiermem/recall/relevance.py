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
  every hit, and only a strong cosine carries one.
- ``stranger``: 1 when the query names someone or something the scope never mentions (an English word
  capitalised inside the sentence, ``english.names``, read once with the query, ``recall.query``): a name has
  no synonym, so the question is about something else.

They are combined by logistic regression, ``relevance = 1 / (1 + exp(-(a·cosine + b·matched + c·unknown +
d·stranger + e)))``, fitted per embedding model (the models' cosines live on different scales) on the LoCoMo dev
conversations 0-2 (``scripts/fit_relevance.py``): positives are the evidence turns among the top 10 of each
question, negatives the top 10 of each question asked in the scope of another conversation (off-topic), once as
asked and once with its stranger name left out, so the cosine and the words must reject an off-topic question
that names no one. Unknown models (and hits without a vector) use MiniLM's weights with the cosine taken as an
unrelated note's. ``docs/recall.md`` shows the fit and the floor chosen from it.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

from tiermem.embed import Vectors
from tiermem.store.base import Store, TermStatistics
from tiermem.text_index import query_words
from tiermem.types import Hit, Scope

__all__ = [
    "CALIBRATIONS",
    "WORDS_ONLY",
    "Calibration",
    "Evidence",
    "TermWeights",
    "calibration_for",
    "evidence",
    "matched_share",
    "stem",
    "term_weights",
    "with_relevance",
]


@dataclass(frozen=True, slots=True)
class Calibration:
    """Logistic-regression coefficients turning a hit's evidence into a relevance in (0, 1)."""

    cosine: float
    matched: float
    unknown: float
    stranger: float
    bias: float

    def relevance(self, found: Evidence) -> float:
        """The relevance of a hit with this evidence (a missing cosine counts as 0)."""
        z = (
            self.cosine * (found.cosine or 0.0)
            + self.matched * found.matched
            + self.unknown * found.unknown
            + self.stranger * found.stranger
            + self.bias
        )
        return 1.0 / (1.0 + math.exp(-z))

    def without_cosine(self, cosine: float, spread: float) -> Calibration:
        """This calibration for hits without a vector, whose cosine is taken to be ``cosine`` give or take
        ``spread`` (a standard deviation): the cosine term folds into the bias, and the logit is averaged over
        the spread (the probit approximation: E[sigmoid(z)] ≈ sigmoid(mean / √(1 + π s² / 8))), so it leans less
        either way."""
        shrink = 1.0 / math.sqrt(1.0 + math.pi * (self.cosine * spread) ** 2 / 8.0)
        return Calibration(
            cosine=0.0,
            matched=self.matched * shrink,
            unknown=self.unknown * shrink,
            stranger=self.stranger * shrink,
            bias=(self.bias + self.cosine * cosine) * shrink,
        )


# Fitted with scripts/fit_relevance.py on the LoCoMo dev conversations 0-2 (see docs/recall.md).
CALIBRATIONS: Mapping[str, Calibration] = {
    "all-MiniLM-L6-v2-onnx-int8-384": Calibration(
        cosine=21.12, matched=2.86, unknown=-3.61, stranger=-2.51, bias=-10.32
    ),
    # e5's cosines crowd near the top (an unrelated pair about 0.73): a steep slope, a far bias.
    "multilingual-e5-small-q4-384": Calibration(cosine=34.82, matched=2.07, unknown=-4.39, stranger=-3.53, bias=-28.64),
}
# Without a cosine (no embedder, an unknown model): MiniLM's weights with the cosine taken as an unrelated note's,
# 0.32 give or take 0.11 (mean and spread of the dev off-topic hits' cosines; the evidence's spread is the same),
# so a hit passes the default floor by holding a sixth of the query's known words (by weight). Not fitted
# on its own: there off-topic hits share about as many words as the evidence, and a words-only fit learns the
# names alone.
WORDS_ONLY = CALIBRATIONS["all-MiniLM-L6-v2-onnx-int8-384"].without_cosine(0.32, 0.11)


def calibration_for(fingerprint: str | None) -> Calibration:
    """The calibration of an embedding model (by fingerprint); words only for None or an unknown model."""
    return CALIBRATIONS.get(fingerprint or "", WORDS_ONLY)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a hit's relevance is read from: its best cosine (None: no vector), its matched share of the query's
    known words, and two facts about the query in its scope (the same for every hit): no content word known,
    a name never mentioned."""

    cosine: float | None
    matched: float
    unknown: float = 0.0
    stranger: float = 0.0


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
    if not isinstance(store, TermStatistics):
        return TermWeights(dict.fromkeys(terms, 1.0))
    total, counts = store.term_document_counts(scope, terms)
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


def _share(weights: Mapping[str, float], stems: AbstractSet[str]) -> float:
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in weights.items() if stem(t) in stems) / total


def _listed_cosine(hit: Hit) -> float | None:
    found = [p.raw for p in hit.parts if p.name in ("vector", "perspective") and p.raw is not None]
    return max(found) if found else None


def evidence(
    store: Store, scope: Scope, hits: Sequence[Hit], weights: TermWeights, query_vector: Vectors | None
) -> list[Evidence]:
    """The evidence of each hit: its best cosine (looked up when no vector list placed it) and matched share."""
    cosines = [_listed_cosine(h) for h in hits]
    if query_vector is not None:
        missing = [h.record.id for h, c in zip(hits, cosines, strict=True) if c is None]
        stored = store.vectors_of(scope, missing) if missing else {}
        q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        cosines = [
            c if c is not None or h.record.id not in stored else float(np.dot(stored[h.record.id], q))
            for h, c in zip(hits, cosines, strict=True)
        ]
    else:
        cosines = [None] * len(hits)
    found: list[Evidence] = []
    for hit, cosine in zip(hits, cosines, strict=True):
        stems = _stems(hit.record.content)  # once a hit: both the unseen terms and the share read them
        against, unknown = weights.for_stems(stems)
        found.append(Evidence(cosine, _share(against, stems), float(unknown), float(weights.stranger)))
    return found


def with_relevance(
    store: Store,
    scope: Scope,
    terms: Sequence[str],
    hits: Iterable[Hit],
    *,
    query_vector: Vectors | None,
    calibration: Calibration,
    names: AbstractSet[str] = frozenset(),
    weights: TermWeights | None = None,
) -> list[Hit]:
    """``hits`` with their ``relevance`` set (see the module docstring); ``names``: the query's names.

    ``weights``: ``term_weights(store, scope, terms, names)`` when the caller has read them already."""
    listed = list(hits)
    if not listed:
        return listed
    weights = weights if weights is not None else term_weights(store, scope, terms, names)
    found = evidence(store, scope, listed, weights, query_vector)
    # A hit with no vector yet (a write-behind write the worker has not embedded) is judged on its words, as
    # without a model: a missing cosine counted as 0 would sink it below any floor while it waits.
    return [
        Hit(
            hit.record,
            hit.score,
            hit.parts,
            hit.flags,
            (calibration if e.cosine is not None else WORDS_ONLY).relevance(e),
        )
        for hit, e in zip(listed, found, strict=True)
    ]
