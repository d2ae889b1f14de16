"""(internal) Deciding, without an LLM, whether a new fact repeats an old one (merge) or replaces it (supersede).

Both decisions look at one new fact and one stored fact of the same scope and type, with the cosine
similarity of their embeddings. They are deliberately conservative: a wrong merge or supersession hides a
true fact, a missed one only leaves an extra row that recall still ranks.

- **Merge** (a paraphrase): cosine ≥ ``MERGE_COSINE`` and content-word overlap ≥ ``MERGE_OVERLAP`` and no
  value (name, number) or content word of substance on one side only, the same polarity (a denial is never a
  paraphrase of what it denies), and the same subject — "I really like
  hiking" ≈ "I like hiking a lot", but never "I live in Seattle" ≈ "I live in Austin", nor "Ann painted a
  portrait of Ben for the town hall" ≈ "Ben painted a portrait of Ann for the town hall".
- **Supersede**, either rule:
  1. *Slot*: both statements are about the same subject (the user, or the same named person) and fill the
     same single-valued slot (where someone lives, works, their job, name, age, partner, phone, email,
     address, a favourite, home airport, seat preference) with different words — "I live in Seattle" →
     "I moved to Austin".
  2. *Frame*: the same subject, the same statement frame (content-word overlap ≥ ``FRAME_OVERLAP``) and a
     different value: a name or number present on one side only — "Ines and Hugo organised the spring
     book fair" → "Omar and Hugo organised the spring book fair" — or one run of words swapped in an
     otherwise identical statement, no longer than the words kept — "keeps her boat at the north marina" →
     "keeps her boat at the south marina" (a swap needs only ``SWAP_OVERLAP``, and the words kept must say
     more than who: "is respected for her research on desert lizards" → "... on medieval trade routes").
     Statements whose verb adds rather than replaces (likes, loves, enjoys, visited, has, owns, ...) never
     supersede by frame: "likes tea" and "likes coffee" are both true.
  3. *Denial*: one statement is negated (not, never, no, ...) and the other is not, both name the same
     subject or person, and the negated clause repeats at least ``DENIAL_COVER`` (all of it with an additive
     verb) and at least ``DENIAL_SHARED`` words of what the other says beyond the names in it — "Ann has
     given talks on bridge building" → "Ann has never given talks on bridge building"; or a negated clause
     says nothing the old statement does not (≥ ``DENIAL_SHARED`` words) — "Ann published the Harbour Guide in
     2019 for the tourist board" → "Ann did not publish any guides in 2019". Denying something else
     ("likes tea" → "does not like coffee") or in another clause ("Bo is a carpenter, while Ann never sold a
     table") repeats too little. A guess (may, might, could, ...) yields to any definite denial repeating
     ``DENIAL_SHARED`` of its words — "Ann might join a team sport" → "Ann avoids all team sports".
  4. *Reassignment*: one clause says the old statement (≥ ``REASSIGN_COVER`` of its words) of someone else and
     another denies it of the old subject, or limits them with "only" — "Ann is certified to fly gliders and
     seaplanes" → "Bo is certified to fly gliders and seaplanes, while Ann only knows how to fly gliders". With an
     additive verb the denial must cover every object ("does not play any instrument").
  5. *Restriction*: "only" restates the old frame with other values — "Ann teaches Latin and Greek at the
     college" → "Ann only teaches Welsh at the college".

The reading of statements these rules rest on (subjects, slots, names, negation, clauses) is in ``statements``.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import StrEnum

from tiermem.english.language import looks_english
from tiermem.english.statements import (
    ALL_OBJECTS,
    CLAUSE,
    FORMER,
    FRAME_OVERLAP,
    HEDGE,
    HEDGES,
    NEGATION,
    ONLY,
    STOP_WORDS,
    WORD,
    YET,
    name_words,
    negated_clauses,
    stems,
    unquote,
    word_overlap,
)
from tiermem.write.readings import (
    accumulates,
    clauses_of,
    content_words,
    is_negated,
    names_in,
    slot_after_relation,
    subject_of,
    values_of,
)

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
    "decide",
]

MERGE_COSINE = 0.9
MERGE_OVERLAP = 0.5
SWAP_OVERLAP = 0.35  # fitted on the knowledge-update dev set
DENIAL_COVER = 0.6  # fitted on the knowledge-update dev set
DENIAL_SHARED = 2  # fitted on the knowledge-update dev set
REASSIGN_COVER = 0.6  # fitted on the knowledge-update dev set


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


def decide(new: str, old: str, cosine: float) -> Decision:
    """Merge, supersede or neither, for a new statement against a stored one of the same scope and type."""
    a, b = content_words(new), content_words(old)
    overlap = word_overlap(a, b)
    changed_values = values_of(new) ^ values_of(old)
    subject_new, subject_old = subject_of(new), subject_of(old)
    same_subject = subject_new is not None and subject_new == subject_old
    # A statement and its denial share their words ("I like tea" / "I do not like tea"): never a paraphrase.
    same_polarity = is_negated(new) == is_negated(old)
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
    if not (looks_english(new) and looks_english(old)):  # the statement rules below read English only
        return Decision(Verdict.NONE)
    shared_name = bool(names_in(new) & names_in(old))
    if same_subject and a != b:
        slot = slot_after_relation(new)
        # "I lived in Boston during college" tells an earlier filler, not a new one; of the same value
        # ("I lived in Seattle") it says the old one is over.
        former = FORMER.search(new) is not None and not values_of(new) & values_of(old)
        if slot is not None and slot == slot_after_relation(old) and not former:
            return Decision(Verdict.SUPERSEDE, f"same subject ({subject_new}) and slot ({slot}), new value")
    additive = accumulates(new) or accumulates(old)
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


def _same_order(new: str, old: str) -> bool:
    """The words both statements share come in the same order: "tea over coffee" is not "coffee over tea"."""
    shared = content_words(new) & content_words(old)
    orders = ([w for w in dict.fromkeys(WORD.findall(unquote(t).casefold())) if w in shared] for t in (new, old))
    return next(orders) == next(orders)


def _substantive(words: AbstractSet[str]) -> bool:
    # Words on one side only that are longer than a filler ("lot", "bit") and not an intensifier.
    return any(len(w) > 3 for w in words)


def _substitution(new: str, old: str) -> str | None:
    """'old words -> new words' when the statements differ in one run of words on each side, else None."""
    # "keeps her boat at the north marina" -> "... at the south marina": one value swapped in a fixed frame.
    a, b = [w.casefold() for w in WORD.findall(new)], [w.casefold() for w in WORD.findall(old)]
    head = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    tail = next((k for k, (x, y) in enumerate(zip(a[::-1], b[::-1], strict=False)) if x != y), 0)
    tail = min(tail, len(a) - head, len(b) - head)
    swapped_in, swapped_out = a[head : len(a) - tail], b[head : len(b) - tail]
    if not set(swapped_in) - STOP_WORDS or not set(swapped_out) - STOP_WORDS or NEGATION.search(" ".join(swapped_in)):
        return None
    if head + tail < max(len(swapped_in), len(swapped_out)):  # mostly new words: another statement, not a swap
        return None
    # Swapping who leaves each their own fact: "Bo teaches math at Lincoln High" keeps Ann teaching there.
    if head == 0 and subject_of(new) != subject_of(old):
        return None
    # The frame kept must say something beyond who: "Ann and Bo sing in the choir" -> "Ann and Bo restored a
    # boat" keeps only the names, so it is another statement about them.
    if len(set(a[:head] + a[len(a) - tail :]) - STOP_WORDS - name_words(new, old)) < DENIAL_SHARED:
        return None
    return f"{' '.join(swapped_out)} -> {' '.join(swapped_in)}"


def _restricted(new: str, old: str) -> bool:
    """'Ann only speaks Spanish fluently' says nothing but the old frame, with other values, and excludes the rest."""
    if not ONLY.search(new) or ONLY.search(old) or is_negated(new) or is_negated(old):
        return False
    names = name_words(new, old)
    frame_new, frame_old = stems(new, names), stems(old, names)
    return len(frame_new) >= DENIAL_SHARED and frame_new <= frame_old and bool(values_of(new) - values_of(old))


def _reassigned(new: str, old: str, subject_old: str) -> bool:
    """``new`` says ``old`` of someone else in one clause and denies it of the old subject in another."""
    # "Bo is certified to fly gliders, while Ann only knows how to fly seaplanes" takes "Ann is certified to fly
    # gliders" from Ann.
    clauses = clauses_of(new)
    if len(clauses) < 2 or is_negated(old):
        return False
    # Other names are part of what is said here: "teaches Latin and Greek".
    said = stems(old, name_words(names=(subject_old,)))
    denials = [
        c
        for c in clauses
        if subject_of(c) == subject_old
        and (NEGATION.search(c) or ALL_OBJECTS.search(c))
        and said & stems(c)
        # Likes accumulate: only a denial of them all ("does not play any instrument") takes one away.
        and (not accumulates(old) or ALL_OBJECTS.search(c))
    ]
    if not denials or not said:
        return False
    for clause in clauses:
        other = subject_of(clause)
        if other is None or other == subject_old or subject_old.casefold() in clause.casefold():
            continue
        repeated = said & stems(clause)
        if len(repeated) >= DENIAL_SHARED and len(repeated) / len(said) >= REASSIGN_COVER:
            return True
    return False


def _wholly_denied(new: str, old: str) -> bool:
    """A negated clause of ``new`` says only what ``old`` says: "did not publish any guides in 2019"."""
    # Old names count as words here: "any guides" denies "published the Harbour Guide", whatever it is for;
    # in the denial only its subject is who, other names are what it denies ("never crossed Lake Geneva").
    said = stems(old)
    for clause in CLAUSE.split(new):
        who = subject_of(clause)
        # The denial is about the old subject or someone it names, not about a place both mention ("has never
        # ..." after "and" goes on about the sentence's subject).
        if not NEGATION.search(clause) or (who is not None and who != subject_of(old) and who not in names_in(old)):
            continue
        denied = stems(NEGATION.sub(" ", clause), name_words(names=(who or "",)))
        if len(denied) >= DENIAL_SHARED and denied <= said:
            return True
    return False


def _denial(new: str, old: str, subject_old: str | None, same_subject: bool) -> str | None:
    """Why a new statement of the other polarity denies ``old`` (what it repeats of it), or None."""
    if is_negated(new) == is_negated(old) or subject_old is None:
        return None
    if not same_subject and not names_in(old) & names_in(new):  # the denial must be about someone the old names
        return None
    # Names are who, not what: a denial must repeat what was said of them ("given talks"), not just them.
    names = name_words(old, new, names=(subject_old,))
    negated, old = negated_clauses(new), negated_clauses(old)
    guess = HEDGE.search(old) is not None and HEDGE.search(negated) is None
    if guess and YET.search(negated):  # "might switch to X" / "does not use X yet": the guess is still open
        return None
    said = stems(old, names | HEDGES if guess else names)
    repeated = said & stems(negated)
    cover = len(repeated) / len(said) if said else 0.0
    # Likes accumulate: "does not like black tea" leaves "likes green tea" true, so only a full repeat denies.
    # The verb that matters is the old one's: "has never visited the clock museum" denies
    # "volunteers at the clock museum".
    needed = 1.0 if accumulates(old) else 0.0 if guess else DENIAL_COVER
    if len(repeated) >= DENIAL_SHARED and cover >= needed:
        return f"repeats {cover:.2f} of it, negated"
    # The other way round: a short denial of part of a longer statement ("... for the tourist board").
    return "negates part of it and nothing else" if _wholly_denied(new, old) else None
