"""Outbound PII guardrail: mask personal data in a prompt before it leaves the process, unmask the reply locally.

``PiiMasker`` is one conversation's mapping: the same value always gets the same placeholder (``[EMAIL_1]``), so
the model can refer to it, and ``unmask`` puts the real values back into what the model answered. Kinds found:
e-mail addresses; phone numbers of any country in international form and of the default regions in national
form (``pii_phones``, on phonenumbers); IBANs in any case and spacing, payment cards, US SSNs and Spanish,
Italian and Brazilian identifiers by their check digits (``pii_numbers``, on python-stdnum); UK National
Insurance numbers; IPv4 and IPv6 addresses; birth dates, passport numbers and other national identifiers after
their label (``pii_labelled``); API keys and tokens (known prefixes, JWTs, bearer tokens, ``api_key=...``).
Names and postal addresses are not looked for: no rule tells "Rose" the person from the flower.

Ordinary numbers stay: dates, times, prices, counts, versions (a dotted quad after "firmware" or "v" is not an
address), barcodes and order numbers (after "order", "invoice", "ticket", ...) do not pass these checks.
Values are matched exactly as written: ``4111 1111 1111 1111`` and ``4111111111111111`` get different
placeholders, so unmasking gives back exactly the text that was masked. The detectors read the text as a model
does (``pii_view``: Unicode spaces and dashes plain, full-width digits ASCII, invisible characters gone) and the
placeholder covers the value as written; a JSON text is masked string by string (``pii_json``) and stays JSON.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from tiermem.trust.pii_json import json_tokens
from tiermem.trust.pii_labelled import birth_dates, labelled_ids, passports
from tiermem.trust.pii_numbers import cards, ibans, ipv4s, ipv6s, national_ids, ninos, ssns
from tiermem.trust.pii_phones import phones
from tiermem.trust.pii_view import pii_view

__all__ = ["PROCESS_PII_COUNTS", "PiiCounter", "PiiKind", "PiiMasker", "PiiSpan", "find_pii"]


class PiiKind(StrEnum):
    """A kind of personal or secret value; its name is the placeholder's label."""

    SECRET = "KEY"
    EMAIL = "EMAIL"
    IBAN = "IBAN"
    CARD = "CARD"
    SSN = "SSN"
    NINO = "NINO"
    IP = "IP"
    PHONE = "PHONE"
    NATIONAL_ID = "ID"
    PASSPORT = "PASSPORT"
    BIRTH_DATE = "DOB"


@dataclass(frozen=True, slots=True)
class PiiSpan:
    """One value found in a text: where it is and what kind."""

    start: int
    end: int
    kind: PiiKind


class PiiCounter:
    """How many values of each kind were masked; thread-safe, readable by a metrics endpoint."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[PiiKind, int] = dict.fromkeys(PiiKind, 0)

    def add(self, kind: PiiKind, n: int = 1) -> None:
        """Count ``n`` more masked values of ``kind``."""
        with self._lock:
            self._counts[kind] += n

    def snapshot(self) -> dict[str, int]:
        """Counts by kind label (every kind present, zeros included)."""
        with self._lock:
            return {kind.name.lower(): n for kind, n in self._counts.items()}


PROCESS_PII_COUNTS = PiiCounter()
"""Every masker in the process counts here too (what a /metrics endpoint reports)."""

# -- detectors: each yields candidate (start, end) spans; checks beyond a regular expression live here ---------

_EMAIL = re.compile(
    r"(?<![\w.%+'-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]|'(?=[A-Za-z]))*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*"
    r"\.[A-Za-z]{2,24}(?![\w-])"
)
# (literal prefixes one of which the text must hold, the pattern): the prefix test skips the pattern cheaply.
_SECRET: list[tuple[tuple[str, ...], re.Pattern[str]]] = [
    (("sk-", "pk-", "rk-"), re.compile(r"(?<![\w-])(?:sk|pk|rk)-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}")),
    (("_live_", "_test_"), re.compile(r"(?<!\w)(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    (("gh",), re.compile(r"(?<!\w)(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}")),
    (("github_pat_",), re.compile(r"(?<!\w)github_pat_[A-Za-z0-9_]{30,}")),
    (("glpat-",), re.compile(r"(?<!\w)glpat-[A-Za-z0-9_-]{20,}")),
    (("xox",), re.compile(r"(?<!\w)xox[abprs]-[A-Za-z0-9-]{10,}")),
    (("AKIA", "ASIA"), re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")),
    (("AIza",), re.compile(r"(?<![\w-])AIza[A-Za-z0-9_-]{35}")),
    (("hf_",), re.compile(r"(?<!\w)hf_[A-Za-z0-9]{30,}")),
    (("npm_",), re.compile(r"(?<!\w)npm_[A-Za-z0-9]{36}")),
    (("eyJ",), re.compile(r"(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
]
# The value after "Bearer" or after a key-like name: group 1 is what is masked, the label stays readable.
_SECRET_VALUE = [
    re.compile(r"\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)"),
    re.compile(
        r"(?i)\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret|token|secret|"
        r"password|passwd)\b[\"']?\s*[:=]\s*[\"']?([^\s\"',;]{8,})"
    ),
]


def _secrets(text: str) -> Iterator[tuple[int, int]]:
    for hints, pattern in _SECRET:
        if any(hint in text for hint in hints):
            for m in pattern.finditer(text):
                yield m.start(), m.end()
    lower = text.lower()
    if any(word in lower for word in ("bearer", "key", "token", "secret", "passw")):
        for pattern in _SECRET_VALUE:
            for m in pattern.finditer(text):
                yield m.start(1), m.end(1)


def _emails(text: str) -> Iterator[tuple[int, int]]:
    for m in _EMAIL.finditer(text):
        yield m.start(), m.end()


# Earlier kinds win where spans overlap (a key may hold digits that look like a card; a card is not a phone; an
# IBAN, a card or an SSN is not also an identifier of another kind).
_DETECTORS: tuple[tuple[PiiKind, Callable[[str], Iterator[tuple[int, int]]]], ...] = (
    (PiiKind.SECRET, _secrets),
    (PiiKind.EMAIL, _emails),
    (PiiKind.IBAN, ibans),
    (PiiKind.CARD, cards),
    (PiiKind.SSN, ssns),
    (PiiKind.NINO, ninos),
    (PiiKind.BIRTH_DATE, birth_dates),
    (PiiKind.PASSPORT, passports),
    (PiiKind.NATIONAL_ID, labelled_ids),
    (PiiKind.NATIONAL_ID, national_ids),
    (PiiKind.IP, ipv6s),
    (PiiKind.IP, ipv4s),
    (PiiKind.PHONE, phones),
)


def find_pii(text: str) -> list[PiiSpan]:
    """Every PII value in ``text``, in order, without overlaps (the earlier kind in the list above wins).

    The detectors read ``text`` as a model does (``pii_view``: Unicode spaces and dashes plain, full-width digits
    ASCII, invisible characters gone); each span names the stretch of ``text`` itself that holds the value.
    """
    view = pii_view(text)
    taken: list[PiiSpan] = []
    for kind, find in _DETECTORS:
        for start, end in find(view.text):
            if not any(start < s.end and s.start < end for s in taken):
                taken.append(PiiSpan(start, end, kind))
    return sorted((PiiSpan(*view.original(s.start, s.end), s.kind) for s in taken), key=lambda s: s.start)


_LITERAL = "TEXT"  # the label of a placeholder that stands for placeholder-shaped text the caller wrote
_PLACEHOLDER = re.compile(r"\[(" + "|".join([*(k.value for k in PiiKind), _LITERAL]) + r")_(\d+)\]")


class PiiMasker:
    """One conversation's placeholders: ``mask`` before a prompt leaves, ``unmask`` what comes back."""

    def __init__(self, counter: PiiCounter | None = None) -> None:
        self.counter = counter or PiiCounter()
        self._lock = threading.Lock()
        self._placeholder_of: dict[str, str] = {}
        self._value_of: dict[str, str] = {}
        self._next: dict[str, int] = dict.fromkeys([*(k.value for k in PiiKind), _LITERAL], 1)
        # Placeholder-shaped text the caller wrote itself: never issued, so unmasking leaves it as it was.
        self._literal: set[str] = set()

    @property
    def mapping(self) -> Mapping[str, str]:
        """Placeholder to original value (a copy)."""
        with self._lock:
            return dict(self._value_of)

    def mask(self, text: str) -> str:
        """``text`` with every PII value replaced by its stable placeholder.

        A JSON object, array or string (a tool call's arguments, a tool's result) is masked value by value: each
        string is read decoded, and one that holds PII is written back JSON-encoded, so the text stays valid JSON;
        a number that is a value (a card written as a number) becomes its placeholder as a string.
        """
        tokens = json_tokens(text)
        if tokens is None:
            return self._mask_text(text)
        out: list[str] = []
        at = 0
        for token in tokens:
            masked = self._mask_text(token.value)
            if masked != token.value:
                out += [text[at : token.start], json.dumps(masked, ensure_ascii=False)]
                at = token.end
        out.append(text[at:])
        return "".join(out)

    def _mask_text(self, text: str) -> str:
        found = find_pii(text)
        with self._lock:
            # Placeholder-shaped text the caller wrote: one never issued is just never issued; one already issued
            # (the conversation has an [EMAIL_1]) is masked as text of its own, so it cannot unmask to the value.
            written = list(_PLACEHOLDER.finditer(text))
            self._literal.update(m.group(0) for m in written if m.group(0) not in self._value_of)
            taken = [(m.start(), m.end(), _LITERAL) for m in written if m.group(0) in self._value_of]
            spans = (
                found if not taken else [s for s in found if not any(s.start < e and b < s.end for b, e, _ in taken)]
            )
            pieces = sorted([*((s.start, s.end, s.kind.value) for s in spans), *taken])
            out: list[str] = []
            at = 0
            for start, end, label in pieces:
                out += [text[at:start], self._placeholder(text[start:end], label)]
                at = end
            out.append(text[at:])
        for span in spans:
            self.counter.add(span.kind)
            if self.counter is not PROCESS_PII_COUNTS:
                PROCESS_PII_COUNTS.add(span.kind)
        return "".join(out)

    def _placeholder(self, value: str, label: str) -> str:
        known = self._placeholder_of.get(value)
        if known is not None:
            return known
        while True:
            placeholder = f"[{label}_{self._next[label]}]"
            self._next[label] += 1
            if placeholder not in self._literal:
                break
        self._placeholder_of[value] = placeholder
        self._value_of[placeholder] = value
        return placeholder

    def unmask(self, text: str, *, json_string: bool = False) -> str:
        """``text`` with the placeholders this masker issued replaced by their values.

        In a JSON object, array or string, or with ``json_string`` (``text`` is a tool call's arguments), the
        placeholders sit inside its strings, so each value is inserted JSON-escaped and the JSON stays valid.
        """
        with self._lock:
            values = dict(self._value_of)
        json_string = json_string or json_tokens(text) is not None

        def put(m: re.Match[str]) -> str:
            value = values.get(m.group(0))
            if value is None:
                return m.group(0)
            return json.dumps(value, ensure_ascii=False)[1:-1] if json_string else value

        return _PLACEHOLDER.sub(put, text)
