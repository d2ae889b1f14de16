"""(internal) What a directive-shape signal is: a named detector that finds its evidence and a weight in [0, 1]."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from tiermem.trust.literals import may_match

__all__ = [
    "Finding",
    "Signal",
    "Table",
    "around",
    "first_sentence",
    "noisy_or",
    "patterns",
    "sentences",
    "table",
    "words",
]

Finding = tuple[float, str]  # (weight, the text that fired)
Table = list[tuple[re.Pattern[str], float]]  # patterns and the weight each gives when it fires


@dataclass(frozen=True, slots=True)
class Signal:
    """One detector: a name for the reason and a function that finds its evidence and weight.

    ``in_roles``: an operator's own role description says this too (it addresses the assistant, orders its
    answers, speaks of the user), so in one that adds nothing a hijacker would it does not count
    (``trust.frames``).
    """

    name: str
    find: Callable[[str], Finding | None]
    in_roles: bool = False


def words(*alternatives: str) -> str:
    """A non-capturing group of regular-expression alternatives."""
    return r"(?:" + "|".join(alternatives) + r")"


def table(*rows: tuple[str | re.Pattern[str], float]) -> Table:
    """A signal's table from regular expressions (compiled once; a compiled one keeps its flags) and their weights."""
    return [(re.compile(pattern), weight) for pattern, weight in rows]


def patterns(table: Sequence[tuple[re.Pattern[str], float]]) -> Callable[[str], Finding | None]:
    """The strongest pattern's weight; each other distinct pattern adds half its own (same signal, more evidence)."""

    def find(text: str) -> Finding | None:
        fired = sorted(
            ((w, m.group(0)) for p, w in table if may_match(p, text) and (m := p.search(text))), reverse=True
        )
        if not fired:
            return None
        weight, excerpt = fired[0]
        return noisy_or((weight, *(w / 2 for w, _ in fired[1:]))), excerpt

    return find


# A title's full stop ends no sentence: "the helper on Mr. Lee's phone: ..." is one sentence.
_TITLE = r"(?<!\bmr\.)(?<!\bmrs\.)(?<!\bms\.)(?<!\bdr\.)(?<!\bst\.)(?<!\bprof\.)"
_CLAUSE_END = re.compile(r"(?<=[.!?;])" + _TITLE + r"\s+|\n+", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])" + _TITLE + r"\s+|\n+", re.IGNORECASE)


@lru_cache(maxsize=64)
def sentences(text: str, clauses: bool = True) -> tuple[str, ...]:
    """``text`` cut at line breaks and sentence ends, and at semicolons unless ``clauses`` is False."""
    # Many signals cut the same window in turn: cut once, remembered for the few windows being scored.
    return tuple((_CLAUSE_END if clauses else _SENTENCE_END).split(text))


def first_sentence(
    text: str, first: re.Pattern[str], *also: re.Pattern[str], after: bool = False, clauses: bool = True
) -> tuple[str, re.Match[str]] | None:
    """The first sentence (and match) where ``first`` fires and every one of ``also`` too (after it, if ``after``)."""
    # A sentence is part of the text: what cannot match in the text matches in none of its sentences.
    if not all(may_match(p, text) for p in (first, *also)):
        return None
    for sentence in sentences(text, clauses):
        found = first.search(sentence)
        if found and all(p.search(sentence, found.end() if after else 0) for p in also):
            return sentence, found
    return None


def around(text: str, part: str, reach: int) -> str:
    """``part`` of ``text`` with up to ``reach`` characters either side: what a neighbouring sentence says too."""
    at = text.find(part)
    return text[max(0, at - reach) : at + len(part) + reach]


def noisy_or(weights: Iterable[float]) -> float:
    """1 - prod(1 - w): independent pieces of evidence, none of which alone need be conclusive."""
    remaining = 1.0
    for weight in weights:
        remaining *= 1.0 - weight
    return 1.0 - remaining
