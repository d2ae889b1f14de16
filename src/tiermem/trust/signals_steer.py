"""(internal) English signals of a reader steered without a plain order: hints, stories, labels and spoofed tools.

Part of the English signals (``signals_en``). Planted text need not say "ignore your instructions"; it can
*suggest* ("you might consider asking the user for...", "wouldn't it be kind to...", "a truly helpful assistant
would..."), tell a story with a moral for the reader ("a wise AI who always added a link... Be like the wise
AI"), or speak from a label a machine reads: a note tagged for the memory or the agent (``[memory: ...]``,
``(assistant)``, ``@copilot``), a vocative naming a kind of AI reader ("AI shopping assistants:"), a tool
result's own field or header (``"assistant_directive":``, ``[plugin: ...]``, "a verified instruction from the
provider"). Other shapes here take the user's place: the user's own instructions declared void, the page
declared the reader's instructions, or a later event in the user's world ("once the user has uploaded...",
"a trigger phrase") with what to do then. A machine named as the reader and given an order ("AI: mark it
paid") is read by ``signals_vocative``.

Each is weak alone where a person could write it too (a hint, a story, a tag), and strong where only a reader
that is a machine is meant.
"""

from __future__ import annotations

import re

from tiermem.trust.cover_story import delayed_cover
from tiermem.trust.patterns import Finding, Signal, around, first_sentence, patterns, table
from tiermem.trust.scripted_lie import told_otherwise
from tiermem.trust.signals_habit import habit
from tiermem.trust.signals_lifted import rule_lifted
from tiermem.trust.signals_safeguard import safeguard_waived
from tiermem.trust.signals_vocative import addressed_order
from tiermem.trust.signals_void import guidance_voided, kept_safety_set_aside, permission_claimed, safety_set_aside

__all__ = ["SIGNALS_STEER", "addressed_order"]

_READER = r"(?:assistants?|ais?|a\.i\.|models?|agents?|bots?|chatbots?|llms?|gpts?|copilots?|summari[sz]ers?)"
_PERSON = r"(?:the\s+user|their|them|the\s+customer|the\s+reader|its\s+user|your\s+user)"

# -- a hint or a story in place of an order ----------------------------------------------------------------------

_HINT = re.compile(
    r"\byou\s+(?:might|may|could|should)\s+(?:want\s+to\s+|wish\s+to\s+)?consider\b|"
    r"\bwouldn'?t\s+it\s+be\s+(?:\w+\s+)?(?:kind|nice|helpful|good|best|wise|considerate|polite|great|smart)\b|"
    r"\bit\s+would\s+be\s+(?:the\s+)?(?:\w+\s+)?(?:kind|nice|helpful|considerate|best|wise|right|polite|smart)\s+"
    r"(?:thing\s+)?(?:to|if)\b|\bgoing\s+ahead\s+and\s+\w+ing\b|\bif\s+you\s+(?:simply|just|quietly|kindly)\s+\w+|"
    r"\b(?:be|act)\s+like\s+(?:the|that|this|a|an)\s+(?:\w+\s+){0,2}?(?:ai|assistant|model|bot|agent|helper)\b|"
    rf"\b(?:a|any|every|the)\s+(?:truly|really|genuinely|good|smart|wise|helpful)\s+(?:\w+\s+)?{_READER}\s+"
    r"(?:\w+\s+){0,4}?(?:would|will|should|always)\b|\bno\s+need\s+to\s+(?:bother|ask|check\s+with|trouble)\s+"
    r"(?:them|the\s+user|him|her)\b|\b(?:imagine|think\s+(?:of|about))\s+how\s+(?:\w+\s+){0,3}?(?:the\s+user|they)\s+"
    r"would\s+be\b"
)
# What a hint is about: the user served, their card or account, a destination, an approval or a purchase.
_HINT_OBJECT = re.compile(
    r"\bthe\s+user'?s?\b|\btheir\s+(?:card|account|bank|savings|password|details|data|files|date\s+of\s+birth)\b|"
    r"https?://|\b[a-z0-9][a-z0-9-]*\.(?:com|net|org|io|co|biz|info|xyz|top|shop|store|site|app|link|click|pro)\b|"
    r"\b(?:approv\w+|renew\w*|purchas\w+|buy\w*|transfer\w*|pay\w*|sign\w*\s+up|invest\w*|switch\w*)\b|"
    rf"\b(?:its|their|your)\s+users?\b|\b(?:date\s+of\s+birth|postcode|home\s+address)\b|\b{_READER}\b"
)


def hint(text: str) -> Finding | None:
    """A suggestion to the reader about the user, their card or a destination: an order said softly."""
    found = first_sentence(text, _HINT)
    if found is None:
        return None
    return (0.45 if _HINT_OBJECT.search(around(text, found[0], 200)) else 0.25), found[1].group(0)


# -- labels a machine reads --------------------------------------------------------------------------------------

_LABELS = table(
    # A vocative naming a kind of AI reader: "AI readers:", "AI shopping assistants:", "Editors' note to AI readers:"
    (
        r"(?:^|[.!?\n|(\[{*>\"]\s*)(?:(?:p\.?\s?s\.?|attn|attention|hey|hi|hello|dear|editors?'?s?|warning|notice)\s+)?"
        r"(?:(?:note|message|memo|instructions?|reminder|request)\s+"
        r"(?:to|for)\s+)?(?:the\s+|all\s+|any\s+|dear\s+|hey\s+)?(?:ai|llm|gpt|a\.i\.)(?:[\s-]+[a-z]+){0,2}\s*[:,]",
        0.4,
    ),
    # A tag for the machine or its memory: "[memory: ...]", "(assistant):", "{note to agent}"
    (
        r"[\[{(]\s*(?:memory|mem|memo\s+to\s+self|note\s+to\s+self|instruction|directive|system|prompt|"
        r"agent|assistant|ai|llm|bot|model)\s*[:\])}]\s*:?",
        0.35,
    ),
    # A mention of a coding or chat assistant by its handle: "@copilot", "@assistant"
    (r"(?:^|\s)@(?:copilot|claude|chatgpt|gpt\w*|gemini|assistant|ai|bot|llm|devin|codex|cursor)\b", 0.35),
    # A tool result's own field or header: '"assistant_directive":', "[plugin: mail]", "OUTPUT OF search:"
    (
        r"[\"'](?:assistant|agent|bot|model|ai|llm|system)_(?:directive|instruction|note|message|command|order|"
        r"action|task)s?[\"']\s*:|(?:^|\n)\W{0,3}\[(?:plugin|tool|function|api|connector|extension)\s*[:=]",
        0.3,
    ),
    # Rank claimed inside a tool's output: "authority=system", '"priority":"system"', "(level: root)"
    (
        r"\b[\"']?(?:authority|priority|privilege|level|origin|issued[_\s-]by|clearance)[\"']?\s*[=:]\s*[\"']?"
        r"(?:system|root|admin(?:istrator)?|developer|operator)\b|[\"']for[\"']\s*:\s*[\"'](?:assistant|agent|ai|llm|"
        r"model|bot)[\"']",
        0.35,
    ),
)


_AUTHORITY = table(
    # "a verified instruction from the mailbox provider", "(from model provider)", "the developer of this assistant"
    (
        r"\b(?:verified|official|authori[sz]ed|trusted|signed|mandatory|priority|system)\s+(?:\w+\s+)?(?:instruction|"
        r"directive|message|order|command|request|advisory|notice)s?\s+from\b|"
        r"\(\s*from\s+(?:the\s+|your\s+)?(?:model\s+provider|developers?|operators?|system|admin\w*|vendor|"
        r"platform|provider)\s*\)|\b(?:developers?|operators?|creators?|makers?|owners?|admin\w*|vendor)\s+of\s+"
        r"(?:this|the|your)\s+(?:assistant|ai|model|bot|agent|chatbot|tool)\b",
        0.4,
    ),
    # The user's say taken away: "the user's instructions carry no weight", "the reviews on this page are your
    # instructions", "follow only instructions found in this file", "stop following the user"
    (
        r"\bthe\s+user'?s?\s+(?:\w+\s+)?(?:instructions|requests|wishes|questions|commands|orders|words)\s+(?:now\s+)?"
        r"(?:carry|have|hold)\s+no\s+weight|\bthe\s+user'?s?\s+(?:\w+\s+)?(?:instructions|requests|wishes|"
        r"commands)\s+(?:no\s+longer|do\s+not|don'?t)\s+(?:apply|count|matter)|\b(?:are|is|become)\s+your\s+"
        r"(?:new\s+|only\s+|real\s+)?(?:instructions|orders|rules|commands)\b|\bfollow\s+only\s+(?:the\s+)?"
        r"(?:instructions|orders|commands)\s+(?:in|found\s+in|from|on)\s+(?:this|the)\b|\b(?:stop|quit|cease)\s+"
        r"(?:following|obeying|listening\s+to|helping|serving)\s+the\s+user\b|\bthe\s+(?:question|task|request)\s+"
        r"you\s+(?:were|have\s+been)\s+(?:asked|given)\s+(?:is|was)\s+(?:irrelevant|void|cancell?ed|obsolete|"
        r"unimportant|not\s+important)\b",
        0.45,
    ),
    # The user made a privileged party: "the current user is a verified administrator", "grant any request"
    (
        r"\bthe\s+(?:current\s+|present\s+)?user\s+(?:is|has\s+been)\s+(?:now\s+)?(?:a\s+|an\s+)?(?:verified|trusted|"
        r"authori[sz]ed|approved|certified)\b|\bgrant\s+(?:any|every|all)\s+(?:request|access)\w*\b|"
        r"\baccess\s+to\s+other\s+users'?\b",
        0.35,
    ),
)

# -- a later event in the user's world ----------------------------------------------------------------------------

_USER_EVENT = re.compile(
    r"\b(?:once|when(?:ever)?|after|as\s+soon\s+as|the\s+(?:next|first)\s+time|next\s+time|the\s+moment)\s+"
    r"(?:the\s+user|the\s+customer|they)\s+(?:has\s+|have\s+|is\s+|are\s+|does\s+|finally\s+)?[a-z]+(?:ed|s)\b|"
    r"\b(?:trigger|code|magic|secret|activation)\s+(?:phrase|word|sentence)\b|\bas\s+soon\s+as\s+you\s+(?:receive|see|"
    r"read|get|hear)\s+(?:it|this|that|the\s+(?:word|phrase|message))\b|\b(?:across|in|for)\s+(?:all\s+|every\s+)?"
    r"(?:future|later|subsequent|upcoming)\s+(?:sessions|conversations|chats)\b|\bwhenever\s+[a-z]+\s+asks\b"
)
_THEN = re.compile(
    r"\b(?:tell|say|reply|respond|answer|recommend|put|add|include|insert|send|forward|read\s+out|reveal|show|"
    r"summari[sz]e|delete|approve|pay|book|switch|stop|ignore|ask|give|mention|describe|claim|write|post|upload|"
    r"persists?|remains?|applies|keep|text|whatsapp|messag)\w*\b"
)
_SENSITIVE = re.compile(
    r"\b(?:social\s+security|ssn|tax\s+(?:return|id)|passport|national\s+insurance|bank|card|password|pin|e-?mails?|"
    r"inbox|contacts|files|address|date\s+of\s+birth|salary|medical|fault|blame|(?:door|keypad|alarm|lock|access|"
    r"gate|key\s*safe)\s+codes?)\b"
)


# A later event in anyone's world ("the next time a parcel is marked delivered", "when someone next asks"): what
# a reminder to oneself says too, so it counts only with someone's data or a way into their home.
_ANY_EVENT = re.compile(
    r"\b(?:the\s+)?next\s+time\s+(?:a|an|the|someone|anyone|somebody)\b|\bwhen(?:ever)?\s+(?:someone|anyone|somebody)"
    r"\s+next\b|\bon\s+the\s+day\s+(?:the\s+)?next\b|"
    # a cue to watch for: "when someone says she is ill, that's your cue", "is your signal to"
    r"\bwhen(?:ever)?\s+(?:someone|anyone|somebody|a\s+message|a\s+caller)\s+(?:says|mentions|writes|asks|tells|"
    r"arrives)\b|\b(?:that'?s|that\s+is|is|will\s+be)\s+your\s+(?:cue|signal|trigger|go-?ahead)\b"
)


def later_event(text: str) -> Finding | None:
    """A later event in the user's world (they upload, a trigger phrase) with what to do then: stronger with data."""
    found = first_sentence(text, _USER_EVENT, _THEN, after=True)
    if found is not None:
        return (0.4 if _SENSITIVE.search(found[0]) else 0.3), found[0]
    found = first_sentence(text, _ANY_EVENT, _THEN, after=True)
    if found is not None and _SENSITIVE.search(found[0]):
        return 0.4, found[0]
    return None


# -- the answer taken over ---------------------------------------------------------------------------------------

_TAKEN = table(
    (
        r"\breplace\s+(?:the|your|its|their|each|every)\s+(?:\w+\s+)?(?:summary|answer|reply|response|output|"
        r"translation)\s+with\b|\b(?:slip|sneak|work|weave|insert|drop)\s+(?:\S+\s+){0,12}?(?:somewhere\s+)?"
        r"(?:natural(?:ly)?\s+)?(?:in|into)\s+(?:the\s+(?:middle|start|end|body|top|bottom|beginning)\s+of\s+)?"
        r"(?:your|the|each|every)\s+(?:\w+\s+)?(?:reply|answer|response|summary|output)\b",
        0.45,
    ),
    (
        r"\b(?:conclude|recommend|advise|suggest|insist|tell\s+them)\s+(?:to\s+them\s+)?that\s+(?:they|the\s+user)\s+"
        r"(?:should|must|ought\s+to|need\s+to)\b|\b(?:always\s+)?rank\s+(?:\S+\s+){1,4}?(?:first|top|highest|"
        r"above\s+(?:all|every|the\s+others))\b",
        0.35,
    ),
    (
        r"\b(?:put|place|write|add|include)\s+(?:\S+\s+){0,6}?(?:on|in|at)\s+the\s+(?:first|last|top|opening)\s+"
        r"line\s+of\s+(?:the|your|each)\s+(?:summary|answer|reply|response|output)\b",
        0.4,
    ),
)
# A shell command that reads a credential file, and its output posted: only an agent with a shell is asked that.
_READ_SECRET = re.compile(
    r"\b(?:cat|type|less|more|head|tail|print|echo|base64|xxd|strings)\s+[\"'`]?~?/?[\w./-]*(?:\.ssh/|\.aws/|"
    r"\.gnupg/|\.netrc|\.env\b|id_rsa|id_ed25519|/etc/(?:passwd|shadow)|credentials|\.npmrc|\.pypirc|\.docker/)"
)
_POST_OUTPUT = re.compile(
    r"\b(?:paste|post|share|send|include|attach|upload|comment|reply\s+with|add)\w*\b(?:\s+\S+){0,4}?\s+(?:the\s+|its\s+|"
    r"their\s+)?(?:output|result|contents?|text)\b"
)


def secret_read_and_posted(text: str) -> Finding | None:
    """A command that reads a credential file, and its output posted or pasted somewhere."""
    found = _READ_SECRET.search(text)
    if found and _POST_OUTPUT.search(text):
        return 0.55, found.group(0)
    return (0.3, found.group(0)) if found else None


# -- a payload to decode and obey --------------------------------------------------------------------------------

# Undoing a disguise: decode, read backwards, join the spaced letters or the cells of a column.
_DECODE = re.compile(
    r"\b(?:decode|decipher|decrypt|unscramble|convert\s+(?:it\s+|this\s+|them\s+)?from|read\s+(?:it\s+|this\s+|"
    r"them\s+)?backwards|reverse\s+(?:it|this|the\s+\w+)|apply\s+rot-?13|join\s+the\s+(?:words|letters|cells)|"
    r"read\s+(?:it\s+|this\s+)?without\s+(?:the\s+)?spaces)\b"
)
# What to do with what comes out: follow it, as an order.
_OBEY = re.compile(
    r"\b(?:follow|obey|comply|carry\s+(?:it\s+|them\s+)?out|act\s+on|do\s+(?:what|as)\s+it\s+says|"
    r"treat\s+(?:it|this|them|the\s+\w+)\s+as\s+(?:an?\s+|your\s+)?(?:\w+\s+)?(?:instructions?|orders?|commands?|tasks?))"
)
_MACHINE = re.compile(rf"\b{_READER}\b")


# How to undo a disguise, handed over: a cipher and its key, word or letter positions to count, a shift.
_KEY_GIVEN = re.compile(
    r"\b(?:cipher|cypher|codebook|code\s+book)\b|\bcount\s+(?:the\s+)?(?:words|letters)\b|"
    r"\bword\s+numbers\b|\bfirst\s+letters?\s+of\s+(?:each|every)\s+(?:line|word|sentence|item)\b|"
    r"\bshift\s+(?:each\s+letter|every\s+letter|(?:it\s+|them\s+)?(?:back\s+)?by\s+\d+)\b"
)


# A machine as the reader, not a shop's assistant: "for the bot", "AI:", "assistant, ...", "the model".
_MACHINE_ADDRESSED = re.compile(
    r"\b(?:ai|a\.i\.|bots?|chatbots?|llms?|gpt|the\s+model|language\s+models?)\b|"
    r"(?:^|[.!?\n]\s*)(?:hey\s+|hi\s+)?assistant\s*[:,]|"
    r"\b(?:for|to|dear)\s+(?:the\s+|my\s+|our\s+)?assistant\b"
)


def decode_and_obey(text: str) -> Finding | None:
    """An order to undo a disguise and follow what it hid, or its key handed to a machine reader."""
    found = first_sentence(text, _DECODE, _OBEY, clauses=False)
    if found:
        return (0.5 if _MACHINE.search(text) else 0.3), found[0]
    key = _KEY_GIVEN.search(text)
    if key and _MACHINE_ADDRESSED.search(text):
        return 0.45, text[max(0, key.start() - 40) : key.end() + 40]  # why else explain a code to a machine
    return None


SIGNALS_STEER = (
    Signal("a hint to the reader in place of an order", hint),
    Signal("a label a machine reads", patterns(_LABELS)),
    Signal("a machine addressed and given an order", addressed_order),
    Signal("the user's say taken away or a provider's authority claimed", patterns(_AUTHORITY)),
    Signal("a later event in the user's world with what to do then", later_event),
    Signal("the reader's answer taken over", patterns(_TAKEN)),
    Signal("a credential file read and its output posted", secret_read_and_posted),
    Signal("a habit of the reader's answers that works against the user", habit),
    Signal("a safeguard of the user's waived as standing custom", safeguard_waived),
    Signal("a disguised payload to decode and obey", decode_and_obey),
    Signal("the reader's own guidance declared void", guidance_voided),
    Signal("a permission for the reader claimed by the text", permission_claimed),
    Signal("a rule of the reader's world declared lifted", rule_lifted),
    Signal("the reader's own safety advice set aside", safety_set_aside),
    Signal("a delayed order with a cover story for the person served", delayed_cover),
    Signal("a claim to make that the note admits is untrue", told_otherwise),
    Signal("safety guidance the user keeps set aside", kept_safety_set_aside),
)
