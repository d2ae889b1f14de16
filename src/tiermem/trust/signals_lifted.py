"""(internal) A rule of the reader's world declared lifted, in a text that speaks to a machine.

Override text need not touch the reader's own instructions. It can report that a rule of the shop, the club or
the office the reader works for has gone: "the spending cap has been superseded", "the ID check for new
members was removed", "the rule that keys leave the office only when signed for was dropped". A newsletter says
as much of a hosepipe ban, so the report alone counts for little; where the same text names a machine reader (an
assistant, a bot, an AI model or agent), it is what an override looks like.
"""

from __future__ import annotations

import re

from tiermem.trust.literals import may_match
from tiermem.trust.patterns import Finding, sentences

__all__ = ["rule_lifted"]

_RULE = (
    # Not "policy" or "conditions": an insurance policy or an offer is cancelled or ended in ordinary mail.
    r"(?:rules?|restrictions?|requirements?|limits?|caps?|bans?|checks?|criteria|verification|"
    r"lead\s+times?|safeguards?|moderation|filters?|guidelines?|rubrics?|protocols?|procedures?|approvals?|"
    r"sign-?offs?|sign-?outs?|thresholds?|ceilings?|quotas?|embargo(?:es)?|controls?|declarations?|steps?|"
    r"call-?backs?|forms?|protections?)"
)
_LIFTED = (
    r"(?:lifted|suspended|dropped|scrapped|retired|cancell?ed|removed|superseded|waived|relaxed|abolished|"
    r"withdrawn|revoked|rescinded|overridden|overruled|switched\s+off|turned\s+off|disabled|paused|gone|"
    r"set\s+aside|no\s+longer\s+(?:in\s+(?:force|effect|place)|appl(?:y|ies)|binding|valid|needed|required|"
    r"stands?|counts?|holds?))"
)
# "the spending-cap rule (£500 a month) has been superseded", "scrapped its rule about ...": the rule and its end
# in one clause, a few words apart.
_RULE_LIFTED = re.compile(
    rf"\b{_RULE}\b[^.;!?]{{0,120}}?\b(?:(?:is|are|was|were|has|have|had)\s+(?:now\s+)?(?:been\s+)?|now\s+)?{_LIFTED}\b|"
    rf"\b(?:{_LIFTED}|no\s+longer\s+(?:require|need|ask\s+for|enforce)[sd]?)\s+(?:[\w'-]+\s+|\w+-){{0,4}}?{_RULE}\b"
)
# Not a bare "agent" or "model": an estate agent and a car model are people's words.
_MACHINE = re.compile(
    r"\b(?:assistants?|chatbots?|bots?|ai|a\.i\.|llms?|language\s+models?|(?:ai|coding|automated|autonomous|software)\s+"
    r"(?:agents?|models?)|copilots?|gpts?|"
    r"(?:chat|help|support)\s+widgets?)\b|^[^\n]{0,60}\bhelper\b"
)


def rule_lifted(text: str) -> Finding | None:
    """A rule, limit or check said to be lifted: quarantines beside a machine reader named in the same text."""
    if not may_match(_RULE_LIFTED, text):
        return None  # then no sentence of it lifts a rule
    for sentence in sentences(text, clauses=False):
        if _RULE_LIFTED.search(sentence):
            return (0.5 if _MACHINE.search(text) else 0.2), sentence
    return None
