"""Trust: score text for directive shape (prompt injection) and down-rank quarantined notes.

``injection_score`` combines independent signals, each a weight in [0, 1] found by its own detector, with a
noisy-OR: score = 1 - prod(1 - w). One weak signal ("your instructions", an urgent "send") stays below the
threshold; a strong one (override phrasing, chat-template tokens) or two weak ones together cross it. Text
that merely mentions instructions ("the recipe instructions say to bake for 20 minutes") triggers nothing,
because every detector wants a target (previous/your/system instructions) or an addressee (you, the AI).

Detectors run on a normalised copy: NFKC, invisible format characters removed (their presence is itself a
weak signal: they hide text from a human reader), whitespace collapsed, case folded.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tiermem.types import Hit, MemoryRecord, ScorePart

__all__ = [
    "INJECTION_THRESHOLD",
    "QUARANTINE_FACTOR",
    "QUARANTINE_TAG",
    "InjectionVerdict",
    "apply_quarantine",
    "injection_score",
    "is_quarantined",
    "quarantined",
]

INJECTION_THRESHOLD = 0.5
"""A verdict at or above this is directive-shaped: quarantined at write time, flagged at read time."""

QUARANTINE_FACTOR = 0.25
"""A quarantined hit keeps a quarter of its score: it can still be found by a pointed query, never by accident."""

QUARANTINE_TAG = "quarantined"

_EXCERPT = 60


@dataclass(frozen=True, slots=True)
class InjectionVerdict:
    """How directive-shaped a text is (0..1) and the signals that said so."""

    score: float
    reasons: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        """At or above INJECTION_THRESHOLD."""
        return self.score >= INJECTION_THRESHOLD


def _words(*alternatives: str) -> str:
    return r"(?:" + "|".join(alternatives) + r")"


# What an instruction is called, and what points at the model's own ones rather than a recipe's.
_GUIDANCE = _words(
    r"instructions?",
    r"rules?",
    r"prompts?",
    r"directions?",
    r"guidelines?",
    r"directives?",
    r"orders?",
    r"constraints?",
    r"guardrails?",
    r"programming",
    r"context",
    r"messages?",
    r"commands?",
)
_OWN = _words(
    r"previous", r"prior", r"above", r"earlier", r"preceding", r"original", r"initial", r"all", r"any", r"your"
)
_OVERRIDE_VERB = _words(r"ignore", r"disregard", r"forget", r"override", r"bypass", r"discard")

_MODEL_GUIDANCE = _words(
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
    (
        re.compile(
            r"\b(?:new|updated|revised|real|actual)\s+(?:system\s+)?instructions?\s*:\s*(?:\w+\s+){0,3}?"
            r"(?:you|always|never|only|do\s+not|don'?t|ignore)\b"
        ),
        0.55,
    ),
    (re.compile(r"\bfrom\s+now\s+on,?\s+(?:you|always|never|only|respond|reply|answer)\b"), 0.45),
]
_REFERENCE = [
    (re.compile(r"\b(?:system|developer|hidden|initial|original|secret)\s+(?:prompt|message|instructions?)\b"), 0.25),
    (re.compile(rf"\byour\s+(?:\w+\s+)?{_GUIDANCE}\b"), 0.25),
]
_ADDRESSEE = _words(
    r"assistants?", r"ais?", r"a\.i\.", r"models?", r"chatbots?", r"llms?", r"gpt", r"agents?", r"bots?"
)
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
    (
        re.compile(
            r"\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:were|are)|an?\s+unrestricted|an?\s+unfiltered)\b"
        ),
        0.4,
    ),
    (re.compile(r"\brole-?play\s+as\b"), 0.4),
    (re.compile(r"\byou\s+are\s+no\s+longer\b|\bno\s+longer\s+bound\s+by\b"), 0.4),
    (re.compile(r"\b(?:without|free\s+of)\s+(?:any\s+)?(?:restrictions|filters|limitations|censorship)\b"), 0.4),
]
_SECRECY = [
    (
        re.compile(
            r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this|it)\s+to|reveal\s+(?:this|it)\s+to|"
            r"alert|notify|ask)\s+the\s+user\b"
        ),
        0.35,
    ),
    (re.compile(r"\bwithout\s+(?:telling|asking|informing|notifying|alerting)\s+(?:the\s+)?user\b"), 0.35),
    (re.compile(r"\bwithout\s+(?:asking\s+for\s+)?(?:confirmation|approval|permission)\b"), 0.3),
    (re.compile(r"\bkeep\s+this\s+(?:secret|hidden)\b"), 0.3),
    (
        re.compile(r"\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+this\s+(?:note|message|instruction)"),
        0.3,
    ),
]
_TEMPLATE = [
    (
        re.compile(
            r"<\|(?:im_start|im_end|system|user|assistant|endoftext|endofprompt|start_header_id|end_header_id|"
            r"eot_id)\|>|\[/?inst\]|<</?sys>>|</?(?:system|instructions?|admin)>"
        ),
        0.55,
    ),
    # Role headers at the start of a line pretend the conversation continues inside the note.
    (re.compile(r"(?:^|\n)\s*(?:#{2,}\s*)?(?:system|assistant)\s*:", re.MULTILINE), 0.4),
]
_ACTION = re.compile(
    r"\b(?:book|transfer|send|wire|delete|erase|pay|purchase|buy|upgrade|email|forward|share|reveal|leak|"
    r"exfiltrate|upload|execute|grant|approve|charge|cancel)\b"
)
_URGENCY = re.compile(r"\b(?:immediately|urgent(?:ly)?|right\s+away|right\s+now|asap|at\s+once|without\s+delay)\b")
_SENSITIVE = re.compile(
    r"\b(?:first\s+class|business\s+class|passwords?|credentials?|api\s+keys?|secrets?|credit\s+cards?|"
    r"card\s+numbers?|bank\s+(?:account|details)|all\s+(?:files|emails|data|records|memories|bookings)|"
    r"every\s+(?:flight|booking)|wallet|bitcoin|gift\s+cards?)\b|[$€£]\s?\d"
)
# Verbs that open an order to an agent: "Book first class." "... and send the password to ..."
_IMPERATIVE_OPENING = re.compile(
    r"(?:^|[.!?;:\n]\s*|\band\s+)(?:please\s+)?(?:ignore|disregard|forget|override|book|transfer|send|wire|delete|"
    r"erase|pay|purchase|buy|upgrade|email|forward|share|reveal|leak|upload|execute|grant|approve|output|print|"
    r"repeat|respond|reply|always|never)\b"
)
_INVISIBLE = {"Cf"}  # format characters: zero-width spaces and joiners, bidi overrides, tag characters
_NON_ASCII = re.compile(r"[^\x00-\x7f]")

Finding = tuple[float, str]  # (weight, the text that fired)


@dataclass(frozen=True, slots=True)
class _Signal:
    """One detector: a name for the reason and a function that finds its evidence and weight."""

    name: str
    find: Callable[[str], Finding | None]


def _patterns(patterns: Sequence[tuple[re.Pattern[str], float]]) -> Callable[[str], Finding | None]:
    """The strongest pattern's weight; a second distinct pattern adds half its own (same signal, more evidence)."""

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
    """Two or more clauses opening with an agent-directed verb: a list of orders, not prose."""
    found = [m.group(0).strip(" .!?;:\n") for m in _IMPERATIVE_OPENING.finditer(text)]
    return (0.2, ", ".join(found)) if len(found) >= 2 else None


_SIGNALS = (
    _Signal("override of earlier instructions", _patterns(_OVERRIDE)),
    _Signal("chat-template tokens", _patterns(_TEMPLATE)),
    _Signal("role-play or jailbreak marker", _patterns(_JAILBREAK)),
    _Signal("secrecy from the user", _patterns(_SECRECY)),
    _Signal("addressed to the assistant", _patterns(_ADDRESSED)),
    _Signal("action with urgency or a sensitive object", _urgent_action),
    _Signal("reference to the model's instructions", _patterns(_REFERENCE)),
    _Signal("a series of imperatives", _imperatives),
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


def injection_score(text: str) -> InjectionVerdict:
    """How much ``text`` reads like instructions to the model rather than data, with the reasons."""
    if not isinstance(text, str) or not text.strip():
        return InjectionVerdict(0.0, ())
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
    return InjectionVerdict(round(1.0 - remaining, 4), tuple(reasons))


def quarantined(record: MemoryRecord) -> bool:
    """Quarantined at write time (tagged) or directive-shaped when read now."""
    return QUARANTINE_TAG in record.tags or _reads_as_directive(record.content)


# Recall reads the same notes again and again, and scoring a long one takes about a millisecond: verdicts are
# remembered by a digest of the exact text (not the text itself, which may be 16,000 characters).
_VERDICTS_KEPT = 4096
_verdicts: OrderedDict[bytes, bool] = OrderedDict()
_verdicts_lock = threading.Lock()


def _reads_as_directive(text: str) -> bool:
    """``injection_score(text).flagged``, remembered for the last few thousand texts."""
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    with _verdicts_lock:
        known = _verdicts.get(key)
        if known is not None:
            _verdicts.move_to_end(key)
            return known
    flagged = injection_score(text).flagged
    with _verdicts_lock:
        _verdicts[key] = flagged
        if len(_verdicts) > _VERDICTS_KEPT:
            _verdicts.popitem(last=False)
    return flagged


def is_quarantined(hit: Hit) -> bool:
    """The hit's record is quarantined (see ``quarantined``)."""
    return quarantined(hit.record)


def apply_quarantine(hits: Iterable[Hit], *, factor: float = QUARANTINE_FACTOR) -> list[Hit]:
    """Hits with quarantined ones flagged and their score times ``factor``, re-sorted best first.

    The read-time check also catches notes written before the scorer existed or around the tools. A hit that
    recall already down-ranked (it has a ``quarantine`` part) is not down-ranked twice.
    """
    out: list[Hit] = []
    for hit in hits:
        if hit.part("quarantine") is None and is_quarantined(hit):
            flags = hit.flags if QUARANTINE_TAG in hit.flags else (*hit.flags, QUARANTINE_TAG)
            part = ScorePart("quarantine", None, None, factor)
            hit = Hit(hit.record, hit.score * factor, (*hit.parts, part), flags, hit.relevance)
        out.append(hit)
    # sorted() is stable: equal scores keep the order retrieval gave them.
    return sorted(out, key=lambda h: h.score, reverse=True)
