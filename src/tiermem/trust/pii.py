"""Outbound PII guardrail: mask personal data in a prompt before it leaves the process, unmask the reply locally.

``PiiMasker`` is one conversation's mapping: the same value always gets the same placeholder (``[EMAIL_1]``), so
the model can refer to it, and ``unmask`` puts the real values back into what the model answered. Kinds found:
e-mail addresses; phone numbers of any country in international form and of the default regions in national
form (``pii_phones``, on phonenumbers); IBANs in any case and spacing, payment cards, US SSNs and Spanish,
Italian and Brazilian identifiers by their check digits (``pii_numbers``, on python-stdnum); UK National
Insurance numbers; IPv4 and IPv6 addresses; birth dates, passport numbers and other national identifiers after
their label (``pii_labelled``), a domestic bank account's number after a bank account's label (``pii_accounts``),
also in a table's cells under a header naming them (``pii_columns``); API keys and tokens (known prefixes, JWTs,
bearer tokens, ``api_key=...``).
Names and postal addresses are not looked for: no rule tells "Rose" the person from the flower.

Ordinary numbers stay: dates, times, prices, counts, versions (a dotted quad after "firmware" or "v", or under such
a JSON key, is not an address), barcodes and order or part numbers (after "order", "invoice", "SKU", ...) do not
pass these checks; a login such as a git remote (``git@github.com:org/repo.git``) is no e-mail address.
Values are matched exactly as written: ``4111 1111 1111 1111`` and ``4111111111111111`` get different
placeholders, so unmasking gives back exactly the text that was masked. The detectors read the text as a model
does (``pii_view``: Unicode spaces and dashes plain, full-width digits ASCII, invisible characters gone) and the
placeholder covers the value as written. JSON in a text (the whole text, or after a prefix) is read by its values
(``pii_json``): each string decoded and read alone and after its key as a label, a string holding JSON as JSON, so
the text stays valid JSON and at least what a plain reading of it finds is masked; text that is almost JSON (a
dict's repr, JSON cut off) is read by its quoted values after their keys (``pii_near``).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from tiermem.trust.pii_accounts import bank_accounts
from tiermem.trust.pii_columns import column_cells
from tiermem.trust.pii_json import Layer, encode, is_json, layers
from tiermem.trust.pii_keys import CACHED_KEY, LABEL_HINTS, cached_readings, readings_of
from tiermem.trust.pii_labelled import birth_dates, labelled_ids, passports
from tiermem.trust.pii_national import few_digit_ids, national_labelled_ids
from tiermem.trust.pii_numbers import cards, ibans, ipv4s, ipv6s, names_a_thing, national_ids, ninos, ssns
from tiermem.trust.pii_phones import phones
from tiermem.trust.pii_view import pii_view
from tiermem.trust.secret_formats import AWS_KEY_ID_PREFIXES, grouped_aws_key_ids

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
    ACCOUNT = "ACCOUNT"


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

# The letters of an internationalised address ("jürgen.weiß@müller.de"): ASCII, the accented Latin letters, Greek
# and Cyrillic. Scripts written without spaces (Chinese, Japanese) are left out, so an address is never read as
# running on into the words around it.
_AT_LETTER = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff\u1e00-\u1eff"
# A hyphen before an address joins it to a word ("foo-bar@..." is one local part), except after a Hebrew letter: a
# one-letter prefix ("to", "from") joined by a hyphen or a maqaf, as Hebrew writes it before a Latin word. An
# apostrophe after a letter is inside a local part ("o'neill@..."); after anything else it opens a quoted string
# ("VALUES ('ann@...')").
_EMAIL = re.compile(
    rf"(?<![{_AT_LETTER}0-9_.%+])(?<![{_AT_LETTER}0-9]')(?:(?<![-\u05be])|(?<=[\u05d0-\u05ea][-\u05be]))"
    rf"[{_AT_LETTER}0-9](?:[{_AT_LETTER}0-9._%+-]|'(?=[{_AT_LETTER}]))*"
    rf"@[{_AT_LETTER}0-9](?:[{_AT_LETTER}0-9-]*[{_AT_LETTER}0-9])?(?:\.[{_AT_LETTER}0-9-]+)*"
    rf"\.(?:[{_AT_LETTER}]{{2,24}}|xn--[a-z0-9-]{{2,59}})(?![{_AT_LETTER}0-9_-])"
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
        r"password|passwd)\b[\"']?\s*[:=]\s*[\"']?"
        # not words in brackets, a form's note where the value will be ("[set at first login]")
        r"(?![\[(<{][^\])>}]*\s)([^\s\"',;]{8,})"
    ),
    # "Pwd=" of a connection string; "PWD=/home/ann" is the working directory, a path and no password
    re.compile(r"(?i)\bpwd\b[\"']?\s*[:=]\s*[\"']?(?![/~])([^\s\"',;]{8,})"),
    # HTTP Basic credentials, base64 of "user:password", after the header that carries them; base64 of that length
    # holds a capital, a digit or a sign, a word in lower case ("basic training") does not
    re.compile(r"(?i:\bauthorization\b[\"']?\s*[:=]\s*[\"']?basic)\s+(?=[a-z]*[A-Z0-9+/=])([A-Za-z0-9+/]{8,}={0,2})"),
]


# Any of the prefixes above or of an access key id in groups: a text without one skips the whole list in one look.
_SECRET_HINT = re.compile(
    "|".join(re.escape(hint) for hint in [*(hint for hints, _ in _SECRET for hint in hints), *AWS_KEY_ID_PREFIXES])
)
# in the lower-cased text: one of these before a value
_SECRET_WORD = re.compile("bearer|key|token|secret|passw|pwd|authorization")


def _secrets(text: str) -> Iterator[tuple[int, int]]:
    if _SECRET_HINT.search(text) is not None:
        for hints, pattern in _SECRET:
            if any(hint in text for hint in hints):
                for m in pattern.finditer(text):
                    yield m.start(), m.end()
        if any(prefix in text for prefix in AWS_KEY_ID_PREFIXES):
            # an access key id printed in groups ("AKIA Z3MP ..."), which a model reads as the key: the write
            # gate's reading, so a heading in capitals is no key here either
            yield from grouped_aws_key_ids(text)
    if _SECRET_WORD.search(text.lower()) is not None:
        for pattern in _SECRET_VALUE:
            for m in pattern.finditer(text):
                yield m.start(1), m.end(1)


# A login, not a mailbox: the user of an SSH or git remote, written "user@host:path" (scp's form, the path right
# after the colon) or in a URL after its scheme ("ssh://git@host/...").
_PATH_AFTER = re.compile(r":[\w~/.]")
_SCHEME_BEFORE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://$")


def _emails(text: str) -> Iterator[tuple[int, int]]:
    if "@" not in text:
        return
    for m in _EMAIL.finditer(text):
        if _PATH_AFTER.match(text, m.end()) or _SCHEME_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            continue
        yield m.start(), m.end()


# Earlier kinds win where spans overlap (a key may hold digits that look like a card; a card is not a phone; an
# IBAN, a card or an SSN is not also an identifier of another kind). Each detector comes with the fewest digits
# (``\d``) any text it finds a value in holds, by its patterns and checks: a text with fewer is not given to it, so
# the keys, names and words of a JSON tool result, each read as a layer of its own, cost a count and no reading.
_DETECTORS: tuple[tuple[PiiKind, Callable[[str], Iterator[tuple[int, int]]], int], ...] = (
    (PiiKind.SECRET, _secrets, 0),
    (PiiKind.EMAIL, _emails, 0),
    (PiiKind.IBAN, ibans, 2),  # the two check digits after the country
    (PiiKind.CARD, cards, 12),  # the shortest network length (Maestro)
    (PiiKind.SSN, ssns, 9),
    (PiiKind.NINO, ninos, 6),
    (PiiKind.BIRTH_DATE, birth_dates, 4),  # the shortest date, "1/2/85"
    (PiiKind.PASSPORT, passports, 2),  # a passport number holds at least two
    (PiiKind.NATIONAL_ID, labelled_ids, 4),  # a PAN's four; an Aadhaar, NHS, SIN, NIR, BSN, IdNr or CPF more
    (PiiKind.NATIONAL_ID, national_labelled_ids, 7),  # a Kenyan ID's seven; an AFM's nine, the others more
    (PiiKind.NATIONAL_ID, few_digit_ids, 1),  # an Azerbaijani FIN may hold one
    (PiiKind.NATIONAL_ID, national_ids, 7),  # a NIE's or a codice fiscale's seven; a DNI or CPF more
    (PiiKind.ACCOUNT, bank_accounts, 6),  # a bank account's six digits at least
    (PiiKind.IP, ipv6s, 1),  # "a::b" is not read as an address
    (PiiKind.IP, ipv4s, 4),
    (PiiKind.PHONE, phones, 7),
)
_MOST_DIGITS = max(least for _, _, least in _DETECTORS)
_DIGIT = re.compile(r"\d")


def _digits(text: str) -> int:
    """How many digits ``text`` holds, counted up to the most any detector needs."""
    count = 0
    for _ in _DIGIT.finditer(text):
        count += 1
        if count == _MOST_DIGITS:
            break
    return count


def find_pii(text: str) -> list[PiiSpan]:
    """Every PII value in ``text``, in order, without overlaps (the earlier kind in the list above wins).

    The detectors read ``text`` as a model does (``pii_view``: Unicode spaces and dashes plain, full-width digits
    ASCII, invisible characters gone); each span names the stretch of ``text`` itself that holds the value.
    """
    view = pii_view(text)
    digits = _digits(view.text)
    taken: list[PiiSpan] = []
    for kind, find, least_digits in _DETECTORS:
        if digits < least_digits:
            continue  # no match of this detector can be in the text
        for start, end in find(view.text):
            if not any(start < s.end and s.start < end for s in taken):
                taken.append(PiiSpan(start, end, kind))
    if digits >= _LEAST_IN_A_CELL:
        for span in _under_headers(view.text):
            if not any(span.start < s.end and s.start < span.end for s in taken):
                taken.append(span)
        if any(s.kind is PiiKind.PHONE for s in taken):
            taken = _without_things(view.text, taken)
    if not taken:
        return []
    return sorted((PiiSpan(*view.original(s.start, s.end), s.kind) for s in taken), key=lambda s: s.start)


# What only a label makes personal, read in a table's cells after the column's header ("dob", "passport").
_AFTER_A_HEADER: tuple[tuple[PiiKind, Callable[[str], Iterator[tuple[int, int]]]], ...] = (
    (PiiKind.CARD, cards),
    (PiiKind.SSN, ssns),
    (PiiKind.BIRTH_DATE, birth_dates),
    (PiiKind.PASSPORT, passports),
    (PiiKind.NATIONAL_ID, labelled_ids),
    (PiiKind.NATIONAL_ID, national_labelled_ids),
    (PiiKind.NATIONAL_ID, few_digit_ids),
    (PiiKind.ACCOUNT, bank_accounts),
)
_LEAST_IN_A_CELL = 2  # a passport number's two digits
# A header naming a phone: its cell is read alone, so the next cell's digits ("+351 21 ...,85.2...") are not read
# as the number going on in a decimal.
_PHONE_HEADER = re.compile(
    r"(?i)phone|\btel|\bmobil|\bmob\b|\bcell|\bfax|handy|telefo|m[óo]vil|celular|cellulare|mobiel|puhelin|\btlf"
    r"|\bfone|電話|携帯|手机|电话|連絡先|연락처|전화"
)


def _under_headers(text: str) -> Iterator[PiiSpan]:
    """The values in a table's cells read after their column's header, as ``"header: cell"``."""
    for start, end, header in column_cells(text):
        if LABEL_HINTS.search(header) is None:
            continue  # a header that names no label ("city", "team") reads its cells as they stand
        prefix = header + ": "
        cell = prefix + text[start:end]
        finders = (*_AFTER_A_HEADER, (PiiKind.PHONE, phones)) if _PHONE_HEADER.search(header) else _AFTER_A_HEADER
        for kind, find in finders:
            for s, e in find(cell):
                if s >= len(prefix):
                    yield PiiSpan(start + s - len(prefix), start + e - len(prefix), kind)


def _without_things(text: str, taken: list[PiiSpan]) -> list[PiiSpan]:
    """``taken`` less the phone numbers in a column whose header names a thing's number ("part_number", "SKU")."""
    things = [
        (start, end) for start, end, header in column_cells(text) if names_a_thing(header.replace("_", " ") + ":")
    ]
    return [s for s in taken if s.kind is not PiiKind.PHONE or not any(a <= s.start and s.end <= b for a, b in things)]


_LITERAL = "TEXT"  # the label of a placeholder that stands for placeholder-shaped text the caller wrote
_PLACEHOLDER = re.compile(r"\[(" + "|".join([*(k.value for k in PiiKind), _LITERAL]) + r")_(\d+)\]")
_RANK = {kind: rank for rank, (kind, _, _) in reversed(list(enumerate(_DETECTORS)))}  # a kind's first place above


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
        # (placeholder, depth) -> how a value inside JSON strings was written (its escapes), for unmasking.
        self._written: dict[tuple[str, int], str] = {}

    @property
    def mapping(self) -> Mapping[str, str]:
        """Placeholder to original value (a copy)."""
        with self._lock:
            return dict(self._value_of)

    def mask(self, text: str) -> str:
        """``text`` with every PII value replaced by its stable placeholder.

        Text that holds JSON (a tool call's arguments, a tool's result, ``Result: {...}``) is read in layers
        (``pii_json``): each string decoded and read alone and after its key, a string holding JSON as JSON; a value
        found is replaced where it is written, so the text stays valid JSON with its escapes as they were. A number
        that is a value (a card written as a number) becomes its placeholder as a string.
        """
        found = [(layer, _found_in(layer)) for layer in layers(text)]
        edits: list[tuple[int, int, str]] = []
        masked: list[PiiKind] = []
        with self._lock:
            # Placeholders are issued in the order their values stand in the text, whatever layer read them.
            stretches = [self._stretches(layer, spans, masked) for layer, spans in found]
            pieces: list[list[tuple[int, int, str]]] = [[] for _ in found]
            for _, index, start, end, label in sorted(
                (found[i][0].starts[start], i, start, end, label)
                for i, layer_stretches in enumerate(stretches)
                for start, end, label in layer_stretches
            ):
                pieces[index].append((start, end, self._placeholder(found[index][0].text[start:end], label)))
            for (layer, _), layer_pieces in zip(found, pieces, strict=True):
                if not layer_pieces:
                    continue
                if layer.number:  # the whole number becomes a string: the masked text between quotes
                    inner = _splice(layer.text, layer_pieces)
                    edits.append(
                        (layer.starts[0], layer.ends[-1], encode(json.dumps(inner, ensure_ascii=False), layer.depth))
                    )
                    continue
                for start, end, placeholder in layer_pieces:
                    where = layer.source(start, end)
                    edits.append((*where, placeholder))
                    if layer.depth:  # how the value was written, so unmasking gives back the text as it was
                        self._written.setdefault((placeholder, layer.depth), text[where[0] : where[1]])
        for kind in masked:
            self.counter.add(kind)
            if self.counter is not PROCESS_PII_COUNTS:
                PROCESS_PII_COUNTS.add(kind)
        return _splice(text, edits)

    def _stretches(self, layer: Layer, spans: list[PiiSpan], masked: list[PiiKind]) -> list[tuple[int, int, str]]:
        """Each stretch of ``layer.text`` to replace, with its placeholder's label; the kinds masked go to ``masked``
        (the caller holds the lock)."""
        if not spans and "[" not in layer.text:  # most layers of a tool result: nothing found, no placeholder
            return []
        # Placeholder-shaped text the caller wrote: one never issued is just never issued; one already issued
        # (the conversation has an [EMAIL_1]) is masked as text of its own, so it cannot unmask to the value.
        written = [m for m in _PLACEHOLDER.finditer(layer.text) if layer.outside_holes(m.start(), m.end())]
        self._literal.update(m.group(0) for m in written if m.group(0) not in self._value_of)
        taken = [(m.start(), m.end(), _LITERAL) for m in written if m.group(0) in self._value_of]
        if taken:
            spans = [s for s in spans if not any(s.start < e and b < s.end for b, e, _ in taken)]
        masked += (s.kind for s in spans)
        return sorted([*((s.start, s.end, s.kind.value) for s in spans), *taken])

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

        A placeholder inside a JSON string gets its value JSON-escaped once per encoding it sits in (a body that
        is a JSON string within JSON: twice), so the JSON stays valid and decodes to the value. With
        ``json_string`` (``text`` is a tool call's arguments) text that is not valid JSON is still read as the
        inside of one JSON string.
        """
        with self._lock:
            values = dict(self._value_of)
            written = dict(self._written)
        if not values or _PLACEHOLDER.search(text) is None:
            return text
        if json_string and not is_json(text):
            return _PLACEHOLDER.sub(lambda m: encode(values.get(m.group(0), m.group(0)), 1), text)
        edits: list[tuple[int, int, str]] = []
        for layer in layers(text):
            for m in _PLACEHOLDER.finditer(layer.text):
                value = values.get(m.group(0))
                if value is None or layer.number or not layer.outside_holes(m.start(), m.end()):
                    continue
                form = written.get((m.group(0), layer.depth))
                edits.append((*layer.source(m.start(), m.end()), form or encode(value, layer.depth)))
        return _splice(text, edits)


def _found_in(layer: Layer) -> list[PiiSpan]:
    """The values in a layer outside its holes, read as ``pii_keys`` says: alone and after its label (as written and
    as words: a key ``date_of_birth`` reads "date of birth: ..."), after the key of the object holding it
    (``{"dob": {"value": ...}}`` reads "dob: ..."), after both ("passport number: ...") and after what a sibling
    naming field says (``{"label": "DOB", "value": ...}``); where readings overlap, the earlier kind wins. A value
    under a version key ("version", "firmware", "build") is read only after its key, as in prose; dotted quads alone
    under a key that names versions are versions, and an SSN- or phone-shaped value under a key that names a
    thing's number (a SKU, a part) is that number."""
    if not layer.has_text():
        return []
    key, parent, siblings = layer.label, layer.parent, layer.siblings
    short = (key is None or len(key) <= CACHED_KEY) and (parent is None or len(parent) <= CACHED_KEY)
    reading = cached_readings(key, parent, siblings) if short else readings_of(key, parent, siblings)
    quads = reading.version and _QUADS.fullmatch(layer.text) is not None
    thing = reading.thing and not layer.text.lstrip().startswith("+")  # a country code: a phone, whatever the key
    spans: list[PiiSpan] = []
    for prefix in reading.prefixes:
        shift = len(prefix)
        spans += (
            PiiSpan(s.start - shift, s.end - shift, s.kind)
            for s in find_pii(prefix + layer.text)
            if s.start >= shift
            and layer.outside_holes(s.start - shift, s.end - shift)
            and not (quads and s.kind is PiiKind.IP)
            and not (thing and s.kind in _THING_SHAPED and not layer.text[: s.start - shift].strip())
        )
    if len(reading.prefixes) == 1:
        return spans
    chosen: list[PiiSpan] = []
    for span in sorted(spans, key=lambda s: (_RANK[s.kind], s.start)):
        if not any(span.start < c.end and c.start < span.end for c in chosen):
            chosen.append(span)
    return sorted(chosen, key=lambda s: s.start)


# What a thing's number may look like with no more than its shape to go by; a card carries its network's prefix
# and a check digit, so under an order's key it is still a card.
_THING_SHAPED = frozenset({PiiKind.SSN, PiiKind.PHONE})
# Dotted quads alone, one or a list ("10.2.3.4, 10.2.3.5"): under a version key, versions.
_QUAD = r"\d{1,3}(?:\.\d{1,3}){3}"
_QUADS = re.compile(rf"\s*{_QUAD}(?:\s*[,;|/]?\s*{_QUAD})*\s*")


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each stretch ``[start, end)`` replaced (stretches that overlap an earlier one are skipped)."""
    out: list[str] = []
    at = 0
    for start, end, replacement in sorted(edits):
        if start < at:
            continue
        out += [text[at:start], replacement]
        at = end
    out.append(text[at:])
    return "".join(out)
