"""(internal) Reading English statements without a model: words, names, values, subjects, single-valued slots, negation.

The write path's merge and supersession rules (``supersede``) and recall's test of which retrieved facts compete
for a question (``same_frame``, ``asked``, ``answered``) rest on these. English only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

__all__ = [
    "ALL_OBJECTS",
    "CLAUSE",
    "FORMER",
    "FRAME_OVERLAP",
    "HEDGE",
    "HEDGES",
    "NAME",
    "NEGATION",
    "ONLY",
    "STOP_WORDS",
    "WORD",
    "YET",
    "Reading",
    "about_the_user",
    "accumulates",
    "after_relation",
    "answered",
    "asked",
    "content_words",
    "name_words",
    "names_in",
    "negated_clauses",
    "read",
    "same_frame",
    "same_subject",
    "slot_of",
    "stem",
    "stems",
    "subject_of",
    "unquote",
    "values_of",
    "word_overlap",
]

FRAME_OVERLAP = 0.5  # the same statement frame: content words beyond names overlap at least this much

WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\u2019-]*")
NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
_NUMBER = re.compile(r"\b\d[\d.,:/]*\b")
_FIRST_PERSON = re.compile(r"^\s*(i|i'm|i\u2019m|i've|my|me|we|our)\b", re.I)
MY_RELATION = re.compile(r"^\s*(my|our)\s+(?:best\s+|older\s+|younger\s+|little\s+|big\s+)?(\w+)", re.I)
# People and pets a user talks about: "My sister lives in Dallas" is about the sister, not the user.
RELATIONS = frozenset(
    """sister brother mother father mom mum dad wife husband partner friend son daughter dog cat boss colleague
    coworker kid kids child children parents girlfriend boyfriend roommate neighbor neighbour cousin aunt uncle
    grandma grandpa grandmother grandfather baby pet fiance fiancee""".split()
)

# Function words and vague words: they never make two statements different facts.
STOP_WORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being am do does
    did have has had i me my mine we our you your he him his she her they them their it its this that
    these those there here then than so very really just also too not no yes now still already once
    again about into over after before during while which who whom whose what when where why how all any
    both each few more most some such only own same other lot lots much many quite rather bit actually""".split()
)
# A negation marks a denial; clauses bound what it denies.
# "rather than" / "instead of" deny what follows them: "shows her own photos, rather than Ann's"; "avoids",
# "dislikes" and "refuses" deny their object.
NEGATION = re.compile(
    r"\b(not|never|no|none|neither|nor|unable|cannot|rather\s+than|instead\s+of|avoid(?:s|ed|ing)?|dislike[sd]?"
    r"|refuse[sd]?)\b|n['\u2019]t\b",
    re.I,
)
# A hedged statement is a guess ("Ann might keep bees"): any definite denial of its words overrides it.
HEDGES = frozenset("may might could possibly perhaps probably likely maybe".split())
HEDGE = re.compile(rf"\b({'|'.join(sorted(HEDGES))})\b", re.I)
YET = re.compile(r"\byet\b", re.I)
# "and" before an auxiliary starts another predicate: "keeps bees and has no licence to sell honey" denies only
# the licence.
CLAUSE = re.compile(
    r";|\b(?:while|whereas|but|instead|although|though)\b"
    r"|\band\s+(?=(?:has|have|had|is|are|was|were|do|does|did|never|not|can|will|would)\b)",
    re.I,
)
# A negation with these denies every object of its verb ("does not play any instruments"), and "only" excludes
# the rest ("only speaks English"): even accumulating likes or skills.
_ONLY_WORDS = "only|exclusively|solely"
ALL_OBJECTS = re.compile(rf"\b(any|no|nothing|anything|{_ONLY_WORDS})\b", re.I)
ONLY = re.compile(rf"\b({_ONLY_WORDS})\b", re.I)
# "Ann's brother", "my sister's husband": a relative of the subject is someone else, not Ann or the sister.
_POSSESSIVE = re.compile(r"['\u2019]s\s+(\w+)")
# A slot filled in the past tense: the filler was, and may have been replaced since.
FORMER = re.compile(r"\b(lived|worked|resided|used\s+to|formerly|previously)\b", re.I)
# Leading time or place phrases ("In 2022, Ann ...") come before the subject, not as it.
_LEAD_IN = re.compile(
    r"^\s*(?:in|on|at|since|after|before|during|by|from|until|as\s+of|recently|currently|now|today|later)\b"
    r"[^,]{0,40},\s*",
    re.I,
)
# A question about the user speaks in the first person; one about what the agent said, or about "our last chat",
# asks for the other side of the conversation (or both).
_USER = re.compile(r"\b(i|i'm|i\u2019m|i've|i\u2019ve|i'd|i\u2019d|my|me|mine|myself)\b", re.I)
_SAYING = (
    "said|told|telling|mentioned|recommended|suggested|gave|provided|listed|shared|explained|described|wrote"
    "|created|came\\s+up|offered|proposed|answered|replied|responded|advised"
)
_AGENT = "(?:assistant|agent|bot|ai|chatbot)"
_AGENT_SAID = re.compile(
    rf"\byou(?:['\u2019](?:d|ve))?\s+(?:\w+\s+)?({_SAYING})\b"
    rf"|\bdid\s+(?:you|(?:the\s+)?{_AGENT})\s+(say|tell|mention|recommend|suggest|give|provide|list|share|explain"
    r"|describe|write|call|advise)\b"
    r"|\byour\s+(?:\w+\s+)?(answer|reply|response|suggestion|recommendation|list|advice|explanation)s?\b"
    rf"|\b(?:the\s+)?{_AGENT}\s+(?:\w+\s+)?({_SAYING})\b"
    r"|\bwe\s+(discussed|talked|spoke|chatted)\b"
    r"|\b(our|the)\s+(previous|earlier|last|past)\s+(chat|conversation|discussion|talk|exchange)s?\b",
    re.I,
)
# Words that shape a question rather than say what it is about.
_QUESTION = frozenset("type kind sort one might could would should can will may possible".split())
# Verbs whose objects accumulate: a second object does not replace the first.
_ADDITIVE = frozenset(
    """like likes liked love loves loved enjoy enjoys enjoyed adore adores visited visit visits has have
    had own owns owned know knows knew play plays played read reads watch watches watched collect
    collects speak speaks tried try tries met meet meets""".split()
)
# Single-valued slots: a new filler replaces the old one. What lies between a verb and its object stops at the
# next such verb, and an address is tried only where its run of characters starts: each character is then read a
# bounded number of times, so a long text full of the verb costs linear time, not quadratic.
_RESIDE = r"live[sd]?|living|moved|relocated|reside[sd]?|based"
_PHONE = r"phone|mobile|cell"
_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.I))
    for name, pattern in (
        ("residence", rf"\b({_RESIDE})\b(?:(?!\b(?:{_RESIDE}|in|to|at)\b)[^.])*+\b(in|to|at)\b"),
        ("employer", r"\b(work(s|ed|ing)?\s+(at|for)|employed\s+(at|by)|job\s+at|joined)\b"),
        ("job", r"\b(work(s|ed|ing)?\s+as|job\s+is|profession|occupation)\b"),
        ("name", r"\b(my\s+name\s+is|call\s+me|name\s+is)\b"),
        ("age", r"\b(\d+\s+years?\s+old|age\s+is|turned\s+\d+)\b"),
        # "for my wife's birthday" names a possessor, not who the partner is.
        (
            "partner",
            r"\b(married|engaged|dating|divorced|(husband|wife|partner|boyfriend|girlfriend)(?!['\u2019]s\b))\b",
        ),
        # Contact slots are filled by a value, not by any mention: "I check my email" keeps the address, and
        # "I dropped my phone" (the device) keeps the number.
        ("phone_number", rf"\b({_PHONE})\s+(number|no\b)|\b({_PHONE})\b(?:(?!\b(?:{_PHONE})\b).)*?\d{{3}}"),
        ("phone", rf"\b({_PHONE})\b"),
        ("email", r"\be-?mail\s+(address|is|was)\b|(?<![\w.+-])[\w.+-]+@[\w-]+\.\w"),
        ("address", r"\baddress\s+(is|was|changed)\b"),
        ("home_airport", r"\b(home\s+airport|fly\s+(out\s+)?of|fly\s+from)\b"),
        ("seat", r"\b(aisle|window|middle)\s+seats?\b|\bseat\s+preference\b"),
        ("favorite", r"\bfavou?rite\s+(\w+)"),
    )
)


def content_words(text: str) -> set[str]:
    words = (w.casefold().removesuffix("'s").removesuffix("\u2019s").strip("'\u2019") for w in WORD.findall(text))
    return set(words) - STOP_WORDS


def stems(text: str, without: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Stems of ``text``'s content words, leaving out the words ``without``."""
    return {stem(w) for w in content_words(text) - without}


def name_words(*texts: str, names: tuple[str, ...] = ()) -> set[str]:
    """The words of the names in ``texts`` and of ``names``, casefolded: who a statement is about, not what."""
    return {w.casefold() for name in {n for t in texts for n in names_in(t)} | set(names) for w in name.split()}


def values_of(text: str) -> set[str]:
    names = {m.group(0) for m in NAME.finditer(text) if m.start() > 0 or " " in m.group(0)}
    return names | set(_NUMBER.findall(text))


def unquote(text: str) -> str:
    text = text.strip().lstrip("\"'\u201c\u2018(")  # a quoted statement has the same subject
    lead_in = _LEAD_IN.match(text)
    return text[lead_in.end() :] if lead_in else text


def subject_of(text: str) -> str | None:
    """'user' for first-person statements, 'my sister' for a relation's, a leading name, else None."""
    text = unquote(text)
    relation = MY_RELATION.match(text)
    if relation and relation.group(2).casefold() in RELATIONS:
        return _owned(f"my {relation.group(2).casefold()}", text, relation.end())
    if _FIRST_PERSON.match(text):
        return "user"
    match = NAME.match(text)
    return _owned(match.group(0), text, match.end()) if match else None


def _owned(subject: str, text: str, end: int) -> str:
    """``subject``, or their relative when a possessive follows: "Ann's brother lives ..." is about the brother."""
    # Only people and pets are someone else: "Ann's research focuses on ..." is still about Ann.
    possessive = _POSSESSIVE.match(text, end)
    if possessive and possessive.group(1).casefold() in RELATIONS:
        return f"{subject}'s {possessive.group(1).casefold()}"
    return subject


def after_relation(text: str) -> str:
    """The statement without a leading 'my <relation>' (whose noun must not read as a slot: 'my wife ...')."""
    relation = MY_RELATION.match(unquote(text))
    if relation and relation.group(2).casefold() in RELATIONS:
        return unquote(text)[relation.end() :]
    return text


def same_subject(a: str, b: str) -> bool:
    """Both statements are about the same subject: the user, or a person named in both."""
    return read(a).same_subject(read(b))


def asked(question: str) -> frozenset[str]:
    """Stems of what a question asks about: its content words beyond the names in it (who, not what)."""
    return frozenset(stems(question, name_words(question) | _QUESTION))


def about_the_user(question: str) -> bool:
    """The question asks about the user ("what did I buy", "my garden"), not about what the agent said."""
    return _USER.search(question) is not None and _AGENT_SAID.search(question) is None


def answered(what: frozenset[str], statement: str) -> frozenset[str]:
    """The stems of ``what`` (see ``asked``) that ``statement`` contains."""
    return read(statement).answered(what)


def same_frame(a: str, b: str) -> bool:
    """The same statement, perhaps about someone else: the words beyond the names overlap ≥ ``FRAME_OVERLAP``."""
    return read(a).same_frame(read(b))


@dataclass(frozen=True, slots=True)
class Reading:
    """What the pairwise tests (``answered``, ``same_subject``, ``same_frame``) read of one statement, read once:
    comparing n statements pairwise then reads each text once, not once per pair."""

    words: frozenset[str]  # content_words
    stems: frozenset[str]  # their stems
    subject: str | None  # subject_of
    names: frozenset[str]  # names_in
    name_words: frozenset[str]  # name_words of this text alone

    def answered(self, what: frozenset[str]) -> frozenset[str]:
        """The stems of ``what`` this statement contains."""
        return what & self.stems

    def same_subject(self, other: Reading) -> bool:
        """``same_subject`` of the two statements."""
        return (self.subject is not None and self.subject == other.subject) or bool(self.names & other.names)

    def same_frame(self, other: Reading) -> bool:
        """``same_frame`` of the two statements (the name words of both are left out of both)."""
        names = self.name_words | other.name_words
        return word_overlap(self.words - names, other.words - names) >= FRAME_OVERLAP


@functools.lru_cache(maxsize=1024)
def read(text: str) -> Reading:
    """The ``Reading`` of one statement (the latest ones kept: recall compares the same facts query after query)."""
    words = content_words(text)
    names = names_in(text)
    return Reading(
        words=frozenset(words),
        stems=frozenset(stem(w) for w in words),
        subject=subject_of(text),
        names=frozenset(names),
        name_words=frozenset(name_words(names=tuple(names))),
    )


def slot_of(text: str) -> str | None:
    """The single-valued slot a statement fills, if any (favourites carry their noun: 'favorite:color')."""
    for name, pattern in _SLOTS:
        match = pattern.search(text)
        if match:
            return f"favorite:{match.group(1).casefold()}" if name == "favorite" else name
    return None


def word_overlap(a: AbstractSet[str], b: AbstractSet[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def names_in(text: str) -> set[str]:
    return {m.group(0) for m in NAME.finditer(text)}


def accumulates(text: str) -> bool:
    """The statement's verb accumulates objects (likes, visited, owns, ...) rather than replacing them."""
    return bool(content_words(text) & _ADDITIVE)


def stem(word: str) -> str:
    """A crude stem, enough to match 'received' with 'receive', 'awards' with 'award', 'fluently' with 'fluent'."""
    if word.endswith("ies") and len(word) >= 6:  # "countries" -> "country", "cities" -> "city"
        return word[:-3] + "y"
    if word.endswith("ly") and len(word) >= 7:  # "fluently" -> "fluent", "locally" -> "local"
        return word[:-2]
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def negated_clauses(text: str) -> str:
    """The clauses of ``text`` that hold a negation, or all of it when none does."""
    # "Ann is a carpenter, while Ben has never sold a table": the negation denies only its own clause.
    negated = [clause for clause in CLAUSE.split(text) if NEGATION.search(clause)]
    return " ".join(negated) if negated else text
