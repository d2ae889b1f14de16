"""(internal) A question about a named speaker, asked in their own first person ("What did I give my son?").

A transcript's turns are written in their speakers' first person ("Ann: I gave my son a bike"), but a question
about one of them is in the third person ("What did Ann give her son?"). Its words still find the turn, yet its
vector sits nearer to turns that talk *about* Ann than to what Ann said. Asked in Ann's own words, it sits where
her turns are. English only; a question it cannot turn (a name that is not a speaker, two speakers) is left
alone by the caller.
"""

from __future__ import annotations

import re

__all__ = ["first_person"]

_VERB = {"does": "do", "has": "have", "is": "am", "was": "was", "doesn't": "don't", "hasn't": "haven't"}
# Which pronouns are the speaker's: the subject's own ("she", "his car", "her son", "herself") most likely are;
# an object ("told him", "gave her a book") is most likely someone else, and is left as it is.
_REFLEXIVE = re.compile(r"\b(?:her|him)self\b", re.I)
_SUBJECT = re.compile(r"\b(?:she|he)\b", re.I)
_HIS = re.compile(r"\bhis\b", re.I)
_FUNCTION = "a|an|the|and|or|but|about|to|that|this|for|with|at|in|on|of|if|when|what|how|why|from|up|out|back"
_HER_POSSESSIVE = re.compile(rf"\bher\b(?=\s+(?!(?:{_FUNCTION})\b)[a-z])", re.I)  # "her son", not "her about"


def first_person(question: str, name: str) -> str | None:
    """``question`` about ``name`` in ``name``'s own first person, or None when it does not name them."""
    quoted = re.escape(name)
    if not re.search(rf"(?<!\w){quoted}(?!\w)", question):
        return None
    text = re.sub(rf"(?<!\w){quoted}['\u2019]s(?!\w)", "my", question)  # either apostrophe
    text = re.sub(
        rf"\b({'|'.join(map(re.escape, _VERB))})\s+{quoted}(?!\w)",
        lambda m: f"{_same_case(m[1], _VERB[m[1].lower()])} I",
        text,
        flags=re.I,
    )
    text = re.sub(rf"(?<!\w){quoted}(?!\w)", "I", text)
    text = _REFLEXIVE.sub("myself", text)
    text = _SUBJECT.sub("I", text)
    text = _HIS.sub("my", text)
    return _HER_POSSESSIVE.sub("my", text)


def _same_case(original: str, replacement: str) -> str:
    return replacement[:1].upper() + replacement[1:] if original[:1].isupper() else replacement
