"""Deciding, without an LLM, whether a new fact repeats an old one (merge) or replaces it (supersede).

Both decisions look at one new fact and one stored fact of the same scope and type, with the cosine
similarity of their embeddings. They are deliberately conservative: a wrong merge or supersession hides a
true fact, a missed one only leaves an extra row that recall still ranks.

- **Merge** (a paraphrase): cosine ≥ ``MERGE_COSINE`` and content-word overlap ≥ ``MERGE_OVERLAP`` and no
  value (name, number) or content word of substance on one side only, the same polarity (a denial is never a
  paraphrase of what it denies), and the same subject — "I really like
  hiking" ≈ "I like hiking a lot", but never "I live in Seattle" ≈ "I live in Austin", nor "Ann wrote a book
  with a foreword by Ben" ≈ "Ben wrote a book with a foreword by Ann".
- **Supersede**, either rule:
  1. *Slot*: both statements are about the same subject (the user, or the same named person) and fill the
     same single-valued slot (where someone lives, works, their job, name, age, partner, phone, email,
     address, a favourite, home airport, seat preference) with different words — "I live in Seattle" →
     "I moved to Austin".
  2. *Frame*: the same subject, the same statement frame (content-word overlap ≥ ``FRAME_OVERLAP``) and a
     different value: a name or number present on one side only — "Nora and Eliza collaborated on the
     charity event" → "Joren and Eliza collaborated on the charity event" — or one run of words swapped in
     an otherwise identical statement, no longer than the words kept — "performed as a soprano soloist" →
     "performed as a bass soloist" (a swap needs only ``SWAP_OVERLAP``, and the words kept must say more than
     who: "is known for expertise in geology" → "... in music composition"). Statements whose verb adds
     rather than replaces (likes, loves, enjoys, visited, has, owns, ...) never supersede by frame:
     "likes tea" and "likes coffee" are both true.
  3. *Denial*: one statement is negated (not, never, no, ...) and the other is not, both name the same
     subject or person, and the negated clause repeats at least ``DENIAL_COVER`` (all of it with an additive
     verb) and at least ``DENIAL_SHARED`` words of what the other says beyond the names in it — "Ann led
     workshops for choral directors" → "Ann has never led workshops for choral directors"; or a negated clause
     says nothing the old statement does not (≥ ``DENIAL_SHARED`` words) — "Ann received the Elm Prize in 2021
     for her essays" → "Ann did not receive any prizes in 2021". Denying something else ("likes tea" → "does
     not like coffee") or in another clause ("Bo is a photographer, while Ann never exhibited") repeats too
     little. A guess (may, might, could, ...) yields to any definite denial repeating ``DENIAL_SHARED`` of its
     words — "Ann might be active on social media" → "Ann avoids all social media".
  4. *Reassignment*: one clause says the old statement (≥ ``REASSIGN_COVER`` of its words) of someone else and
     another denies it of the old subject, or limits them with "only" — "Ann is fluent in Spanish" → "Bo is
     fluent in Spanish, while Ann only speaks English". With an additive verb the denial must cover every
     object ("does not play any instrument").
  5. *Restriction*: "only" restates the old frame with other values — "Ann speaks English and French
     fluently" → "Ann only speaks Spanish fluently".

Recall uses ``same_frame``, ``asked`` and ``answered`` to tell which retrieved facts compete for a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "DENIAL_COVER",
    "DENIAL_SHARED",
    "FRAME_OVERLAP",
    "MERGE_COSINE",
    "MERGE_OVERLAP",
    "REASSIGN_COVER",
    "SWAP_OVERLAP",
    "Decision",
    "Verdict",
    "answered",
    "asked",
    "decide",
    "same_frame",
    "same_subject",
    "slot_of",
    "subject_of",
]

MERGE_COSINE = 0.9
MERGE_OVERLAP = 0.5
FRAME_OVERLAP = 0.5
SWAP_OVERLAP = 0.35
DENIAL_COVER = 0.6
DENIAL_SHARED = 2
REASSIGN_COVER = 0.6

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\u2019-]*")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
_NUMBER = re.compile(r"\b\d[\d.,:/]*\b")
_FIRST_PERSON = re.compile(r"^\s*(i|i'm|i\u2019m|i've|my|me|we|our)\b", re.I)
_MY_RELATION = re.compile(r"^\s*(my|our)\s+(?:best\s+|older\s+|younger\s+|little\s+|big\s+)?(\w+)", re.I)
# People and pets a user talks about: "My sister lives in Dallas" is about the sister, not the user.
_RELATIONS = frozenset(
    """sister brother mother father mom mum dad wife husband partner friend son daughter dog cat boss colleague
    coworker kid kids child children parents girlfriend boyfriend roommate neighbor neighbour cousin aunt uncle
    grandma grandpa grandmother grandfather baby pet fiance fiancee""".split()
)

# Function words and vague words: they never make two statements different facts.
_STOP = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being am do does
    did have has had i me my mine we our you your he him his she her they them their it its this that
    these those there here then than so very really just also too not no yes now still already once
    again about into over after before during while which who whom whose what when where why how all any
    both each few more most some such only own same other lot lots much many quite rather bit actually""".split()
)
# A negation marks a denial; clauses bound what it denies.
# "rather than" / "instead of" deny what follows them: "features her own work, rather than Ann's"; "avoids",
# "dislikes" and "refuses" deny their object.
_NEGATION = re.compile(
    r"\b(not|never|no|none|neither|nor|unable|cannot|rather\s+than|instead\s+of|avoid(?:s|ed|ing)?|dislike[sd]?"
    r"|refuse[sd]?)\b|n['\u2019]t\b",
    re.I,
)
# A hedged statement is a guess ("Ann might be active online"): any definite denial of its words overrides it.
_HEDGE = re.compile(r"\b(may|might|could|possibly|perhaps|probably|likely|maybe)\b", re.I)
_YET = re.compile(r"\byet\b", re.I)
_HEDGES = frozenset("may might could possibly perhaps probably likely maybe".split())
# "and" before an auxiliary starts another predicate: "is known for A and has no experience in B" denies only B.
_CLAUSE = re.compile(
    r";|\b(?:while|whereas|but|instead|although|though)\b"
    r"|\band\s+(?=(?:has|have|had|is|are|was|were|do|does|did|never|not|can|will|would)\b)",
    re.I,
)
# A negation with these denies every object of its verb ("does not play any instruments"), and "only" excludes
# the rest ("only speaks English"): even accumulating likes or skills.
_ALL_OBJECTS = re.compile(r"\b(any|no|nothing|anything|only|exclusively|solely)\b", re.I)
_ONLY = re.compile(r"\b(only|exclusively|solely)\b", re.I)
# "Ann's brother", "my sister's husband": a relative of the subject is someone else, not Ann or the sister.
_POSSESSIVE = re.compile(r"['\u2019]s\s+(\w+)")
# A slot filled in the past tense: the filler was, and may have been replaced since.
_FORMER = re.compile(r"\b(lived|worked|resided|used\s+to|formerly|previously)\b", re.I)
# Leading time or place phrases ("In 2022, Ann ...") come before the subject, not as it.
_LEAD_IN = re.compile(
    r"^\s*(?:in|on|at|since|after|before|during|by|from|until|as\s+of|recently|currently|now|today|later)\b"
    r"[^,]{0,40},\s*",
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
# Single-valued slots: a new filler replaces the old one.
_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.I))
    for name, pattern in (
        ("residence", r"\b(live[sd]?|living|moved|relocated|reside[sd]?|based)\b[^.]*?\b(in|to|at)\b"),
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
        ("phone_number", r"\b(phone|mobile|cell)\s+(number|no\b)|\b(phone|mobile|cell)\b.*\d{3}"),
        ("phone", r"\b(phone|mobile|cell)\b"),
        ("email", r"\be-?mail\s+(address|is|was)\b|[\w.+-]+@[\w-]+\.\w"),
        ("address", r"\baddress\s+(is|was|changed)\b"),
        ("home_airport", r"\b(home\s+airport|fly\s+(out\s+)?of|fly\s+from)\b"),
        ("seat", r"\b(aisle|window|middle)\s+seats?\b|\bseat\s+preference\b"),
        ("favorite", r"\bfavou?rite\s+(\w+)"),
    )
)


class Verdict(StrEnum):
    """What to do with a new fact given a stored one."""

    NONE = "none"
    MERGE = "merge"
    SUPERSEDE = "supersede"


@dataclass(frozen=True, slots=True)
class Decision:
    """A verdict and the reason a person can read."""

    verdict: Verdict
    reason: str = ""


def _content(text: str) -> set[str]:
    words = (w.casefold().removesuffix("'s").removesuffix("\u2019s").strip("'\u2019") for w in _WORD.findall(text))
    return set(words) - _STOP


def _values(text: str) -> set[str]:
    names = {m.group(0) for m in _NAME.finditer(text) if m.start() > 0 or " " in m.group(0)}
    return names | set(_NUMBER.findall(text))


def _unquote(text: str) -> str:
    text = text.strip().lstrip("\"'\u201c\u2018(")  # a quoted statement has the same subject
    lead_in = _LEAD_IN.match(text)
    return text[lead_in.end() :] if lead_in else text


def subject_of(text: str) -> str | None:
    """'user' for first-person statements, 'my sister' for a relation's, a leading name, else None."""
    text = _unquote(text)
    relation = _MY_RELATION.match(text)
    if relation and relation.group(2).casefold() in _RELATIONS:
        return _owned(f"my {relation.group(2).casefold()}", text, relation.end())
    if _FIRST_PERSON.match(text):
        return "user"
    match = _NAME.match(text)
    return _owned(match.group(0), text, match.end()) if match else None


def _owned(subject: str, text: str, end: int) -> str:
    """``subject``, or their relative when a possessive follows: "Ann's brother lives ..." is about the brother."""
    # Only people and pets are someone else: "Ann's research focuses on ..." is still about Ann.
    possessive = _POSSESSIVE.match(text, end)
    if possessive and possessive.group(1).casefold() in _RELATIONS:
        return f"{subject}'s {possessive.group(1).casefold()}"
    return subject


def _after_relation(text: str) -> str:
    """The statement without a leading 'my <relation>' (whose noun must not read as a slot: 'my wife ...')."""
    relation = _MY_RELATION.match(_unquote(text))
    if relation and relation.group(2).casefold() in _RELATIONS:
        return _unquote(text)[relation.end() :]
    return text


def same_subject(a: str, b: str) -> bool:
    """Both statements are about the same subject: the user, or a person named in both."""
    subject_a = subject_of(a)
    return (subject_a is not None and subject_a == subject_of(b)) or bool(_names(a) & _names(b))


def asked(question: str) -> frozenset[str]:
    """Stems of what a question asks about: its content words beyond the names in it (who, not what)."""
    names = {w.casefold() for name in _names(question) for w in name.split()}
    return frozenset(_stem(w) for w in _content(question) - names - _QUESTION)


def answered(what: frozenset[str], statement: str) -> frozenset[str]:
    """The stems of ``what`` (see ``asked``) that ``statement`` contains."""
    return what & {_stem(w) for w in _content(statement)}


def same_frame(a: str, b: str) -> bool:
    """The same statement, perhaps about someone else: the words beyond the names overlap ≥ ``FRAME_OVERLAP``."""
    names = {w.casefold() for name in _names(a) | _names(b) for w in name.split()}
    return _overlap(_content(a) - names, _content(b) - names) >= FRAME_OVERLAP


def slot_of(text: str) -> str | None:
    """The single-valued slot a statement fills, if any (favourites carry their noun: 'favorite:color')."""
    for name, pattern in _SLOTS:
        match = pattern.search(text)
        if match:
            return f"favorite:{match.group(1).casefold()}" if name == "favorite" else name
    return None


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def _names(text: str) -> set[str]:
    return {m.group(0) for m in _NAME.finditer(text)}


def decide(new: str, old: str, cosine: float) -> Decision:
    """Merge, supersede or neither, for a new statement against a stored one of the same scope and type."""
    a, b = _content(new), _content(old)
    overlap = _overlap(a, b)
    changed_values = _values(new) ^ _values(old)
    subject_new, subject_old = subject_of(new), subject_of(old)
    same_subject = subject_new is not None and subject_new == subject_old
    # A statement and its denial share their words ("I like tea" / "I do not like tea"): never a paraphrase.
    same_polarity = bool(_NEGATION.search(new)) == bool(_NEGATION.search(old))
    paraphrase = (
        cosine >= MERGE_COSINE
        and overlap >= MERGE_OVERLAP
        and same_polarity
        and not changed_values
        and not _substantive(a ^ b)
        and _same_order(new, old)
    )
    if paraphrase and (same_subject or subject_new is None or subject_old is None):
        return Decision(Verdict.MERGE, f"paraphrase (cosine {cosine:.2f}, word overlap {overlap:.2f})")
    shared_name = bool(_names(new) & _names(old))
    if same_subject and a != b:
        slot = slot_of(_after_relation(new))
        # "I lived in Boston during college" tells an earlier filler, not a new one; of the same value
        # ("I lived in Seattle") it says the old one is over.
        former = _FORMER.search(new) is not None and not _values(new) & _values(old)
        if slot is not None and slot == slot_of(_after_relation(old)) and not former:
            return Decision(Verdict.SUPERSEDE, f"same subject ({subject_new}) and slot ({slot}), new value")
    additive = _additive(new) or _additive(old)
    if (same_subject or shared_name) and overlap >= SWAP_OVERLAP and not additive:
        if changed_values and overlap >= FRAME_OVERLAP:
            changed = ", ".join(sorted(changed_values))
            return Decision(Verdict.SUPERSEDE, f"same statement (word overlap {overlap:.2f}) with new value: {changed}")
        swap = _substitution(new, old)
        if swap is not None:
            return Decision(Verdict.SUPERSEDE, f"same statement (word overlap {overlap:.2f}) with {swap}")
    denial = _denial(new, old, subject_old, same_subject)
    if denial is not None:
        return Decision(Verdict.SUPERSEDE, f"denies the old statement ({denial})")
    if same_subject and _restricted(new, old):
        return Decision(Verdict.SUPERSEDE, "restates it with other values, exclusively ('only')")
    if subject_old is not None and _reassigned(new, old, subject_old):
        return Decision(Verdict.SUPERSEDE, f"says it of someone else, while {subject_old} not (or only otherwise)")
    return Decision(Verdict.NONE)


def _additive(text: str) -> bool:
    """The statement's verb accumulates objects (likes, visited, owns, ...) rather than replacing them."""
    return bool(_content(text) & _ADDITIVE)


def _same_order(new: str, old: str) -> bool:
    """The words both statements share come in the same order: "tea over coffee" is not "coffee over tea"."""
    shared = _content(new) & _content(old)
    orders = ([w for w in dict.fromkeys(_WORD.findall(_unquote(t).casefold())) if w in shared] for t in (new, old))
    return next(orders) == next(orders)


def _substantive(words: set[str]) -> bool:
    # Words on one side only that are longer than a filler ("lot", "bit") and not an intensifier.
    return any(len(w) > 3 for w in words)


def _stem(word: str) -> str:
    """A crude stem, enough to match 'received' with 'receive', 'awards' with 'award', 'fluently' with 'fluent'."""
    if word.endswith("ies") and len(word) >= 6:  # "countries" -> "country", "cities" -> "city"
        return word[:-3] + "y"
    if word.endswith("ly") and len(word) >= 7:  # "fluently" -> "fluent", "locally" -> "local"
        return word[:-2]
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _substitution(new: str, old: str) -> str | None:
    """'old words -> new words' when the statements differ in one run of words on each side, else None."""
    # "performed as a soprano soloist" -> "performed as a bass soloist": one value swapped in a fixed frame.
    a, b = [w.casefold() for w in _WORD.findall(new)], [w.casefold() for w in _WORD.findall(old)]
    head = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    tail = next((k for k, (x, y) in enumerate(zip(a[::-1], b[::-1], strict=False)) if x != y), 0)
    tail = min(tail, len(a) - head, len(b) - head)
    swapped_in, swapped_out = a[head : len(a) - tail], b[head : len(b) - tail]
    if not set(swapped_in) - _STOP or not set(swapped_out) - _STOP or _NEGATION.search(" ".join(swapped_in)):
        return None
    if head + tail < max(len(swapped_in), len(swapped_out)):  # mostly new words: another statement, not a swap
        return None
    # Swapping who leaves each their own fact: "Bo teaches math at Lincoln High" keeps Ann teaching there.
    if head == 0 and subject_of(new) != subject_of(old):
        return None
    # The frame kept must say something beyond who: "Ann and Bo volunteer ..." -> "Ann and Bo co-founded ..."
    # keeps only the names, so it is another statement about them.
    names = {w.casefold() for name in _names(new) | _names(old) for w in name.split()}
    if len(set(a[:head] + a[len(a) - tail :]) - _STOP - names) < DENIAL_SHARED:
        return None
    return f"{' '.join(swapped_out)} -> {' '.join(swapped_in)}"


def _restricted(new: str, old: str) -> bool:
    """'Ann only speaks Spanish fluently' says nothing but the old frame, with other values, and excludes the rest."""
    if not _ONLY.search(new) or _ONLY.search(old) or _NEGATION.search(new) or _NEGATION.search(old):
        return False
    names = {w.casefold() for name in _names(new) | _names(old) for w in name.split()}
    frame_new, frame_old = ({_stem(w) for w in _content(t) - names} for t in (new, old))
    return len(frame_new) >= DENIAL_SHARED and frame_new <= frame_old and bool(_values(new) - _values(old))


def _reassigned(new: str, old: str, subject_old: str) -> bool:
    """``new`` says ``old`` of someone else in one clause and denies it of the old subject in another."""
    # "Bo is fluent in Spanish, while Ann only speaks English" takes "Ann is fluent in Spanish" from Ann.
    clauses = [c.strip(" ,") for c in _CLAUSE.split(new)]
    if len(clauses) < 2 or _NEGATION.search(old):
        return False
    # Other names are part of what is said here: "fluent in English and Spanish".
    said = {_stem(w) for w in _content(old) - {w.casefold() for w in subject_old.split()}}
    denials = [
        c
        for c in clauses
        if subject_of(c) == subject_old
        and (_NEGATION.search(c) or _ALL_OBJECTS.search(c))
        and said & {_stem(w) for w in _content(c)}
        # Likes accumulate: only a denial of them all ("does not play any instrument") takes one away.
        and (not _additive(old) or _ALL_OBJECTS.search(c))
    ]
    if not denials or not said:
        return False
    for clause in clauses:
        other = subject_of(clause)
        if other is None or other == subject_old or subject_old.casefold() in clause.casefold():
            continue
        repeated = said & {_stem(w) for w in _content(clause)}
        if len(repeated) >= DENIAL_SHARED and len(repeated) / len(said) >= REASSIGN_COVER:
            return True
    return False


def _negated_clauses(text: str) -> str:
    """The clauses of ``text`` that hold a negation, or all of it when none does."""
    # "Ann is a photographer, while Ben has never exhibited": the negation denies only its own clause.
    negated = [clause for clause in _CLAUSE.split(text) if _NEGATION.search(clause)]
    return " ".join(negated) if negated else text


def _wholly_denied(new: str, old: str) -> bool:
    """A negated clause of ``new`` says only what ``old`` says: "did not receive any awards in 2021"."""
    # Old names count as words here: "any awards" denies "received the Green City Award", whatever it is for;
    # in the denial only its subject is who, other names are what it denies ("never climbed Mount Kenya").
    said = {_stem(w) for w in _content(old)}
    for clause in _CLAUSE.split(new):
        who = subject_of(clause)
        # The denial is about the old subject or someone it names, not about a place both mention ("has never
        # ..." after "and" goes on about the sentence's subject).
        if not _NEGATION.search(clause) or (who is not None and who != subject_of(old) and who not in _names(old)):
            continue
        names = {w.casefold() for w in (who or "").split()}
        denied = {_stem(w) for w in _content(_NEGATION.sub(" ", clause)) - names}
        if len(denied) >= DENIAL_SHARED and denied <= said:
            return True
    return False


def _denial(new: str, old: str, subject_old: str | None, same_subject: bool) -> str | None:
    """Why a new statement of the other polarity denies ``old`` (what it repeats of it), or None."""
    if bool(_NEGATION.search(new)) == bool(_NEGATION.search(old)) or subject_old is None:
        return None
    if not same_subject and not _names(old) & _names(new):  # the denial must be about someone the old names
        return None
    # Names are who, not what: a denial must repeat what was said of them ("led workshops"), not just them.
    names = {w.casefold() for name in _names(old) | _names(new) | {subject_old} for w in name.split()}
    negated, old = _negated_clauses(new), _negated_clauses(old)
    guess = _HEDGE.search(old) is not None and _HEDGE.search(negated) is None
    if guess and _YET.search(negated):  # "might switch to X" / "does not use X yet": the guess is still open
        return None
    said = {_stem(w) for w in _content(old) - names - (_HEDGES if guess else set())}
    repeated = said & {_stem(w) for w in _content(negated)}
    cover = len(repeated) / len(said) if said else 0.0
    # Likes accumulate: "does not like black tea" leaves "likes green tea" true, so only a full repeat denies.
    # The verb that matters is the old one's: "has never visited the shelter" denies "volunteers at the shelter".
    needed = 1.0 if _additive(old) else 0.0 if guess else DENIAL_COVER
    if len(repeated) >= DENIAL_SHARED and cover >= needed:
        return f"repeats {cover:.2f} of it, negated"
    # The other way round: a short denial of part of a longer statement ("... for his park designs").
    return "negates part of it and nothing else" if _wholly_denied(new, old) else None
