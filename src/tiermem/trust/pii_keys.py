"""(internal) How a JSON key is read as the label of the value stored under it.

A value is read alone and after each form of its key that may name it (``date_of_birth`` as written and as the
words "date of birth"), of the key of the object holding it, and of the two joined ("passport number"); a key that
holds no word any detector reads before a value (``LABEL_HINTS``) adds no reading, so most keys cost none.
"""

from __future__ import annotations

import functools
import re

from tiermem.trust.pii_numbers import names_a_version

__all__ = ["CACHED_KEY", "LABEL_HINTS", "cached_readings", "readings_of"]

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SPLIT_KEY = re.compile(r"[\s_.\-]+")

# Every detector that reads the words before a value (a secret's, a birth date's, a passport's or an identifier's
# label, a phone, card, SSN or NI word) looks for a word holding one of these. A label that holds none adds nothing
# to what its value read alone shows, so most keys ("id", "city", "note") cost one reading, not three.
# tests/test_pii_detector_gates.py expands each detector's label patterns and checks every word holds a hint.
LABEL_HINTS = re.compile(
    r"(?i)bearer|key|token|secret|passw|pwd|auth|birth|d\.?o\.?b|born|geb|né|nee|ne\s+le|naiss|nac|nasc|nat[oa]|pass|"
    r"pasap|paspo|pan|permanent|aadha|nhs|sin|social|insurance|nir|s[ée]cu|curit|bsn|burger|steuer|idnr|cpf|ssn|ss#|ni|"
    r"card|cred|debit|visa|master|amex|express|maestro|cvv|cvc|exp|pay|paid|charg|bill|checkout|karte|zahlung|carte|"
    r"paie|tarjeta|carta|cart[ãa]o|pago|pagamento|phone|tel|mob|cell|call|ring|text|sms|whatsapp|signal|fax|number|"
    r"contact|reach|dial|hotline|line|office|zentrale|handy|ruf|anruf|tél|portable|num[ée]ro|n[úu]mero|appel|m[óo]vil|"
    r"celular|ll[áa]m|cellulare|chiam|telefo|mobiel|bel|nummer|fone|zap|kom|tlf|puhelin|[電話携帯手机电话]"
)


def readings_of(key: str | None, parent: str | None = None) -> tuple[str, ...]:
    """The prefixes a value stored under ``key`` (in an object stored under ``parent``) is read after: none, and
    each form of the key, of the parent and of the two together that may name it. A value under a version key
    is read only after the forms of it that name a version ("build number", not "build_number"), as in prose."""
    keys = _labels(key)
    versions = tuple(f"{label}: " for label in keys if names_a_version(label))
    if versions:
        return versions
    outers = _labels(parent)
    labels = [*keys, *outers]
    if keys and outers:  # as words: "passport number"
        labels.append(f"{outers[-1]} {keys[-1]}")
    return ("", *(f"{label}: " for label in dict.fromkeys(labels) if _may_name_a_value(label)))


# A tool result repeats its keys in every record, so their readings are kept; a key longer than this is read afresh.
CACHED_KEY = 200
cached_readings = functools.lru_cache(maxsize=1024)(readings_of)


def _may_name_a_value(label: str) -> bool:
    """Reading a value after ``label`` may find what the value alone does not show (see ``LABEL_HINTS``)."""
    return LABEL_HINTS.search(label) is not None


def _labels(key: str | None) -> list[str]:
    """A key as written and as words (``date_of_birth``, ``dateOfBirth``: "date of birth"); none for no key."""
    if not key or not key.strip():
        return []
    words = _SPLIT_KEY.sub(" ", _CAMEL.sub(" ", key)).strip()
    return list(dict.fromkeys([key, words] if words else [key]))
