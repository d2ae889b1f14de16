"""(internal) Phone numbers of any region, national or international, as libphonenumber's metadata knows them.

A regular expression finds digit groups written the way numbers are written (7 to 15 digits, single spaces,
dashes, dots, slashes or brackets between groups); ``phonenumbers`` (Google's libphonenumber) decides:

- ``+44 20 ...``, ``0049 89 ...``, ``011 44 ...``: an international number is masked when its length is
  possible for its country code (a fictional 07700 900xxx UK number is still someone's number to a reader);
- a national form (``020 7946 0958``, ``06 12 34 56 78``, ``(11) 98765-4321``) is masked when it is a valid
  number of one of the default regions, and it is written like a phone number: digit groups, brackets, a
  trunk ``0``, or a word such as "phone", "Handy", "móvil", "電話" just before it.

What the regions' metadata accepts is wide (a German number can have almost any length), so a run of digits
alone is not enough: a date, a time, a price, a count in thousands, a version, a decimal number, a dotted quad, six
or more numbers of two digits, a document's number within its year, a grid reference, and anything after "order",
"invoice", "ticket", "ref" and similar words (in several languages) is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import phonenumbers
from stdnum import ean

from tiermem.trust.pii_numbers import NOT_PERSONAL, names_a_thing

__all__ = ["DEFAULT_REGIONS", "phones"]

# Regions whose national forms are tried, in order: the most populous markets and the European ones most written
# about in English text. International forms (+, 00, 011) are read for every country whatever this holds.
DEFAULT_REGIONS: tuple[str, ...] = (
    "US", "GB", "IN", "DE", "FR", "ES", "IT", "NL", "BR", "MX", "JP", "AU", "CA", "IE", "CH", "AT", "BE", "SE",
    "PL", "PT", "ZA", "NZ", "SG",
)  # fmt: skip

# A comma or a colon may stand right before a number where a letter or a quote stands before it: a CSV cell
# ("Sato,080-..."), a label with no space ("Tel:+44...", "携帯" and a full-width colon); after a digit it is a list
# or a time.
# Scripts written without spaces (Japanese, Chinese, Korean) run straight into a number ("番号は03-...です"): their
# letters do not join it to a word as a Latin letter does. A number opens on a digit, "+" or "(": the lookahead
# turns every other position away before the lookbehinds are tried.
_WORD = r"[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f]"
_CANDIDATE = re.compile(
    rf"(?=[\d+(])(?<![+@/.-])(?<!{_WORD})(?<![\d,.:;+/@-][,:])"
    rf"(?:\+\s?|(?<!\d)00\s?|(?<!\d)011\s?)?(?:\(\+?\d{{1,4}}\)\s?|\d)"
    rf"(?:[ .\-/]?(?:\(\d{{1,5}}\)\s?|\d)){{5,22}}(?!{_WORD}|@|[.,\-/:]\d)"
)
_PHONE_WORD = re.compile(
    r"(?i)(?:\b(?:phone|tel|telephone|mobile|mob|cell|cellphone|call|ring|text|sms|whatsapp|signal|fax|"
    r"(?:my|your|his|her|our|their)\s+number|"
    r"contact|reach|dial|hotline|landline|office|zentrale|handy|handynummer|telefon|telefonnummer|rufnummer|ruf|"
    r"anrufen|mobil|téléphone|tél|portable|numéro|appelez|appeler|teléfono|telefono|móvil|movil|celular|llámame|"
    r"llamar|número|numero|cellulare|cell\.|chiamami|chiamare|telefoon|mobiel|bel|bellen|nummer|fone|zap|kom|"
    r"tlf|puhelin)\b[^\n]{0,25}|(?:[電話携帯手机电话]{2}|連絡先|联系方式|联络|연락처|전화|휴대폰|핸드폰)[^\n]{0,12}"
    # where a phone is, as a list of numbers labels each ("携帯: ..., 会社: ...", "자택: ..."): right before its colon
    r"|(?:会社|自宅|勤務先|職場|事務所|実家|公司|办公室|住宅|家里|회사|자택|사무실|직장)\s*:\s*)$"
)
# The plain words for a number, which name a phone's only where no thing's word follows them.
_NUMBER_WORD = re.compile(r"(?i)(?:n[uú]mero|num[ée]ro|nummer)\b")
_DATE = re.compile(
    r"^(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})|\d{4}[./-]\d{1,2}[./-]\d{1,2}|(?:19|20)\d{2}(?:0[1-9]|1[0-2])"
    r"(?:0[1-9]|[12]\d|3[01])|(?:19|20)\d{2}\s?[-/]\s?(?:19|20)\d{2})$"
)
# A US ZIP+4 code or a Brazilian CEP: no phone number is grouped 5-4 or 5-3.
_ZIP4 = re.compile(r"^\d{5}-\d{3,4}$")
# A span of times of day ("08.00-17.30", "9:00 - 12:15"), as opening hours are written: hours, then minutes.
_TIME = r"(?:[01]?\d|2[0-4])[.:][0-5]\d"
_TIME_SPAN = re.compile(rf"^{_TIME}(?:\s?[-\u2013\u2014/]\s?{_TIME})+$")
_THOUSANDS = re.compile(r"^\d{1,2}(?:[ ,.]\d{3})+$")
_MONEY_BEFORE = re.compile(r"[$€£¥₹]\s?$|\b(?:USD|EUR|GBP|SEK|NOK|DKK|CHF|JPY|INR|BRL|MXN|AUD|CAD)\s?$")
_MONEY_AFTER = re.compile(r"^\s?(?:[$€£¥₹%]|(?:USD|EUR|GBP|SEK|NOK|DKK|CHF|kr|ms|km|kg|rows|items)\b)")
# The form registries and the EPP protocol give a number in: "+1.6174928830", the country code and a dot.
_EPP = re.compile(r"^\+\d{1,3}\.\d{6,14}$")
# An international prefix: "+", "011", or "00" before a country code, which never starts with 0 ("000.184.772")
_INTERNATIONAL = re.compile(r"\+|011|00\s?[1-9]")
# A document numbered within its year ("482/2025", "2025/0412") or a case number after its year ("2025-000871") or
# its day ("20250314-77"): no phone number is grouped so (an area code before a slash starts with its trunk 0, a
# subscriber's number is not written after a year).
_FILED = re.compile(
    r"^(?:[1-9]\d{0,5}/(?:19|20)\d{2}|(?:19|20)\d{2}/\d{1,6}|(?:19|20)\d{2}-0\d{3,7}"
    r"|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-\d{1,6})$"
)
# A British grid reference: the 100 km square's two letters, then easting and northing of equal length
# ("NY 21544 07222"), two groups where a phone number has its own.
_GRID_SQUARE = re.compile(r"(?<![A-Za-z])[HJNOST][A-HJ-Z] ?$")
_GRID_DIGITS = re.compile(r"^(?:\d{3} \d{3}|\d{4} \d{4}|\d{5} \d{5})$")
# A postal item's number (UPU S10): two capitals, eight digits and a check digit, the country's two capitals after
# ("RR 123 456 785 SE"); a phone number is not written between two such pairs.
_ITEM_BEFORE = re.compile(r"(?<![A-Za-z])[A-Z]{2} ?$")
_ITEM_AFTER = re.compile(r"^ ?[A-Z]{2}(?![A-Za-z])")


# A phone's word in a script one country writes names that country's numbers after it: a national form is read
# there as that region's (a Nepali mobile after "फोन", a Burmese one after "ဖုန်း"), when its length is possible.
_LOCAL_PHONE_WORDS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"(?:फोन|फ़ोन|मोबाइल)[^\n]{0,25}$"), ("NP", "IN")),
    (re.compile(r"ဖုန်း[^\n]{0,25}$"), ("MM",)),
    (re.compile(r"(?:දුරකථන|ජංගම)[^\n]{0,25}$"), ("LK",)),
)
# A UPS tracking number: "1Z" and sixteen letters and digits, spaces allowed, one token whose digit groups are no
# phone.
_UPS = re.compile(r"(?<![A-Za-z0-9])1Z(?: ?[A-Z0-9]){16}(?![A-Za-z0-9])")


# How far back the words before a number are read: a business's label, the words naming whose it is and a colon
# ("Organisationsnummer för Bageriet Kanel AB:"), which are read only where the colon is there.
_BEFORE = 60


def _names_a_thing(before: str) -> bool:
    """The words before a number name a thing's; read further back only where a colon ends them."""
    return NOT_PERSONAL.search(before[-30:]) is not None or (
        before.rstrip().endswith(":") and NOT_PERSONAL.search(before) is not None
    )


def _local_regions(before: str) -> tuple[str, ...]:
    for pattern, regions in _LOCAL_PHONE_WORDS:
        if pattern.search(before):
            return regions
    return ()


def _possible(value: str, regions: tuple[str, ...]) -> bool:
    """Whether ``value`` has a possible length for a number of one of ``regions``."""
    for region in regions:
        try:
            if phonenumbers.is_possible_number(phonenumbers.parse(value, region)):
                return True
        except phonenumbers.NumberParseException:
            continue
    return False


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def _international(value: str) -> bool:
    """Whether a number written with its country code has a possible length for that country."""
    compact = value.lstrip()
    region = None if compact.startswith("+") else "DE" if compact.startswith("00") else "US"
    try:
        number = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        return False
    return bool(phonenumbers.is_possible_number(number))


def _national(value: str, regions: tuple[str, ...]) -> bool:
    """Whether ``value`` is a valid number of one of ``regions``."""
    for region in regions:
        try:
            number = phonenumbers.parse(value, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return True
    return False


def _written_like_a_phone(value: str) -> bool:
    """Digit groups or brackets, or one run that starts with a trunk 0 ("07911123456")."""
    if re.search(r"[ ()\-/]", value):
        return True
    if "." in value:
        return all(len(group) >= 2 for group in value.split("."))  # 650.555.0110, not 4.18.0.22
    return value.startswith("0") and not value.startswith("00") and len(value) >= 10


def _shape(value: str) -> str:
    """How a number is grouped, its digits left out ("0151 2345 6789" -> "9999 9999 9999")."""
    return re.sub(r"\d", "9", value)


def _sibling(value: str, things: list[str]) -> bool:
    """Whether ``value`` is grouped as a thing's number of the same text and differs from it only in its last group
    ("Artikelnummer 0151 2345 6789 ..., Alternative: 0151 2345 6790"): the next article, not a person's phone."""
    cut = max(value.rfind(" "), value.rfind("-"), value.rfind("/"), value.rfind("."))
    return cut > 0 and any(_shape(t) == _shape(value) and t[:cut] == value[:cut] for t in things)


def _context(before: str) -> bool:
    """Whether a word before a number says phone: a plain number word ("número", "Nummer") does not where a thing's
    word stands after it, nearer the number ("Número do pedido: ...")."""
    m = _PHONE_WORD.search(before)
    if m is None:
        return False
    return not (_NUMBER_WORD.match(m.group(0)) and names_a_thing(before))


def phones(text: str, regions: tuple[str, ...] = DEFAULT_REGIONS) -> Iterator[tuple[int, int]]:
    """Phone numbers in ``text``: international forms of any country, national forms of ``regions``."""
    things: list[str] = []  # the numbers of things read so far, whose siblings are things' numbers too
    parcels = [(p.start(), p.end()) for p in _UPS.finditer(text)] if "1Z" in text else []
    for m in _CANDIDATE.finditer(text):
        value = m.group(0).rstrip()
        if any(a <= m.start() < b for a, b in parcels):
            continue
        digits = _digits(value)
        if not 7 <= len(digits) <= 15:
            continue
        before, after = text[max(0, m.start() - _BEFORE) : m.start()], text[m.start() + len(value) :]
        local = _local_regions(before)
        context = bool(local) or _context(before)
        if before.endswith(":") and not context:
            continue  # "id:0612...", "ts:0612...": after a colon with no space only a phone's label says phone
        if (
            _DATE.match(value)
            or _ZIP4.match(value)
            or _TIME_SPAN.match(value)
            or _MONEY_BEFORE.search(before)
            or _MONEY_AFTER.match(after)
        ):
            continue
        if digits == value and len(digits) in (8, 12, 13) and ean.is_valid(digits):
            continue  # a product barcode (EAN-8, UPC-A, EAN-13)
        groups = re.findall(r"\d+", value)
        if sum(len(g) == 1 for g in groups) >= 3 or ("." in value and min(map(len, value.split("."))) == 1):
            continue  # scores ("6-4 3-6 6-2") and versions ("16.0.18129.20116"): no number is grouped so
        dotted = value.count(".") == len(groups) - 1
        if dotted and not _EPP.match(value) and (len(groups) == 2 or (len(groups) == 4 and max(map(len, groups)) <= 3)):
            continue  # a decimal number ("52.370216"), a dotted quad (a netmask, an address, a version)
        if _FILED.match(value) or (_GRID_SQUARE.search(before) and _GRID_DIGITS.match(value) and not context):
            continue  # a document's number and year, a case number, a map grid reference
        if len(digits) in (8, 9) and _ITEM_BEFORE.search(before) and _ITEM_AFTER.match(after) and not context:
            continue  # a postal item's number between its service's and its country's letters
        if len(groups) >= 6 and max(map(len, groups)) <= 2 and not value.startswith("+"):
            continue  # six small numbers or more ("07 12 23 34 41 45"): drawn numbers, no national form
        if _THOUSANDS.match(value) and not context:
            continue
        if not context and _names_a_thing(before):
            things.append(value)
            continue
        if things and not context and _sibling(value, things):
            continue
        international = _INTERNATIONAL.match(value) is not None and _international(value)
        after_local_label = bool(local) and _possible(value, local)
        if (
            international
            or after_local_label
            or ((context or _written_like_a_phone(value)) and _national(value, regions))
        ):
            yield m.start(), m.start() + len(value)
