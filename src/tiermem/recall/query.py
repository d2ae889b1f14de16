"""(internal) The query of one search, parsed once: its text, when it is asked, its terms, its English reading.

Every step of recall reads this value instead of the question's text: the full-text terms and phrase pairs, the
language gate (``english`` is None for a question that does not read as English, so every English rule passes
it by) and, once the model has embedded it, its vector.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime

from tiermem.embed import Vectors
from tiermem.english.question import EnglishQuestion, read_question
from tiermem.errors import ValidationError
from tiermem.text_index import query_words

__all__ = ["MAX_K", "MAX_QUERY_CHARS", "Query", "check_query", "parse_query", "query_terms"]

MAX_K = 100
MAX_QUERY_CHARS = 4000
_MAX_TERMS = 48

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


def query_terms(text: str) -> list[str]:
    """Words of ``text`` usable as full-text terms: any input is safe, stop words dropped when others remain.

    The words are the index's own (``text_index.query_words``): folded before they are split, so a letter whose
    case-folding adds a mark stays one word, and Chinese or Japanese runs become the pairs the index holds.
    """
    words = query_words(text)
    content = [w for w in words if w not in _STOP_WORDS]
    chosen = content or words
    return list(dict.fromkeys(chosen))[:_MAX_TERMS]


def check_query(query: object, k: object) -> None:
    """ValidationError unless ``query`` is a string of at most ``MAX_QUERY_CHARS`` and ``k`` from 1 to ``MAX_K``."""
    if not isinstance(query, str):
        raise ValidationError("query", "must be a string", given=type(query).__name__)
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationError("query", "is too long", given=f"{len(query)} characters", limit=MAX_QUERY_CHARS)
    if not isinstance(k, int) or isinstance(k, bool) or k < 1 or k > MAX_K:
        raise ValidationError("k", f"must be an integer from 1 to {MAX_K}", given=k, limit=MAX_K)


@dataclass(frozen=True, slots=True)
class Query:
    """A question as recall reads it (also what a ranking factor is given; ``text`` and ``now`` as asked)."""

    text: str
    now: datetime  # timezone-aware: ages, validity and named days are compared with stored UTC times
    terms: tuple[str, ...] = ()  # full-text terms (``query_terms``)
    english: EnglishQuestion | None = None  # None: not English, no English rule applies
    vector: Vectors | None = None  # the question's vector, once embedded (None without a model)

    @property
    def pairs(self) -> list[str]:
        """Adjacent terms as phrases ("support group"): the phrase list's terms."""
        return [f"{a} {b}" for a, b in itertools.pairwise(self.terms)]


def parse_query(text: str, now: datetime) -> Query:
    """``text`` asked at ``now``, parsed once (``now`` must be timezone-aware)."""
    if now.tzinfo is None:
        raise ValidationError("now", "must be timezone-aware", given=now.isoformat())
    return Query(text, now, tuple(query_terms(text)), read_question(text, now))
