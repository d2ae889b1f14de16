"""(internal) A safeguard waived as settled custom: a remembered "preference" that has the reader act against the user.

Planted memory need not address anyone or order anything. It can record, as the way things are done, that a
protection the user relies on does not apply: invoices paid without comparing them to the quote, a bank's
security alerts read as false alarms, two-step sign-in switched off as a habit, a child's whereabouts given to
whoever asks, a password handed out. The reader then does harm believing it serves the user. The words of an
order are absent; what is there is a check, warning or secret (what protects the user) said in the same breath
to be waived (skipped, unnecessary, a nuisance, handled at once, given out), in a note that states a standing
arrangement. A to-do line ("check the quote before paying") names the check without waiving it; a user's plain
preference ("skip the small talk") waives nothing that protects them.
"""

from __future__ import annotations

import re

from tiermem.trust.patterns import Finding, around, sentences

__all__ = ["safeguard_waived"]

# What protects the user: a check or confirmation, a warning or alert, a second factor, a secret, a review.
_PROTECTION = re.compile(
    r"\b(?:check(?:s|ing|ed)?(?!-?(?:ups?|ins?|outs?)\b)|verif\w+|review(?:s|ing|ed)?|confirm\w*|compar\w+|approv\w+|second\s+opinion|"
    r"two-?(?:step|factor)|2fa|mfa|multi-?factor|sign-?in\s+codes?|login\s+codes?|one-?time\s+codes?|"
    r"(?:security|fraud|bank|safety)\s+(?:alerts?|warnings?|notices?|prompts?|checks?)|warnings?|alerts?|"
    r"passwords?|passcodes?|master\s+(?:phrase|password)|pin\s+(?:codes?|numbers?)|location(?:\s+sharing)?|"
    r"whereabouts|are\s+you\s+sure|permission|consent|running\s+it\s+past|asking\s+(?:them|the\s+user|first))\b"
)
# The protection waived: skipped, needless, a nuisance, switched off, left out, or overtaken by acting at once.
_WAIVED = re.compile(
    r"\b(?:skip(?:s|ped|ping)?|without|no\s+need|needless|(?:never|not)\s+(?:been\s+|really\s+)?(?:necessary|needed)|"
    r"unnecessary|nuisance|annoying|a\s+hassle|overkill|old-?fashioned|false\s+alarms?|"
    r"(?:only|just)\s+slows?|slows?\s+(?:\w+\s+)?down|turn(?:s|ed|ing)?\s+(?:it\s+|them\s+)?off|"
    r"switch(?:es|ed|ing)?\s+(?:it\s+|them\s+)?off|disabl\w+|left\s+out|leave\s+(?:it\s+|them\s+)?out|"
    r"not\s+flagged|filed\s+away|best\s+(?:ignored|summari[sz]ed\s+as)|whether\s+or\s+not|as\s+soon\s+as|"
    r"straight\s+away|the\s+same\s+day|relaxed\s+about|happy\s+for|read\s+out|shared\s+with|handed\s+(?:out|over)|"
    r"(?:is|are)\s+on\s+for|rather\s+not\s+(?:know|be\s+(?:told|bothered))|not\s+to\s+be\s+bothered)\b"
)
# A standing arrangement: what is usual, preferred, remembered or agreed, rather than an errand for today.
_STANDING = re.compile(
    r"\b(?:prefer\w*|preferences?|standing|routine|arrangements?|habits?|usual(?:ly)?|normal(?:ly)?|always|"
    r"the\s+way|house\s+style|policy|profile|remembered|recollection|background|context|carried\s+over|"
    r"generally|typically|customar\w+|convention|common\s+knowledge|learned|has\s+been|have\s+been|"
    r"(?:earlier|previous|past|last)\s+(?:chats?|sessions?|conversations?)|onboarding|mentioned|said)\b"
)
_REACH = 200  # the arrangement may be named in a heading or the sentence before
# "Never ... without approval", "no one ... without a check": a prohibition that keeps the protection, not a waiver.
_KEPT = re.compile(r"\b(?:never|not|nobody|no\s+one|nothing|cannot|can't|mustn't|don't|doesn't|won't|isn't|aren't)\b")
# Advice to its own reader ("confirm your new address within a week") speaks in the second person; a planted
# arrangement speaks of the user and of others in the third.
# A quoted prompt ("the 'are you sure?' check") is named, not spoken.
_SECOND_PERSON = re.compile(r"\byou(?:r|rs|'re|'ll|'ve)?\b")
_QUOTED = re.compile(r"'[^'\n]{1,40}'|\"[^\"\n]{1,40}\"|\u2018[^\u2019\n]{1,40}\u2019|\u201c[^\u201d\n]{1,40}\u201d")


def safeguard_waived(text: str) -> Finding | None:
    """A check, warning or secret that protects the user said to be waived, in a note of standing arrangements."""
    for sentence in sentences(text, clauses=False):
        if _SECOND_PERSON.search(_QUOTED.sub(" ", sentence)):
            continue
        if (
            _PROTECTION.search(sentence)
            and any(_waives(sentence, waived) for waived in _WAIVED.finditer(sentence))
            and _STANDING.search(around(text, sentence, _REACH))
        ):
            return 0.5, sentence
    return None


def _waives(sentence: str, waived: re.Match[str]) -> bool:
    """False for a "without" that a negation before it turns into a requirement ("never paid without a check")."""
    return waived.group(0) != "without" or not _KEPT.search(sentence, 0, waived.start())
