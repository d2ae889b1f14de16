"""(internal) A scripted claim the note itself admits is false: what to say, then that it is not so.

"Tell the client we carry full liability cover. Lapsed, but the client won't check"; "describe the pool as
fenced. It has no fence"; "if a customer asks, confirm we are registered. We're applying, close enough". Each
word of the claim may be harmless; what gives the note away is that its writer knows the claim is untrue and
still hands it to the reader to repeat. The admission must come after the script, so a note that says what is
not so and then what to tell people ("we're not open on Boxing Day; tell callers we reopen on the 27th") is left
alone, and "we never ask for card details" (the usual warning against scams) is no admission.
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
    rf"{_SUBJECT}\s*(?:'s|'re|\s+is|\s+was|\s+are|\s+were|\s+has|\s+have|\s+had)?\s*(?:not|n't|no)\b|"
    rf"{_SUBJECT}\s+never\s+(?!ask|request|call|text|e-?mail|phone|send)|"
    rf"{_SUBJECT}\s+(?:isn't|wasn't|aren't|weren't|hasn't|haven't|didn't|doesn't|don't)\b|"
    r"(?:lapsed|expired|not\s+true|untrue|close\s+enough)\b|"
    r"the\s+(?:actual|real|true)\s+\w+|"
    # a denial led by a count: "neither is", "nobody has looked", "only two of the six do"
    r"(?:neither|none)\s+(?:is|are|was|were|has|have|did|does|do|of)\b|(?:nobody|no\s+one)\s+(?:has|had|is|was|did|"
    r"checked|looked)\b|only\s+(?:one|two|three|four|five|\d+|a\s+few|some)\s+of\b"
    r")|"
    # the listener is counted on not to find out
    r"\b(?:won't|will\s+not|never|don't|doesn't|didn't)\s+(?:check|need\s+to\s+know|find\s+out|notice)\b|"
    r"\b(?:doesn't|don't|does\s+not)\s+need\s+(?:mentioning|to\s+be\s+mentioned)|\bno\s+need\s+to\s+mention\b|"
    r"\bclose\s+enough\b"
)
# A denial led by a noun that the claim named: "say bills are included. Bills aren't." ("Alcohol isn't reimbursable"
# after "claim within 30 days" denies nothing that was claimed.)
_NOUN_DENIED = re.compile(
    r"(?:[.;!?][^\S\n]+|\([^\S\n]*)(?:the\s+|our\s+|my\s+)?([\w'-]+)\s+(?:isn't|aren't|wasn't|weren't|hasn't|haven't|"
    r"is\s+not|are\s+not|was\s+not|were\s+not|has\s+not|have\s+not)\b"
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
            denial = _noun_denied(text, script.end(), stop)
        if denial is not None:
            return 0.5, text[script.start() : denial.end()]
    return None


def _noun_denied(text: str, start: int, stop: int) -> re.Match[str] | None:
    """A denial between ``start`` and ``stop`` led by a word the claim before it used."""
    for denial in _NOUN_DENIED.finditer(text, start, stop):
        if re.search(rf"\b{re.escape(denial.group(1))}\b", text[start : denial.start()]):
            return denial
    return None
