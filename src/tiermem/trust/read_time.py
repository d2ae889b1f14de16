"""(internal) The read-time check: how recall judges a note that carries no write-time verdict.

Notes from sources the write policy does not scan (the user's own words by default) get this check's verdict
when written (``write.scan.scan_records``); notes stored without a verdict are judged by it when recall reads
them. It must judge as it always did so that their ranking does not change under the user: these are the
English signals of that check, frozen (where a piece is the same as today's write-time signals, it is taken
from them; a test pins the whole so a change there cannot move it). Notes from tools, web pages and imports
are judged by ``trust.injection.injection_score`` instead (which finds much more).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from tiermem.trust.patterns import Finding, Signal, words
from tiermem.trust.signals_actions import _IMPERATIVE_OPENING, _URGENCY
from tiermem.trust.signals_en import _GUIDANCE, _OWN
from tiermem.trust.signals_en import _JAILBREAK as _EN_JAILBREAK
from tiermem.trust.signals_en import _OVERRIDE as _EN_OVERRIDE
from tiermem.trust.signals_en import _REFERENCE as _EN_REFERENCE
from tiermem.trust.signals_en import _SECRECY as _EN_SECRECY
from tiermem.trust.signals_en import _TEMPLATE as _EN_TEMPLATE

__all__ = ["read_time_score"]

_EXCERPT = 60
_OVERRIDE_VERB = words(r"ignore", r"disregard", r"forget", r"override", r"bypass", r"discard")

_MODEL_GUIDANCE = words(
    r"instructions?", r"prompts?", r"programming", r"guardrails?", r"directives?", r"system\s+messages?"
)
_OVERRIDE = [
    # "ignore all previous instructions", "disregard your guidelines": the model's own instructions as target.
    (re.compile(rf"\b{_OVERRIDE_VERB}\b(?:\s+\w+){{0,3}}?\s+{_OWN}\b(?:\s+\w+){{0,2}}?\s+{_MODEL_GUIDANCE}\b"), 0.55),
    (re.compile(rf"\b{_OVERRIDE_VERB}\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|all)\s+(?:\w+\s+)?{_GUIDANCE}\b"), 0.55),
    (
        re.compile(rf"\b{_OVERRIDE_VERB}\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before)\b"),
        0.55,
    ),
    # "forget the previous rules": the same shape aimed at rules in general; could be a policy note.
    (re.compile(rf"\b{_OVERRIDE_VERB}\b(?:\s+\w+){{0,3}}?\s+{_OWN}\b(?:\s+\w+){{0,2}}?\s+{_GUIDANCE}\b"), 0.4),
    *_EN_OVERRIDE[4:6],  # "new instructions: you ...", "from now on, always ..."
]
_REFERENCE = [
    _EN_REFERENCE[0],  # "system prompt", "hidden instructions"
    (re.compile(rf"\byour\s+(?:\w+\s+)?{_GUIDANCE}\b"), 0.25),
]
_ADDRESSEE = words(r"assistants?", r"ais?", r"a\.i\.", r"models?", r"chatbots?", r"llms?", r"gpt", r"agents?", r"bots?")
_ADDRESSED = [
    # A vocative at the start of a sentence: "AI assistant, ...", "Note to the AI: ...", "Attention LLM agents:"
    (
        re.compile(
            rf"(?:^|[.!?\n]\s*)(?:(?:hey|dear|attention|note\s+to|to|instructions\s+for)\s+)?(?:the\s+|all\s+|any\s+)?"
            rf"(?:ai\s+|llm\s+)?{_ADDRESSEE}\s*[,:!]"
        ),
        0.3,
    ),
    (re.compile(rf"\bif\s+you\s+are\s+an?\s+(?:\w+\s+)?{_ADDRESSEE}\b"), 0.3),
    (re.compile(r"\byou\s+(?:must|shall)\s+(?:now\s+)?(?:always\s+|never\s+|only\s+|immediately\s+)?\w+"), 0.3),
    (re.compile(r"\byou\s+are\s+now\b"), 0.3),
]
_JAILBREAK = [
    (re.compile(r"\b(?:dan|do\s+anything\s+now|jailbreak(?:en|ed)?|developer\s+mode|god\s+mode|sudo\s+mode)\b"), 0.4),
    (re.compile(r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b"), 0.4),
    *_EN_JAILBREAK[2:5],  # "act as if you were", "role-play as", "no longer bound by"
    (re.compile(r"\b(?:without|free\s+of)\s+(?:any\s+)?(?:restrictions|filters|limitations|censorship)\b"), 0.4),
]
_SECRECY = [
    _EN_SECRECY[0],  # "do not tell the user"
    (re.compile(r"\bwithout\s+(?:telling|asking|informing|notifying|alerting)\s+(?:the\s+)?user\b"), 0.35),
    *_EN_SECRECY[3:5],  # "without confirmation", "keep this secret"
    (
        re.compile(r"\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+this\s+(?:note|message|instruction)"),
        0.3,
    ),
]
# Chat-template tokens and role headers as they were when write-time scanning came in (the write-time table has
# since learned that a form's "System:" field is no header).
_TEMPLATE = [
    _EN_TEMPLATE[0],
    (re.compile(r"(?:^|\n)\s*(?:#{2,}\s*)?(?:system|assistant)\s*:", re.MULTILINE), 0.4),
]
_ACTION = re.compile(
    r"\b(?:book|transfer|send|wire|delete|erase|pay|purchase|buy|upgrade|email|forward|share|reveal|leak|"
    r"exfiltrate|upload|execute|grant|approve|charge|cancel)\b"
)
_SENSITIVE = re.compile(
    r"\b(?:first\s+class|business\s+class|passwords?|credentials?|api\s+keys?|secrets?|credit\s+cards?|"
    r"card\s+numbers?|bank\s+(?:account|details)|all\s+(?:files|emails|data|records|memories|bookings)|"
    r"every\s+(?:flight|booking)|wallet|bitcoin|gift\s+cards?)\b|[$€£]\s?\d"
)
_INVISIBLE = {"Cf"}  # format characters: zero-width spaces and joiners, bidi overrides, tag characters
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _patterns(patterns: Sequence[tuple[re.Pattern[str], float]]) -> Callable[[str], Finding | None]:
    """The strongest pattern's weight; a second distinct pattern adds half its own (same signal, more evidence).

    Only the second: ``patterns.patterns``, which the write-time signals use, adds every other one.
    """

    def find(text: str) -> Finding | None:
        fired = sorted(((w, m.group(0)) for p, w in patterns if (m := p.search(text))), reverse=True)
        if not fired:
            return None
        weight, excerpt = fired[0]
        if len(fired) > 1:
            weight = 1.0 - (1.0 - weight) * (1.0 - fired[1][0] / 2)
        return weight, excerpt

    return find


def _urgent_action(text: str) -> Finding | None:
    """An action verb with urgency or a sensitive object in the same sentence."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        if _ACTION.search(sentence) and (_URGENCY.search(sentence) or _SENSITIVE.search(sentence)):
            return 0.3, sentence
    return None


def _imperatives(text: str) -> Finding | None:
    """Two or more clauses opening with an agent-directed verb, one verb said twice included (the check as it was)."""
    found = [m.group(0).strip(" .!?;:\n") for m in _IMPERATIVE_OPENING.finditer(text)]
    return (0.2, ", ".join(found)) if len(found) >= 2 else None


_SIGNALS = (
    Signal("override of earlier instructions", _patterns(_OVERRIDE)),
    Signal("chat-template tokens", _patterns(_TEMPLATE)),
    Signal("role-play or jailbreak marker", _patterns(_JAILBREAK)),
    Signal("secrecy from the user", _patterns(_SECRECY)),
    Signal("addressed to the assistant", _patterns(_ADDRESSED)),
    Signal("action with urgency or a sensitive object", _urgent_action),
    Signal("reference to the model's instructions", _patterns(_REFERENCE)),
    Signal("a series of imperatives", _imperatives),
)
_INVISIBLE_WEIGHT = 0.2


def _normalise(text: str) -> tuple[str, int]:
    """The text to scan and how many invisible format characters were removed from it."""
    folded = unicodedata.normalize("NFKC", text)
    # No ASCII character is a format character: only the others need looking up, one by one.
    kept = _NON_ASCII.sub(lambda m: "" if unicodedata.category(m.group()) in _INVISIBLE else m.group(), folded)
    hidden = len(folded) - len(kept)
    # Keep line breaks: the template detector looks for "system:" at the start of a line.
    lines = kept.casefold().splitlines()
    return "\n".join(" ".join(line.split()) for line in lines), hidden


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 3] + "..."


def read_time_score(text: str) -> tuple[float, tuple[str, ...]]:
    """The score and reasons of the read-time check (English, whole text), as it judged before write-time scanning."""
    if not isinstance(text, str) or not text.strip():
        return 0.0, ()
    scanned, hidden = _normalise(text)
    remaining = 1.0
    reasons: list[str] = []
    for signal in _SIGNALS:
        found = signal.find(scanned)
        if found is not None:
            weight, evidence = found
            remaining *= 1.0 - weight
            reasons.append(f"{signal.name}: '{_excerpt(evidence)}'")
    if hidden:
        remaining *= 1.0 - _INVISIBLE_WEIGHT
        reasons.append(f"{hidden} invisible format character{'s' if hidden != 1 else ''}")
    return round(1.0 - remaining, 4), tuple(reasons)
