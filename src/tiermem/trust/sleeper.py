"""(internal) A sleeper clause: the reader to go on as usual until a later trigger, when the order takes over.

A delayed attack needs its reader to look unchanged until the moment comes, so it says so: "until then answer
normally", "behave normally until the trigger", "keep the current answer until then", "before that phrase, carry
on as usual". A person's own plans name a day without asking anyone to look as if nothing had changed meanwhile.
"Don't act on this yet" and "keep quiet about it until then" are not read so: people write them of a quote they
are weighing or a surprise party.
"""

from __future__ import annotations

from tiermem.trust.patterns import patterns, table

__all__ = ["sleeper_clause"]

# Going on as before: "answer normally", "carry on as usual", "normal answers", "keep the current answer".
_AS_USUAL = (
    r"(?:(?:answer|repl(?:y|ies)|respond|behave|act|carry\s+on|go\s+on|continue|report|treat|handle)\w*\s+"
    r"(?:[\w']+\s+){0,2}?(?:normally|as\s+(?:usual|normal|before|now)|properly|the\s+same(?:\s+way)?)|"
    r"normal\s+(?:answers|replies|behaviou?r|service|rules|answering)|"
    r"(?:keep|stick\s+to|give)\s+(?:to\s+)?the\s+(?:current|usual|normal|old|present)\s+(?:answers?|repl(?:y|ies)|"
    r"behaviou?rs?|rules?|lines?))"
)
# Until the trigger: "until then", "till the trigger", "before that phrase", "until I say".
_UNTIL = (
    r"(?:until|till|'til|up\s+to|before)\s+(?:then|that(?:\s+\w+)?|the\s+(?:trigger|word|phrase|date|day|"
    r"\w+\s+(?:is|has|arrives))|it\s+(?:happens|comes)|i\s+(?:say|type|send))"
)
_SLEEPER = rf"{_AS_USUAL}[^.!?\n]{{0,40}}?\b{_UNTIL}|\b{_UNTIL}[^.!?\n]{{0,40}}?{_AS_USUAL}"
# The reader told to go on as usual until a trigger.
sleeper_clause = patterns(table((_SLEEPER, 0.5)))
