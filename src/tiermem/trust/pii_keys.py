"""(internal) How a JSON key is read as the label of the value stored under it.

A value is read alone and after each form of its key that may name it (``date_of_birth`` as written and as the
words "date of birth"), of the key of the object holding it, and of the two joined ("passport number"); a key that
holds no word any detector reads before a value (``LABEL_HINTS``) adds no reading, so most keys cost none.
"""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum

from tiermem.trust.pii_accounts import ACCOUNT_HINTS
from tiermem.trust.pii_labels_abroad import BIRTH_ABROAD_HINTS, PASSPORT_ABROAD_HINTS
from tiermem.trust.pii_numbers import names_a_thing, names_a_version

__all__ = [
    "CACHED_KEY",
    "FIELD",
    "LABEL_HINTS",
    "NEITHER",
    "VALUE",
    "FieldRole",
    "KeyReading",
    "cached_readings",
    "field_role",
    "may_label",
    "readings_of",
]

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
    r"celular|ll[áa]m|cellulare|chiam|telefo|mobiel|bel|nummer|fone|zap|kom|tlf|puhelin|[電話携帯手机电话]|"
    r"paszp|urodz|pesel|kimlik|tckn|tc\s*no|henkil|hetu|contribu|curp|do[gğ]um|f[öø]dsel|f[öø]delse|syntym|narozen|рождения|"
    r"旅券|パスポート|护照|護照|여권|生年月日|誕生日|出生|compleanno|cumplea|anivers|verjaardag|連絡先|联系|联络|연락처|전화|휴대폰|핸드폰"
    r"|カード|クレジット|信用卡|银行卡|銀行卡|카드"
    # birth, passport, national id and phone labels in more languages (pii_labelled, pii_national, pii_phones)
    r"|na[șşs]ter|n[ăa]scut|narod|sz[üu]l|γέννησ|γεννήθ|народ|родил|lahir|sinh|f[oöø]dsel|f[øo]dt|생년월일|출생|जन्म"
    r"|تاريخ|לידה|เกิด|паспорт|διαβατ|[úu]tlev[ée]l|pa[sșş]aport|chi[ếe]u|cestovn|pas+e?nummer|पासपोर्ट|جواز|דרכון"
    r"|หนังสือเดินทาง|身份|マイナンバー|個人番号|주민|ประชาชน|आधार|זהות|ת[״\"]ז|cpr|cnp|numeric\s+personal|αμκα|α\.μ\.κ\.α"
    r"|αφμ|α\.φ\.μ|induk|rodn|r\.\s?č|инн|рнокпп|іпн|егн|oib|isikukood|asmens|kennitala|rijksregister|ahv|avs"
    r"|会社|自宅|勤務先|職場|事務所|実家|公司|办公室|住宅|家里|회사|자택|사무실|직장"
    # birth, passport and national id labels of thirty more languages (pii_labels_abroad, pii_national)
    r"|bvn|mazisi|sazisi|nommer"  # a Nigerian BVN's and a South African ID's labels (``pii_national``)
    r"|emšo|emso|personas|mykad|nric|k/p|cnic|पॅन|पैन|davčn|јмбг|jmbg|матични|matični|жсн|иин|iin|এনআইডি|পরিচয়"
    r"|kitambulisho|नागरिकता|မှတ်ပုံတင်|nrc|регистр|nic|හැඳුනුම්|"
    # ids by their label and shape, an account's label, a phone's word in a script one country writes
    r"snils|снилс|cccd|căn\s+cước|f[iİ]n\s+kod|FİN|codice\s+fiscale|cod\.\s*fisc|c\.\s?f\.|ת\.ז|அடையாள|"
    r"iban|trr|arveldus|hesab|شبا|फोन|फ़ोन|मोबाइल|ဖုန်း|දුරකථන|ජංගම|"
    # a card's label in more languages, an Iranian national code's label; a bank account's labels (``pii_accounts``)
    + "kart|kaart|kort|карт|κάρτα|thẻ|بطاقة|کارت|कार्ड|ملی|ملّی|"
    + "|".join(re.escape(hint) for hint in (*BIRTH_ABROAD_HINTS, *PASSPORT_ABROAD_HINTS, *ACCOUNT_HINTS))
)


@dataclass(frozen=True, slots=True)
class KeyReading:
    """How a value is read by its key, the key of the object holding it and the names of its sibling fields."""

    prefixes: tuple[str, ...]  # each reading's prefix; "" reads the value alone
    version: bool = False  # a value of dotted quads alone is versions, not addresses
    thing: bool = False  # an SSN- or phone-shaped value at the start is a thing's number (a SKU, a part number)


def readings_of(key: str | None, parent: str | None = None, siblings: tuple[str, ...] = ()) -> KeyReading:
    """How a value stored under ``key`` (in an object stored under ``parent``, beside naming fields that say
    ``siblings``) is read: alone, and after each form of the key, of the parent, of the two together and of each
    sibling's name that may name it. A value under a version key is read only after the forms of it that name a
    version ("build number", not "build_number"), as in prose."""
    keys = _labels(key)
    names = [label for sibling in siblings for label in _labels(sibling)]
    thing = any(names_a_thing(f"{label}: ") for label in [*keys, *names]) and not any(
        _SSN_WORD.search(label) for label in [*keys, *names]
    )
    version = _names_versions(key, parent, siblings)
    # beside naming fields the key only says "value" ("v" is no version there): the siblings name the value
    versions = () if siblings else tuple(f"{label}: " for label in keys if names_a_version(label))
    if versions:
        return KeyReading(versions, version, thing)
    outers = _labels(parent)
    labels = [*keys, *outers, *names]
    if keys and outers:  # as words: "passport number"
        labels.append(f"{outers[-1]} {keys[-1]}")
    prefixes = ("", *(f"{label}: " for label in dict.fromkeys(labels) if _may_name_a_value(label)))
    return KeyReading(prefixes, version, thing)


# A tool result repeats its keys in every record, so their readings are kept; a key longer than this is read afresh.
CACHED_KEY = 200
cached_readings = functools.lru_cache(maxsize=1024)(readings_of)

# -- which keys name versions, addresses, fields and values ------------------------------------------------------

_SSN_WORD = re.compile(r"(?i)ssn|social")
# The words of a key that say its dotted quad is a version, and those that say it is an address.
_VERSION_WORDS = frozenset(
    "ver version versions firmware fw build builds release releases rev revision revisions patch hotfix kernel "
    "bios driver sdk os".split()
)
_ADDRESS_WORDS = frozenset(
    "ip ips ipv4 ipaddr ipaddress addr address addresses host hosts hostname client clients server servers peer "
    "peers remote gateway gw dns nameserver proxy endpoint src source dst dest destination origin router nat vip "
    "listen bind upstream node nodes target subnet cidr netmask mirror from to".split()
)


def _quad_kind(key: str | None) -> bool | None:
    """Whether a dotted quad under ``key`` is a version (True) or an address (False), or the key says neither.

    The last word of a compound key names what it holds ("server_version" a version, "build_host" a host); failing
    that, any word does, an address word first."""
    if not key:
        return None
    words = _SPLIT_KEY.sub(" ", _CAMEL.sub(" ", key)).lower().split()
    if not words:
        return None
    if words[-1] in _ADDRESS_WORDS:
        return False
    if words[-1] in _VERSION_WORDS:
        return True
    if _ADDRESS_WORDS.intersection(words):
        return False
    return True if _VERSION_WORDS.intersection(words) else None


def _names_versions(key: str | None, parent: str | None, siblings: tuple[str, ...]) -> bool:
    """A dotted quad under ``key`` is a version: by the key, else by a sibling's name, else by the key of the
    object holding it (``{"versions": {"stable": ...}}``)."""
    for name in (key, *siblings, parent):
        kind = _quad_kind(name)
        if kind is not None:
            return kind
    return False


# The keys of a field that says what the field beside it holds, and of the field that holds it, as words run
# together in lower case: {"label": "Date of birth", "value": ...}, {"fieldName": "SSN", "fieldValue": ...}.
_FIELD_KEYS = frozenset(
    "label field fieldname fieldlabel name displayname key k title type kind idtype doctype documenttype attribute "
    "attr property prop column header caption question".split()
)
_VALUE_KEYS = frozenset(
    "value val v values data text content answer input entry response string str raw number no nr num".split()
)


class FieldRole(Enum):
    """What a key's value is to the other fields of its object."""

    NEITHER = "neither"
    FIELD = "field"  # says what a sibling value is ("label", "field", "name", "type"...)
    VALUE = "value"  # is named by a sibling field ("value", "val", "data", "fieldValue"...)


NEITHER, FIELD, VALUE = FieldRole.NEITHER, FieldRole.FIELD, FieldRole.VALUE


@functools.lru_cache(maxsize=1024)
def field_role(key: str | None) -> FieldRole:
    """What the value under ``key`` is to its siblings."""
    if key is None:
        return NEITHER
    words = _SPLIT_KEY.sub("", key).lower()
    if words in _FIELD_KEYS:
        return FIELD
    return VALUE if words in _VALUE_KEYS or words.endswith("value") else NEITHER


def may_label(name: str) -> bool:
    """A naming field's ``name`` may say what its sibling value is: it holds a label's hint, or a word naming
    versions, an address or a thing's number (a person's name in a record, "Ann", mostly does not)."""
    return _may_name_a_value(name) or _quad_kind(name) is not None or names_a_thing(f"{name}: ")


def _may_name_a_value(label: str) -> bool:
    """Reading a value after ``label`` may find what the value alone does not show (see ``LABEL_HINTS``)."""
    return LABEL_HINTS.search(label) is not None


def _labels(key: str | None) -> list[str]:
    """A key as written and as words (``date_of_birth``, ``dateOfBirth``: "date of birth"); none for no key."""
    if not key or not key.strip():
        return []
    words = _SPLIT_KEY.sub(" ", _CAMEL.sub(" ", key)).strip()
    return list(dict.fromkeys([key, words] if words else [key]))
