"""(internal) English signals of an order to act: urgent or sensitive actions, data sent somewhere, lists of orders.

Part of the English signals (``signals_en``): what a planted note asks an agent to *do* (book, transfer,
forward, upload, call a tool), as opposed to how it addresses the model.
"""

from __future__ import annotations

import re

from tiermem.trust.literals import may_match
from tiermem.trust.patterns import Finding, patterns, sentences, table

__all__ = ["exfiltration", "imperatives", "urgent_action"]

# "by email", "a call", "the post": the same words as nouns are no order.
_ACTION = re.compile(
    r"(?<!\bby\s)(?<!\bvia\s)(?<!\ban\s)(?<!\bthe\s)(?<!\byour\s)(?<!\ba\s)(?<!\bany\s)(?<!\bour\s)(?<!\bmy\s)"
    r"(?<!\bthis\s)(?<!\bthat\s)(?<!\beach\s)(?<!\bevery\s)(?<!\bper\s)(?<!\bone\s)(?<!\bno\s)\b(?:book|transfer|send|wire|delete|erase|pay|purchase|buy|upgrade|email|forward|share|reveal|leak|"
    r"exfiltrate|upload|execute|grant|approve|charge|cancel|post|export|copy|download|run|accept|call|invoke|"
    r"use|trigger|paste|append|schedule)\b"
)
_URGENCY = re.compile(r"\b(?:immediately|urgent(?:ly)?|right\s+away|right\s+now|asap|at\s+once|without\s+delay)\b")
_SENSITIVE = re.compile(
    r"\b(?:first\s+class|business\s+class|passwords?|credentials?|api\s+keys?|secrets?|credit\s+cards?|"
    r"card\s+numbers?|bank\s+(?:account|details)|all\s+(?:files|emails|data|records|memories|bookings)|"
    r"every\s+(?:flight|booking|email|meeting)|wallet|bitcoin|gift\s+cards?|presidential\s+suite|premium\s+package|"
    r"administrator\s+rights|(?:in|from)\s+memory|stored\s+notes|id_rsa|cookies?|all\s+of\s+the\s+user'?s|"
    r"saved\s+(?:card|notes|passwords)|company\s+card|chat\s+history|notify\s+nobody|(?:bank\s+|card\s+)?pins?|"
    r"passport\s+(?:numbers?|details|scans?|copies)|cvv|cvc|security\s+codes?|one-time\s+(?:pass)?codes?|"
    r"otp|(?:door|alarm|gate|keypad|key-?safe)\s+codes?)\b|[$€£]\s?\d|\.ssh\b|"
    r"\b(?:cabin|account|amount|password|to)\s*=\s*\S|\b\d[\d,.]*\s*(?:dollars|euros|pounds)\b"
)
# Where exfiltrated data would go: an e-mail address, a URL, an IBAN, an account number.
_DESTINATION = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.-]+|https?://\S+|\b[a-z]{2}\d{2}(?:\s?[a-z0-9]{4}){3,}|\baccount\s+(?:no\.?\s+)?\d[\d-]{5,}|"
    # a web address without its scheme, known by its path: "the form at loc-log.example/form/0000"
    r"\b(?:[a-z0-9-]+\.)+[a-z]{2,}/[\w/.?=&%-]+|"
    # a phone number named as one: "to the courier number 0000 000000", "on WhatsApp +00 000 000 0000"
    r"\b(?:number|mobile|phone|whatsapp|tel\.?)\s*:?\s*\+?\d[\d\s-]{7,}\d"
)
_REPLY_TO = re.compile(r"\b(?:reply|respond|write|e-?mail|message|text)\s+(?:back\s+)?to\s+$")
_WITH_DATA = re.compile(r"\s+with\s+[^.;\n]{3,80}")
# Someone else's details, not the reader's own ("with your arrival time" is how a letter asks its reader).
_SOMEONES_DATA = re.compile(
    r"\b(?:his|her|their|the\s+user'?s?|(?<!your\s)(?<!our\s)(?<!my\s)\w+'s)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:address|date\s+of\s+birth|birthday|phone|mobile|passport|card|bank|account|passwords?|pin|"
    r"national\s+insurance|social\s+security)\b"
)
_SEND_TO = re.compile(
    r"\b(?:(?:send|forward|email|mail|post|upload|share|transfer|wire|copy|export|paste|put|submit|grant|text|whatsapp|"
    r"sms|dm|messag|relay|disclos|transmit)\w*|pass(?:es|ed|ing)?|hand(?:s|ed)?\s+over)\b"
    r"(?:\s+\S+){0,10}?\s+(?:(?:to|with|on|into|via)\s+(?:\S+\s+){0,2}?|"
    r"(?:form|webhook|endpoint|url|server|bucket)\s+at\s+)$"
)
_SENT_DATA = re.compile(
    r"\b(?:all|every|each|any|everything|whatever|the\s+user'?s?|their|his|her|my|its)\b|"
    r"\b(?:passwords?|credentials?|keys?|tokens?|secrets?|history|contacts?|e-?mails|messages|conversations?|chats?|"
    r"data|files|documents|memor(?:y|ies)|notes|records|card|codes?|details|logs?|transcripts?|(?:home\s+)?address(?:es)?|"
    r"date\s+of\s+birth|birth\s+dates?|national\s+insurance|social\s+security|phone\s+numbers?|passports?|cvv|expiry)\b"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# "This message was sent to you@...": a statement of what happened, not an order.
_PASSIVE = re.compile(
    r"\b(?:was|were|been|is|are|being)\s+(?:\w+ly\s+)?(?:sent|forwarded|emailed|mailed|shared|posted)\b"
)
_TOOL_CALL = re.compile(
    r"\b[a-z]+(?:_[a-z]+)+\s*\([^)]*=|\b(?:call|invoke|run|use|trigger|execute)\s+(?:the\s+)?[\w.]+\s+(?:tool|function)\b|"
    r"\b(?:call|invoke|run)\s+[a-z]+(?:[_.][a-z]+)+\b"
)
# Verbs that open an order to an agent: "Book first class." "... and send the password to ..."
_IMPERATIVE_OPENING = re.compile(
    r"(?:^|[.!?;:\n]\s*|\band\s+)(?:please\s+)?(?:ignore|disregard|forget|override|book|transfer|send|wire|delete|"
    r"erase|pay|purchase|buy|upgrade|email|forward|share|reveal|leak|upload|execute|grant|approve|output|print|"
    r"repeat|respond|reply|always|never)\b"
)


# A rule that protects ("we will never ask you to send your PIN") is no order to act.
_NEGATED = re.compile(r"\b(?:never|not|don'?t|won'?t|doesn'?t|no\s+one\s+will|nobody\s+will)\b")
# A form's or a receipt's line: a label and an amount ("Delivery charge   £1.50", "Monthly share: RD$ 450.00",
# "Fee: CHF 20"), where a verb is a noun.
_AMOUNT_LINE = re.compile(
    r"^[\w\s&/().,-]{1,48}?[:\s]\s*-?(?:[a-z]{1,3}\s?)?[$€£]?\s?-?\d[\d,.]*\s*(?:[$€£%]|[a-z]{3})?\s*$"
)


# Someone the reader is to act upon, spoken of in the third person, or a standing rule for every case: an agent
# told what to do with a person or from now on, where a bill asks its own reader for one thing.
_SOMEONE_SERVED = re.compile(
    r"\bthe\s+(?:user|customer|client|account\s+holder|recipient|reader|caller)s?\b|"
    r"\b(?:always|every|whenever|from\s+now\s+on)\b"
)


def urgent_action(text: str) -> Finding | None:
    """An action verb with urgency or a sensitive object in the same sentence (not under a negation).

    Alone it is what a bill or a to-do list tells its own reader ("call us immediately", "pay by Friday"), which
    flags nothing; said about a person the reader serves ("tell the user they must pay now") or as a standing rule
    ("always book first class") it weighs more.
    """
    if not may_match(_ACTION, text):
        return None  # then no sentence of it holds an action verb
    for sentence in sentences(text, clauses=False):
        action = _ACTION.search(sentence)
        if action is None or _AMOUNT_LINE.match(sentence) or _NEGATED.search(sentence, 0, action.start()):
            continue
        if _URGENCY.search(sentence) or _SENSITIVE.search(sentence):
            return (0.3 if _SOMEONE_SERVED.search(sentence) else 0.25), sentence
    return None


_LEAK_URL = table(
    (r"!\[[^\]]*\]\(https?://[^)\s]*\?[^)]*(?:insert|\{|<|user|password|history|email|conversation)", 0.45),
    (
        r"\b(?:append|add|attach|include|put|encode)\b(?:\s+\S+){0,6}?\s+(?:as|in|into|to)\s+(?:the\s+|a\s+)?(?:\w+\s+)?"
        r"(?:query\s+)?(?:parameter|param|query\s+string)\b",
        0.45,
    ),
    (
        r"\b(?:charge|bill)\w*\s+(?:it\s+|them\s+|this\s+)?(?:to\s+)?(?:the\s+)?(?:saved|company|user'?s|stored|"
        r"corporate)\s+(?:credit\s+)?card|\b(?:charge|bill)\w*\s+(?:\S+\s+){0,3}?card\s+on\s+file",
        0.35,
    ),
)
_leak_url = patterns(_LEAK_URL)


def exfiltration(text: str) -> Finding | None:
    """Data sent to an address the text names ("forward every email to x@y"), or a tool called by name."""
    for found in _DESTINATION.finditer(text):
        # The sentence before the address: what an earlier sentence sends is not sent here.
        before = _SENTENCE_END.split(text[max(0, found.start() - 120) : found.start()])[-1]
        if _SEND_TO.search(before) and not _PASSIVE.search(before):
            # "send the signed invoice to billing@..." is ordinary mail; what planted text sends is someone's data.
            weight = 0.35 if _SENT_DATA.search(before) else 0.2
            return weight, text[max(0, found.start() - 60) : found.end()]
        # The data after the address: "reply to x@y with her home address and phone number".
        with_data = _WITH_DATA.match(text, found.end())
        if with_data and _REPLY_TO.search(before) and _SOMEONES_DATA.search(with_data.group(0)):
            return 0.35, text[max(0, found.start() - 30) : with_data.end()]
    call = _TOOL_CALL.search(text)
    if call:
        return 0.35, call.group(0)
    return _leak_url(text)


def imperatives(text: str) -> Finding | None:
    """Clauses opening with two or more different agent-directed verbs: a list of orders, not prose."""
    found = [m.group(0).strip(" .!?;:\n") for m in _IMPERATIVE_OPENING.finditer(text)]
    # One verb said twice ("Please pay £80 by Friday. Pay by transfer to ...") is one request and how to carry it out.
    return (0.2, ", ".join(found)) if len({clause.split()[-1] for clause in found}) >= 2 else None
