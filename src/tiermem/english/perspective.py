"""(internal) Questions and transcript lines in one person: a line told in the third person, a question in the first.

A transcript's turns are written in their speakers' first person ("Ann: I gave my son a bike"), but a question
about one of them is in the third person ("What did Ann give her son?"). Its words still find the turn, yet its
vector sits nearer to turns that talk *about* Ann than to what Ann said. Either side can be turned:
``third_person`` tells a line as the question would ("Ann gave Ann's son a bike"), once, when it is embedded
(the default); ``first_person`` asks a question as the speaker would, a second query vector on every search
(opt-in, ``RecallPolicy.perspective_weight``). English only; a question it cannot turn (a name that is not a
speaker, two speakers) is left alone by the caller.
"""

from __future__ import annotations

import re

from tiermem.english.language import looks_english
from tiermem.english.transcript import transcript_speaker

__all__ = ["first_person", "third_person"]

_VERB = {"does": "do", "has": "have", "is": "am", "was": "was", "doesn't": "don't", "hasn't": "haven't"}
# Which pronouns are the speaker's: the subject's own ("she", "his car", "her son", "herself") most likely are;
# an object ("told him", "gave her a book") is most likely someone else, and is left as it is.
_REFLEXIVE = re.compile(r"\b(?:her|him)self\b", re.I)
_SUBJECT = re.compile(r"\b(?:she|he)\b", re.I)
_HIS = re.compile(r"\bhis\b", re.I)
_FUNCTION = "a|an|the|and|or|but|about|to|that|this|for|with|at|in|on|of|if|when|what|how|why|from|up|out|back"
_HER_POSSESSIVE = re.compile(rf"\bher\b(?=\s+(?!(?:{_FUNCTION})\b)[a-z])", re.I)  # "her son", not "her about"
# The speaker's own words in a line, each told with their name ({} stands for it); the verb after "I" is
# turned only where it is one word ("I am", "I've"), the rest keep their form ("Ann went", "Ann want").
_APOSTROPHE = "['\u2019]"
_TOLD = [
    (re.compile(rf"\bI(?:{_APOSTROPHE}m| am)\b", re.I), "{} is"),
    (re.compile(rf"\bI(?:{_APOSTROPHE}ve| have)\b", re.I), "{} has"),
    (re.compile(rf"\bI{_APOSTROPHE}ll\b", re.I), "{} will"),
    (re.compile(rf"\bI{_APOSTROPHE}d\b", re.I), "{} would"),
    (re.compile(r"\bmyself\b", re.I), "{}"),
    (re.compile(r"\b(?:my|mine)\b", re.I), "{}'s"),
    (re.compile(r"\bme\b", re.I), "{}"),
    (re.compile(r"\bI\b"), "{}"),  # capital only: a lone "i" is more often a typo or a list mark
]
# Labels that name a role, not a person a question would name ("User: how do I ...", "Q: ...", "AI: ...").
_ROLES = frozenset(
    "user assistant system human ai bot agent support customer interviewer guest host moderator speaker narrator"
    " question answer note".split()
)


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


def third_person(line: str) -> str:
    """A transcript line ("Ann: I took my kids out") told in the third person ("Ann took Ann's kids out").

    The label goes once the name stands in the words: a name twice pulls the vector toward talk *about* Ann,
    which is what the question's vector is near anyway. A line without a person's label (none, a role such as
    "User:" or "Q:", an all-capitals one), with no word of the speaker's own, or not in English, is returned as
    it is.
    """
    name = transcript_speaker(line)
    if name is None or not _person(name):
        return line
    body = line[len(name) + 2 :]
    if not looks_english(body):
        return line
    told = body
    for pattern, replacement in _TOLD:
        told = pattern.sub(replacement.format(name), told)  # a label's name holds no backslash
    return line if told == body else told


def _person(name: str) -> bool:
    """Whether a label reads as a person's name: no role word, no single letter, no all-capitals word."""
    return name.casefold() not in _ROLES and all(len(word) > 1 and not word.isupper() for word in name.split())
