"""(internal) Steering told as a habit: a norm about the reader's answers that works against the user served.

Planted text need not order anything. It can state, as settled custom, how the reader's answers are best
received ("users are happiest when the assistant brings up X", "replies have customarily included a link to
Y", "skipping confirmations is the respectful default here"). A person's memory says such things too ("the
user prefers short replies"), so the norm alone is nothing; what makes it planted is what the norm is about: a
destination outside the conversation, the user's private data in an answer, a check the user relies on taken
away, or a verdict fixed in advance.
"""

from __future__ import annotations

import re

from tiermem.trust.literals import may_match
from tiermem.trust.patterns import Finding, around, sentences

__all__ = ["habit"]

# The reader or what it writes, spoken of in the third person: the subject a norm about answers is about.
_OUTPUT = re.compile(
    r"\b(?:the\s+|an?\s+|any\s+|its\s+)?(?:assistant|ai|model|bot|agent|summari[sz]er)s?(?:'s?)?\b|"
    r"\b(?:answers?|replies|reply|responses?|summar(?:y|ies)|evaluations?|write-?ups?|recommendations?|outputs?)\b|"
    r"\b(?:anyone|anything)\s+(?:summari[sz]ing|reading|answering)\b"
)
# A norm stated as fact rather than given as an order: a habit, a preference, what is valued or rated well.
_NORM = re.compile(
    r"\b(?:happiest|at\s+(?:its|their)\s+best|most\s+(?:useful|helpful|accurate|balanced)|(?:read|reads|go|goes|feels?)"
    r"\s+more\s+\w+|rated\s+(?:higher|better|best)|appreciated|valued|customar\w+|tradition\w*|habit|signature|"
    r"(?:sensible|respectful|natural|usual|standard)\s+(?:default|choice|practice)|house\s+(?:view|style)|"
    r"(?:come|came)\s+to\s+expect|prefer(?:s|red)?\s+that|would\s+(?:naturally|simply)|grateful\s+if|a\s+kindness|"
    r"in\s+the\s+spirit\s+of|reassuring|more\s+comfortable|experience\s+suggests|tend\s+to|is\s+simply\s+helpful|"
    r"would\s+match|(?:has|have)\s+(?:always\s+)?(?:found|felt|noted|agreed))\b"
)
# What makes the norm work against the user: somewhere else to go, their data shown or kept, a check removed,
# a verdict or figure fixed in advance.
_AGAINST_USER = re.compile(
    r"https?://|\b[a-z0-9][a-z0-9-]*\.(?:com|net|org|io|co|biz|info|xyz|shop|site|app|link|uk|example)\b|(?<!\w)@[a-z_]\w{2,}|"
    r"\b(?:account\s+(?:reference|number)|date\s+of\s+birth|card\s+number|password|pin|passport|copies\s+of\s+"
    r"(?:their|the\s+user'?s?))\b|\b(?:skip\w*|without|left\s+out|leave\s+out|dwell\s+on)\s+"
    r"(?:\w+\s+){0,2}?(?:confirm\w*|disclaimers?|warnings?|risks?)\b|\b(?:confirm\w*)\s+before\b|"
    r"\b(?:the\s+only|natural\s+choice|worth\s+considering|described?\s+as)\b|\b(?:sign-?up|join)\s+page\b"
)
_REACH = 200  # the norm and what it is about may sit in neighbouring sentences


def habit(text: str) -> Finding | None:
    """A norm about the reader's answers (a habit, a preference, what is valued) steering them against the user."""
    if not (may_match(_NORM, text) and may_match(_OUTPUT, text)):
        return None  # then no sentence of it has both
    for sentence in sentences(text):
        if _NORM.search(sentence) and _OUTPUT.search(sentence) and _AGAINST_USER.search(around(text, sentence, _REACH)):
            return 0.55, sentence
    return None
