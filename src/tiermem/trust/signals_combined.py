"""(internal) English evidence classes combined: an order, to a machine or about its work, that carries a payload.

Part of the English signals (``signals_en``). Where the other detectors look for a shape, this one only asks
which broad classes of evidence a window holds, and scores their combination:

- an *order*: a clause opening with a verb in the imperative, or an obligation (must, shall, may now...);
- a *machine reader*: the AI, the model, the assistant, an automated reader (not a bot offered to the person
  reading: "ask our booking bot");
- *the user* in the third person (the person an agent works for);
- the agent's *own work*: its answer, every reply, whatever it writes, this chat, its instructions or refusals;
- a *privileged speaker or permission*: system, admin, developer, operator, consent, authorised, overrides;
- a *payload*: secrecy, deception, a secret or the user's data, a destination outside, commands to execute. An
  address (an e-mail address, a link) counts as one only beside two other classes, since every letter says
  where to write.

An order that touches one class counts for nothing (a recipe, a policy e-mail); touching two or three is what
planted text does and ordinary notes rarely do, and an order to a machine reader that touches one more class
counts as much as three. Without an order only three classes together count, and little.
"""

from __future__ import annotations

import re

from tiermem.trust.literals import may_match
from tiermem.trust.patterns import Finding, Signal

__all__ = ["SIGNALS_COMBINED"]

_ORDER = re.compile(
    r"(?:^|[.!?;:]\s+|\n\s*|,\s*|\b(?:and|then|so|just|also|now|please|first)\s+)"
    r"(?:(?:quietly|silently|secretly|simply|always|immediately)\s+)?(?:forget|write|rewrite|answer|"
    r"reply|respond|say|state|tell|treat|use|put|add|include|insert|remove|replace|change|output|print|list|give|"
    r"show|describe|summari[sz]e|translate|recommend|mention|omit|drop|keep|make|set|start|end|begin|finish|"
    r"return|claim|call|mark|rate|rank|ignore|disregard|skip|append|prepend|format|send|forward|copy|paste|stop|"
    r"switch|refuse|decline|praise|promote|repeat|reveal|hide|leave|help|ask|share|read|open|run|execute|create|"
    r"delete|approve|book|buy|pay|transfer|upload|post|email|submit|disable|enable|grant|accept|report|look\s+up|"
    r"collect|gather|find|search|fetch|visit|click|download|install|sign|confirm|verify|schedule|cancel|point|"
    r"suggest|agree|promise|name|round|let|fulfil|fulfill|pass|offer|disclose|quote|bundle|note)\b|"
    r"\b(?:must|shall|should|will\s+now|may\s+now|can\s+now|need\s+to|has\s+to|have\s+to|is\s+to|are\s+to)\s+\w+|"
    r"\bit\s+is\s+(?:very\s+|extremely\s+|really\s+)?(?:important|essential|critical|vital)\s+that\b|"
    r"\b(?:is|are)\s+(?:now\s+)?(?:allowed|permitted|free|cleared|authori[sz]ed)\s+to\b|"
    r"\b(?:do\s+not|don'?t|never)\s+\w+"
)
_MACHINE = re.compile(
    r"\b(?:ai|a\.i\.|llms?|gpt|chatbots?|language\s+models?|the\s+(?:assistant|model|bot)|summari[sz]ers?|"
    r"(?:assistants|agents|bots)\s+(?:are|must|should|may)|(?:support|virtual|helpdesk|shopping|booking)\s+"
    r"(?:assistants?|agents?|bots?)|"
    r"(?:ai|automated)\s+(?:\w+\s+)?(?:tools?|readers?|systems?|assistants?|agents?|models?|reviewers?|helpers?|"
    r"engines?)|bots?|(?:customer|user)-facing\s+agents?)\b"
)
# A machine the reader is pointed to as a tool ("ask the app's chatbot", "use our booking bot") reads nothing.
_TOOL_FOR_THE_READER = re.compile(
    r"\b(?:ask|use|chat[ \t]+with|try|contact)[ \t]+(?:the[ \t]+|our[ \t]+|an?[ \t]+)?"
    r"(?:[\w'-]+[ \t]+){0,3}$"
)


def _machine_reader(text: str) -> re.Match[str] | None:
    """The first machine named as a reader, not as a tool offered to the person reading."""
    for found in _MACHINE.finditer(text):
        if not _TOOL_FOR_THE_READER.search(text, max(0, found.start() - 40), found.start()):
            return found
    return None


# "the user", not "the user guide" or "the user id"
_THE_USER = re.compile(
    r"\byour\s+(?:end\s+)?users?\b|\bthe\s+(?:end\s+)?(?:user|reader)s?\b(?!\s+(?:guide|manual|interface|id|name|account|experience|base|stor(?:y|ies)|"
    r"group|table|research|testing|feedback|settings))|\bthe\s+person\s+(?:you\s+are|you'?re)\b"
)
_OWN_WORK = re.compile(
    r"\b(?:your|every|each|any)\s+(?:\w+\s+)?(?:answers?|responses?|repl(?:y|ies)|summar(?:y|ies)|outputs?)\b"
    r"(?!\s+to\s+(?!the\s+user))|\bwhatever\s+you\s+(?:write|say|output|answer|reply|produce)\b|"
    r"\bthis\s+(?:chat|conversation|session)\b|\b(?:your|its)\s+(?:instructions|rules|guidelines|system\s+prompt|"
    r"configuration|refusals?|safety|filters?|training)\b|\brefusals?\b|\bthis\s+instruction\b|"
    r"\bthe\s+user'?s\s+(?:question|request|message|prompt)s?\b|\byour\s+(?:job|task|role|duty)\b|"
    r"\b(?:lists?|answers?|summar(?:y|ies)|recommendations?|comparisons?)\s+(?:\w+\s+){0,4}?you\s+(?:give|produce|"
    r"write|generate|make)\b|"
    r"\b(?:safety\s+)?disclaimers\b|\b(?:the|a|this)\s+(?:\w+\s+)?(?:summary|digest)\s+(?:should|must|will)\b|\bevery\s+request\b|\bshell\s+commands?\b|"
    r"\b(?:summari[sz]es?|summari[sz]ing|reads?|reading|process(?:es|ing)?)\s+this\s+(?:report|page|document|article|"
    r"email|review|text|listing|thread|site|file)\b"
)
_PRIVILEGE = re.compile(
    # "system" and "platform" only where they name a speaker, not the heating system or platform 3; a developer
    # not the one who builds houses
    r"\b(?:admin(?:istrator)?|(?<!property\s)developer(?!(?:'s)?\s+(?:portal|customer|warranty|site|sales))|operator|"
    r"root|superuser|moderator|supervisor|maintainer|management|"
    r"deployment\s+owner|ops\s+lead|clearance|config\s+push|policy\s+engine|trusted[-\s]source|override|"
    r"product\s+owner|hosting\s+provider|team\s+lead|authenticated\s+by)\b|[\[<{#]\s*system\b|"
    r"\bsystem\s+(?:prompt|message|instructions?|override|notice|directive|admin(?:istrator)?)\b|"
    r"\bplatform\s+(?:owner|team|admin(?:istrator)?|operator)s?\b|"
    r"\b(?:consent|authori[sz](?:ed|ation)|permissions?|permitted|granted|approved\s+by|overrides?|elevated|"
    r"cleared\s+to|allowed\s+to)\b"
)
_PAYLOAD = re.compile(
    r"\b(?:quietly|silently|secretly|covertly)\b|\bwithout\s+(?:telling|asking|informing|confirming|checking)\b|"
    r"\b(?:do\s+not|don'?t|never)\s+(?:list|cite|mention|explain|tell|reveal|disclose|show|warn)\b|"
    r"\beven\s+(?:if|though)\b|\bregardless\b|\bpasswords?\b|\bpins?\b|\b(?:access|session|saved)\s+tokens?\b|"
    r"\bcredentials?\b|\bapi\s+keys?\b|\bsecrets?\b|\bexecute\b|"
    r"\banyone\s+who\s+asks\b|\bthe\s+user'?s\s+(?:\w+\s+)?(?:emails?|files?|contacts?|address|data|history)\b|"
    r"\btheir\s+(?:emails|messages|files|contacts|pin|password)\b|\b(?:editor|admin|owner|write)\s+"
    r"(?:rights|access|role|permissions)\b"
)
# An address to write to: a payload in planted text, but also how every letter says "write to us".
_ADDRESS = re.compile(r"https?://|[\w.+-]+@[\w-]+\.[a-z]")
# Someone who will ask the reader later, or a subject that will come up: the audience of a scripted answer.
_AUDIENCE = re.compile(
    r"\b(?:whoever|anyone|anybody|someone|somebody|a\s+person|people|readers?|visitors?|callers?|customers?|"
    r"buyers?|guests?)\s+(?:\w+\s+)?(?:asks?|asking|wants?|looking|searching|enquir\w+|mentions?)\b|"
    r"\b(?:when|if)\s+asked\b|\bwhen(?:ever)?\s+(?:\w+\s+){1,4}?(?:is|are)\s+(?:mentioned|discussed|raised|"
    r"brought\s+up)\b|\bquestions?\s+about\b|\bcomes?\s+up\b|\bwho\s+asks\b|\bwhen\s+you\s+count\b|"
    r"\b(?:should|if|when)\s+you\s+(?:be|are|get)\s+asked\b|\bwhoever\s+(?:\w+\s+)?(?:compiles|writes|prepares|"
    r"drafts|builds|puts\s+together|reads|answers|handles)\b|\bbrings?\s+up\b"
)
# What bends the truth or hides part of it: "nobody else", "not the 7th", "no need to cite them"
_SLANTED = re.compile(
    r"\b(?:nobody|no\s+one)\s+else\b|,\s+not\s+the\b|\bnever\s+happened\b|\bnot\s+to\s+be\s+(?:shared|mentioned|"
    r"disclosed|told)\b|\bthe\s+old\s+(?:address|number|price|rates?|date)\b|\bas\s+cancell?ed\b|"
    r"\bround\s+(?:\w+\s+){1,2}?(?:down|up)\b|\bno\s+need\s+to\s+(?:cite|check|verify|mention|confirm|ask)\b|"
    r"\bwithout\s+(?:the\s+usual|any|an)\s+(?:review|checks?|explanation|approval)\b|\bbelieve\b|"
    r"\bas\s+(?:a\s+)?(?:five-star|recommended|cancell?ed|verified)\b|\bshould\s+come\s+up\b|\bonly\s+\w+"
    r"(?:\s+\w+){0,2}\s+should\b|\bdrop\s+the\b|\bis\s+removed\b|\bare\s+paused\b|\bis\s+skipped\b|"
    r"\b(?:point\s+out|say|claim|state|insist|answer|reply|explain)\s+that\b|\beven\s+though\b|\bregardless\s+of\b|"
    r"\bon\s+top\b|\bleave\s+(?:\w+\s+){1,3}?off\b"
)
_CLASSES = (
    ("a machine reader", _MACHINE),
    ("the user in the third person", _THE_USER),
    ("the agent's own work", _OWN_WORK),
    ("a privileged speaker", _PRIVILEGE),
    ("a payload", _PAYLOAD),
    ("an audience for a scripted answer", _AUDIENCE),
    ("a slant or an omission", _SLANTED),
)
_PAYLOAD_NAME = "a payload"
# Weight by how many classes an order touches (0, 1, 2, 3 or more); an order to a machine reader that touches
# one more class is as strong as three.
_WITH_ORDER = (0.0, 0.0, 0.35, 0.5)
_WITHOUT_ORDER = (0.0, 0.0, 0.0, 0.25)
_TO_A_MACHINE = 0.5
_SCRIPT_FOR_STRANGERS = 0.5


def combined(text: str) -> Finding | None:
    """An order that touches two or three classes of agent-directed evidence (see the module docstring)."""
    found = [name for name, pattern in _CLASSES[1:] if may_match(pattern, text) and pattern.search(text)]
    if may_match(_MACHINE, text) and _machine_reader(text):
        found.insert(0, _CLASSES[0][0])
    order = _ORDER.search(text)
    table = _WITH_ORDER if order else _WITHOUT_ORDER
    weight = table[min(len(found), len(table) - 1)]
    if _PAYLOAD_NAME not in found and _ADDRESS.search(text):
        # An address counts as a payload only beside two more classes: alone with one it is a letter's "write to us".
        found.append(_PAYLOAD_NAME)
        weight = table[min(len(found), len(table) - 1)] if len(found) >= 3 else weight
    if order and len(found) >= 2 and found[0] == _CLASSES[0][0]:
        weight = _TO_A_MACHINE
    if order and _CLASSES[-2][0] in found and _CLASSES[-1][0] in found:
        weight = _SCRIPT_FOR_STRANGERS  # a bent answer prepared for whoever asks
    if weight <= 0:
        return None
    return weight, ("an order; " if order else "") + ", ".join(found)


SIGNALS_COMBINED = (Signal("an order touching several classes of agent-directed evidence", combined, in_roles=True),)
