"""(internal) Query words a hit holds by meaning: "kitten" asked of a note that says "cat".

Relevance counts the words a hit shares with the query by spelling (``recall.relevance``). A question none of
whose words the scope ever spells is, by spelling alone, about something else; but a paraphrase ("who looks
after the animal" of a note about a dog) shares meaning, not words. For such a question only, each unknown
word is compared with the words of each hit through the embedding model: a hit holding a word whose vector is
within the model's ``NEAR`` of the query word's holds that word by meaning, as a stem match would. Names never match by
meaning (a name has no synonym). Word vectors are cached per model, so a scope's words are embedded once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

import numpy as np
import numpy.typing as npt

from tiermem.embed import Embedder
from tiermem.recall.query import query_terms

__all__ = ["NEAR", "WordVectors", "held_by_meaning"]

NEAR: Mapping[str, float] = {"all-MiniLM-L6-v2-onnx-int8-384": 0.6}
"""Per model (by fingerprint), the cosine of two single words' vectors from which they count as the same meaning.
With MiniLM, near-synonyms and a kind with its instance ("kitten"/"cat", "flight"/"plane") sit above 0.6; words
that merely share a topic ("film"/"painting", "dog"/"car") near 0.45-0.5, below it. A model not listed (e5's
cosines crowd near the top, where no such line was drawn) reads no word by meaning."""

_MIN_LETTERS = 3  # shorter words are mostly fragments and numbers, whose vectors mean little
_CACHE_WORDS = 50_000  # about 75 MB of 384-dimension float32 vectors at most, per model


class WordVectors:
    """Single words' vectors from one embedding model, the latest ``size`` kept."""

    def __init__(self, embedder: Embedder, size: int = _CACHE_WORDS) -> None:
        self._embedder = embedder
        self._size = size
        self._cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, words: Iterable[str]) -> dict[str, npt.NDArray[np.float32]]:
        """The vector of each word (unit length), embedding in one batch those not yet cached."""
        wanted = list(dict.fromkeys(words))
        with self._lock:
            missing = [w for w in wanted if w not in self._cache]
        if missing:
            vectors = np.asarray(self._embedder.embed_batch(missing), dtype=np.float32).reshape(len(missing), -1)
            with self._lock:
                for word, vector in zip(missing, vectors, strict=True):
                    self._cache[word] = vector
                while len(self._cache) > self._size:
                    self._cache.popitem(last=False)
        with self._lock:
            out = {}
            for w in wanted:
                if w in self._cache:
                    self._cache.move_to_end(w)
                    out[w] = self._cache[w]
            return out


_MODELS: dict[str, WordVectors] = {}
_MODELS_LOCK = threading.Lock()


def word_vectors(embedder: Embedder) -> WordVectors:
    """The process's word cache for ``embedder``'s model (one per fingerprint)."""
    with _MODELS_LOCK:
        found = _MODELS.get(embedder.fingerprint)
        if found is None:
            found = _MODELS[embedder.fingerprint] = WordVectors(embedder)
        return found


def _content_words(text: str) -> list[str]:
    return [w for w in query_terms(text) if len(w) >= _MIN_LETTERS and not w.isdigit()]


def held_by_meaning(
    embedder: Embedder, unknown: Mapping[str, float], texts: Sequence[str], names: AbstractSet[str] = frozenset()
) -> list[frozenset[str]]:
    """For each text, the words of ``unknown`` (the query's words no record spells) it holds a word near in
    meaning to (cosine at least the model's ``NEAR``; none for a model without one); names left out."""
    line = NEAR.get(embedder.fingerprint)
    asked = [w for w in unknown if w not in names and len(w) >= _MIN_LETTERS and not w.isdigit()]
    if line is None or not asked or not texts:
        return [frozenset() for _ in texts]
    words = [_content_words(t) for t in texts]
    vectors = word_vectors(embedder).of([*asked, *(w for ws in words for w in ws)])
    query = np.stack([vectors[w] for w in asked])
    out: list[frozenset[str]] = []
    for held in words:
        if not held:
            out.append(frozenset())
            continue
        near = np.stack([vectors[w] for w in held]) @ query.T  # held words x asked words
        out.append(frozenset(w for w, best in zip(asked, near.max(axis=0), strict=True) if best >= line))
    return out
