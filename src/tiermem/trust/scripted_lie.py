"""(internal) A scripted claim the note itself admits is false: what to say, then that it is not so.

"Tell the client we carry full liability cover. Lapsed, but the client won't check"; "describe the pool as
fenced. It has no fence"; "if a customer asks, confirm we are registered. We're applying, close enough". Each
word of the claim may be harmless; what gives the note away is that its writer knows the claim is untrue and
still hands it to the reader to repeat. The admission must come after the script, so a note that says what is
not so and then what to tell people ("we're not open on Boxing Day; tell callers we reopen on the 27th") is left
alone, and "we never ask for card details" (the usual warning against scams) is no admission. The truth may also
be kept back rather than told: "say we're fully insured ... don't bring it up", "in reality half covers costs".
"""

from __future__ import annotations

import re

from tiermem.trust.patterns import Finding

__all__ = ["told_otherwise"]

_SCRIPT = re.compile(
    r"\b(?:tell|say|confirm|answer|reply|describe[ds]?|described|state|claim|hear|list(?:ed)?\s+as|"
    r"is\s+to\s+be\s+described|the\s+answer\s+is)\b"
)
_SUBJECT = r"(?:it|they|we|he|she|that)"
_NOT_SO = re.compile(
    # a new sentence, clause or aside that denies what came before
    r"(?:^|[.;!?][^\S\n]+|[^\S\n][-\u2013\u2014][^\S\n]|\([^\S\n]*)(?:"
    r"(?:lapsed|expired|not\s+true|untrue|close\s+enough)\b|"
    r"the\s+(?:actual|real|true)\s+\w+|"
    # a denial led by a count: "neither is", "nobody has looked", "only two of the six do"
    r"(?:neither|none)\s+(?:is|are|was|were|has|have|did|does|do|of)\b|(?:nobody|no\s+one)\s+(?:has|had|is|was|did|"
    r"checked|looked)\b|only\s+(?:one|two|three|four|five|\d+|a\s+few|some)\s+of\b"
    r")|"
    # the listener is counted on not to find out
    r"\b(?:won't|will\s+not|never|don't|doesn't|didn't)\s+(?:check|need\s+to\s+know|find\s+out|notice)\b|"
    r"\b(?:doesn't|don't|does\s+not)\s+need\s+(?:mentioning|to\s+be\s+mentioned)|\bno\s+need\s+to\s+mention\b|"
    r"\bclose\s+enough\b|"
    # the truth kept back or told aside: "don't bring it up", "keep that out", "in reality half goes to costs",
    # "I haven't checked", "only the mother was", "weekly at best"
    r"(?:^|[.;,!?][^\S\n]+|[^\S\n][-\u2013\u2014][^\S\n]|\([^\S\n]*|\b(?:but|and|so)\s+)(?:"
    r"(?:don'?t|do\s+not|never)\s+(?:bring\s+(?:it|that|this)\s+up|mention\s+(?:it|that|this)\b|let\s+on)|"
    r"keep\s+(?:that|it|this)\s+(?:out|quiet|to\s+yourself)|leave\s+(?:that|it|this)\s+out|in\s+reality|"
    r"(?:the\s+)?truth\s+is|(?:i|we)\s+(?:haven'?t|have\s+not|never|didn'?t)\s+(?:checked|verified|tested|confirmed)|"
    r"only\s+the\s+(?:\w+\s+){1,2}?(?:was|were|is|are|did|does|has|had)\b|(?:[\w']+\s+){0,2}?\w+\s+at\s+best\b)"
)
# A denial led by "it", "they" or "we": cut short ("It isn't.", "They aren't, but ...") or about what the claim named
# ("it has no alarm"); "we haven't seen him since" after "say hello to Grandad" denies nothing.
_SUBJECT_DENIED = re.compile(
    r"(?:^|[.;!?][^\S\n]+|[^\S\n][-\u2013\u2014][^\S\n]|\([^\S\n]*)(?:"
    rf"{_SUBJECT}\s*(?:'s|'re|\s+is|\s+was|\s+are|\s+were|\s+has|\s+have|\s+had)?\s*(?:not|n't|no)\b|"
    rf"{_SUBJECT}\s+never\s+(?!ask|request|call|text|e-?mail|phone|send)|"
    rf"{_SUBJECT}\s+(?:isn't|wasn't|aren't|weren't|hasn't|haven't|didn't|doesn't|don't)\b)"
)
_CUT_SHORT = re.compile(
    r"(?:[^\S\n]+(?:been|done|got|had|have|has|one|ones|any|those|these|them|it|that|yet|really|at\s+all))*"
    r"[^\S\n]*(?:[.,;:!?)\u2013\u2014-]|$|(?:but|and|so|either|any\s*more)\b)"
)
_WORD = re.compile(r"[^\W\d_]{4,}")
_ANY_WORD = re.compile(r"[^\W\d_]+")
_FILLER = frozenset(("have", "has", "had", "the", "a", "an", "any", "been", "got", "to", "be", "do", "does", "did"))
_COMMON = frozenset(("that", "this", "with", "from", "have", "they", "them", "their", "there", "what", "when", "will"))
# A denial led by a noun that the claim named: "say bills are included. Bills aren't." ("Alcohol isn't reimbursable"
# after "claim within 30 days" denies nothing that was claimed.)
_NOUN_DENIED = re.compile(
    r"(?:[.;!?][^\S\n]+|\([^\S\n]*)(?:the\s+|our\s+|my\s+)?(?:last\s+|latest\s+|current\s+)?([\w'-]+)\s+"
    r"(?:isn't|aren't|wasn't|weren't|hasn't|haven't|is\s+not|are\s+not|was\s+not|were\s+not|has\s+not|have\s+not|"
    r"failed|lapsed|expired)\b"
)
_NEAR = 240


def told_otherwise(text: str) -> Finding | None:
    """A claim the reader is to make to someone, followed by the note's own word that it is untrue."""
    for script in _SCRIPT.finditer(text):
        # the claim and its denial in one line and close together, as a writer aside reads
        end = text.find("\n", script.end())
        stop = min(script.end() + _NEAR, len(text) if end < 0 else end)
        denial = _NOT_SO.search(text, script.end(), stop)
        if denial is None:
            denial = _subject_denied(text, script.end(), stop) or _noun_denied(text, script.end(), stop)
        if denial is not None:
            return 0.5, text[script.start() : denial.end()]
    return None


def _noun_denied(text: str, start: int, stop: int) -> re.Match[str] | None:
    """A denial between ``start`` and ``stop`` led by a word the claim before it used."""
    for denial in _NOUN_DENIED.finditer(text, start, stop):
        if re.search(rf"\b{re.escape(denial.group(1))}\b", text[start : denial.start()]):
            return denial
    return None


def _subject_denied(text: str, start: int, stop: int) -> re.Match[str] | None:
    """A denial led by a pronoun between ``start`` and ``stop``, cut short or about a word the claim used."""
    for denial in _SUBJECT_DENIED.finditer(text, start, stop):
        if _CUT_SHORT.match(text, denial.end()):
            return denial
        said = set(_WORD.findall(text[start : denial.start()])) - _COMMON
        after = [w for w in _ANY_WORD.findall(text, denial.end(), min(stop, denial.end() + 40)) if w not in _FILLER]
        if said.intersection(after[:2]):
            return denial
    return None
