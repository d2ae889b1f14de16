"""(internal) A question read once by the English rules: who it is about, the days and names it holds, what it asks.

Recall asks ``read_question`` once per search; every English-only rule of ranking (first hand, named days, a
speaker's first person, the names relevance looks for, what newer facts must answer) reads the result instead of
the text. It is the one language gate of a search: a question that does not read as English
(``language.looks_english``) gets None, and those rules then pass it by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from tiermem.english.language import looks_english
from tiermem.english.named_days import NamedDays, named_days
from tiermem.english.names import names
from tiermem.english.statements import about_the_user, asked

__all__ = ["EnglishQuestion", "read_question"]

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class EnglishQuestion:
    """What the English rules read of a question."""

    about_the_user: bool  # "what did I buy", "my garden" (``statements.about_the_user``)
    named_days: NamedDays | None  # the days it names, read in the time zone of the search's ``now``
    names: frozenset[str]  # the folded words it capitalises inside a sentence (``names.names``)
    may_name: bool  # a word after the first is capitalised: it may name a speaker
    text: str

    def asked(self) -> frozenset[str]:
        """Stems of what it asks beyond the names (``statements.asked``): read only by a rule that needs them."""
        return asked(self.text)


def read_question(text: str, now: datetime) -> EnglishQuestion | None:
    """The English reading of ``text`` asked at ``now``, or None when it does not read as English."""
    if not looks_english(text):
        return None
    return EnglishQuestion(
        about_the_user=about_the_user(text),
        named_days=named_days(text, now),
        names=names(text),
        may_name=any(w[:1].isupper() and w != "I" for w in _WORD.findall(text)[1:]),
        text=text,
    )
