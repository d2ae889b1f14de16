"""(internal) Personal values recognised only after a word that names them: birth dates, passports, tax ids.

A date is not personal until it is someone's birth date, and a passport number is nine characters that could be
anything; so each is masked only right after its label ("DOB:", "born on", "Geburtsdatum", "passport no.",
"PAN", "NHS number"), where python-stdnum checks the identifiers that carry a check digit (a DNI or a CURP, whose
shape says what it is, is masked after its label even with a mistyped check digit).
"""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.de import idnr
from stdnum.es import dni
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.gb import nhs
from stdnum.in_ import aadhaar, pan
from stdnum.mx import curp
from stdnum.nl import bsn
from stdnum.pl import pesel
from stdnum.pt import nif
from stdnum.tr import tckimlik

from tiermem.trust.pii_labels_abroad import (
    BIRTH_ABROAD,
    BIRTH_ABROAD_HINTS,
    PASSPORT_ABROAD,
    PASSPORT_ABROAD_HINTS,
    SEPARATORS,
)
from tiermem.trust.pii_national import label_says

__all__ = ["birth_dates", "labelled_ids", "passports"]

Spans = Iterator[tuple[int, int]]

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|"
    r"mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|"
    r"agosto|septiembre|octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|"
    r"dicembre)\.?"
)
_DATE = (
    r"(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)?\d{2}|(?:19|20)\d{2}[./-]\d{1,2}[./-]\d{1,2}|"
    r"\d{1,2}(?:st|nd|rd|th|er|º)?\s+(?:de\s+)?"
    + _MONTH
    + r"(?:\s+de)?,?\s+(?:19|20)\d{2}|"
    + _MONTH
    + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+(?:19|20)\d{2}|"
    r"(?:19|20)\d{2}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日|(?:19|20)\d{2}\s*년\s*\d{1,2}\s*월\s*\d{1,2}\s*일|"
    # day, month and year with a full stop and a space after each ("17. 4. 2012", Czech, Slovak, German, Danish), or
    # year, month and day so (the Hungarian "1982. 12. 05.")
    r"\d{1,2}\.\s?\d{1,2}\.\s?(?:19|20)\d{2}|(?:19|20)\d{2}\.\s?\d{1,2}\.\s?\d{1,2}\.?)"
)
# A remark in brackets after a label ("Date of birth (patient):", "Passport no. (renewed):") says whose or which
# value it is; it may be as long as a short phrase, or the label's long name ("Steuer-ID (steuerliche ...):").
_REMARK = r"(?:\s*\([^()\n]{1,40}\))?"
# Words naming whose value it is or what it is for may stand between a label and its colon ("BSN van Sanne voor de
# zorgverzekering:", "NIF para a fatura:", "Pasaporte de Andrés:"): up to eight words, as a purpose takes a phrase
# ("CURP para el registro en el club de ajedrez:"), each opening on a letter, then the colon.
_HOLDER = r"(?:\s+[^\W\d_][\w'\u2019-]*){1,8}\s*:"
# The words of a label may be joined as a form or a key joins them ("date-of-birth", "date_of_birth"); "de" and "di"
# may be left out, as a key leaves them out ("fecha_nacimiento", "data_nascita"); initials may carry full stops
# ("d.o.b."), so the label ends where no letter follows, not at a word boundary.
_W = r"[\s_-]+"
# The first letter of every label below: a position that opens on none of them is turned away at once.
_BIRTH = re.compile(
    rf"(?i)(?=[abcdfgnstuvдрнγη生誕出생출जتתว])"
    rf"(?:\b(?:date{_W}of{_W}birth|birth[\s_-]*date|birthday|d\.?o\.?b\.?|born(?:{_W}on)?|geburtsdatum|"
    rf"geboren(?:{_W}am)?|geb\.?[\s_-]*datum|geb\.(?:{_W}am)?|geburtstag|n[ée]e?{_W}le|date{_W}(?:de{_W})?naissance|fecha{_W}(?:de{_W})?nacimiento|nacid[oa]{_W}el|"
    rf"data{_W}(?:di{_W})?nascita|nat[oa]{_W}il|geboortedatum|geboren{_W}op|data{_W}(?:de{_W})?nascimento|"
    rf"nascid[oa]{_W}em|data{_W}urodzenia|urodzon[ya]{_W}dnia|do[gğ]um{_W}tarihi?|f[öø]delsedat(?:um|o)|"
    rf"syntym[äa]aika|datum{_W}narozen[íi]|дата{_W}рождения|"
    # the birth date's label in more languages: Romanian, Czech and Slovak, Hungarian, Greek, Ukrainian, Russian,
    # Indonesian, Vietnamese, Danish and Norwegian
    rf"data{_W}na[șşs]terii|n[ăa]scut[ăa]?{_W}(?:la|pe|[îi]n)|narozen[aáý]?|d[áa]tum{_W}narodenia|"
    rf"narodil[aá]?(?:{_W}sa)?|"
    rf"sz[üu]let[ée]si{_W}(?:d[áa]tum|id[őo])|sz[üu]letett|sz[üu]l\.|ημερομηνία{_W}γέννησης|ημ/νία{_W}γέννησης|"
    rf"ημ\.{_W}γέννησης|γεννήθηκε(?:{_W}στις)?|дата{_W}народження|народил(?:ся|ася)|народи(?:вся|лася)|"
    rf"родил(?:ся|ась)|tanggal{_W}lahir|tgl\.?{_W}lahir|ng[àa]y{_W}sinh|f[øo]dselsdato|f[øo]dt(?:{_W}den)?|"
    # the birth alone, or the birthday, as a form's field names it ("Nascimento:", "Naissance :", "Cumpleaños:")
    rf"nascimento|nacimiento|nascita|naissance|f[öø]dselsdag|compleanno|cumplea[ñn]os|anivers[áa]rio|verjaardag)"
    rf"(?![^\W_])"
    # written without spaces, so no word boundary before them
    r"|生年月日|誕生日|出生日期|出生年月日|생년월일|출생일|जन्म\s*(?:तिथि|दिनांक|तारीख)|تاريخ\s+(?:الميلاد|الولادة)"
    r"|תאריך\s+(?:ה)?לידה|วัน(?:เดือนปี)?เกิด)" + _REMARK + r"\s*(?:is\s*|は\s*)?[:=\-]?\s*(" + _DATE + r")(?!\d)"
)


_BIRTH_HINTS = tuple(
    "birth dob d.o.b born geburt geboren geb. né naissance nacimiento nacid nascita nato nata geboorte nascimento "
    "nascid urodz doğum dogum födelse fødsel syntym narozen рождения 生年月日 誕生日 出生 compleanno cumplea "
    "anivers verjaardag naşterii nașterii nasterii născut nascut narozen narodenia narodil szület szul. γέννησης "
    "γεννήθηκε народження народи родил lahir sinh fødselsdato fodselsdato født fodt 생년월일 출생일 जन्म تاريخ "
    "לידה เกิด".split()
)


# After a birth label in a language whose calendar is another, its year too: the Solar Hijri 13xx and 14xx (the
# Bikram Sambat's 20xx is read as a Gregorian year is).
_BIRTH_ABROAD = re.compile(
    rf"(?i){BIRTH_ABROAD}{_REMARK}\s*{SEPARATORS}?\s*({_DATE}|1[34]\d{{2}}[./-]\d{{1,2}}[./-]\d{{1,2}})(?!\d)"
)


def birth_dates(text: str) -> Spans:
    """A date right after a birth-date label; a bare date, or a year alone ("born in 1985"), stays."""
    lower = text.lower()
    if any(hint in lower for hint in _BIRTH_HINTS):
        for m in _BIRTH.finditer(text):
            yield m.start(1), m.end(1)
    if any(hint in lower for hint in BIRTH_ABROAD_HINTS):
        for m in _BIRTH_ABROAD.finditer(text):
            yield m.start(1), m.end(1)


# The number's word may be joined to the label ("passport#", "Reisepass-Nr.", "passport_no") and a sign or two may
# stand before the value ("passport#:", "passport no.:").
# The number may carry its holder's country code after it, as a travel booking prints it ("123456789GBR").
_PASSPORT_TAIL = (
    rf"(?:{_HOLDER}|{_REMARK}\s*(?:is\s*|は\s*)?[:#.=]{{0,2}})\s*(\d{{9}}[A-Z]{{3}}|[A-Z0-9]{{6,10}})(?![A-Za-z0-9])"
)
_PASSPORT = re.compile(
    r"(?i)(?:\b(?:passport|reisepass|passeport|pasaporte|passaporto|paspoort|passaporte|paszport(?:u|owy)?|pasaport)"
    # the number's word: "no.", "nr", "n.", or any word on "num" ("number", "nummer", "numéro", Turkish "numarasi")
    r"(?:[\s_-]*(?:n(?:[or]|um\w*)?\b\.?|#|n\.?º|n°))?"
    # written without spaces, so no word boundary before them
    r"|(?:旅券|パスポート|护照|護照|여권)(?:番号|号码|號碼|번호)?)" + _PASSPORT_TAIL
)
# The passport's label in more languages, in patterns of a few labels each so each stays small: Greek, Russian and
# Ukrainian with their number's word; Hungarian, Romanian, Indonesian, Vietnamese, Czech, the Nordic "passnummer";
# then Hindi, Arabic, Hebrew and Thai, written with no space before them or with a prefix joined to the word.
_PASSPORT_ABROAD = (
    *(
        re.compile(r"(?i)(?:" + labels + ")" + _PASSPORT_TAIL)
        for labels in (
            r"\b(?:αριθμός\s+)?(?:διαβατηρίου|διαβατήριο)(?![^\W_])",
            r"\b(?:номер\s+)?(?:загран)?паспорт[аеу]?(?:\s+номер)?(?![^\W_])",
            r"\b(?:útlevél(?:szám)?|utlevel(?:szam)?|pa[șş]aport(?:ul(?:ui)?)?|paspor|h[ộo]\s+chi[ếe]u)(?![^\W_])",
            r"\b(?:cestovn[íi](?:ho)?\s+pasu?(?:\s+č\.)?|pas(?:se|s)?nummer(?:et)?)(?![^\W_])",
            r"पासपोर्ट(?:\s+(?:नंबर|नम्बर|संख्या|क्रमांक))?|جواز\s+(?:ال)?سفر|דרכון|(?:หมายเลข)?หนังสือเดินทาง(?:เลขที่)?",
        )
    ),
    # the labels of thirty more languages (``pii_labels_abroad``), some ending on an Armenian comma
    *(
        re.compile(
            rf"(?i){labels}(?:{_HOLDER}|{_REMARK}\s*(?:{SEPARATORS}|[#.]){{0,2}})\s*([A-Z0-9]{{6,10}})(?![A-Za-z0-9])"
        )
        for labels in PASSPORT_ABROAD
    ),
)


_PASSPORT_HINTS = (
    *("pass", "pasap", "paspoort", "paszport", "paspor", "pasaport", "pașaport", "paşaport", "pasnummer"),
    *("旅券", "パスポート", "护照", "護照", "여권", "διαβατ", "паспорт", "útlevél", "utlevel", "chiếu", "chieu"),
    *("cestovn", "पासपोर्ट", "جواز", "דרכון", "หนังสือเดินทาง"),
    *PASSPORT_ABROAD_HINTS,
)


def passports(text: str) -> Spans:
    """A passport number right after its label: 6 to 10 capitals and digits, at least two digits."""
    lower = text.lower()
    if not any(hint in lower for hint in _PASSPORT_HINTS):
        return
    for pattern in (_PASSPORT, *_PASSPORT_ABROAD):
        for m in pattern.finditer(text):
            value = m.group(1)
            if value.upper() == value and sum(c.isdigit() for c in value) >= 2:
                yield m.start(1), m.end(1)


_SEP = _REMARK + r"\s*(?:is\s*)?(?:no\.?|number|nr\.?|#)?\s*[:#]?\s*"


def _after(label: str, value: str, holder: bool = True) -> re.Pattern[str]:
    """``value`` (group 1) right after ``label``, or after words naming its holder and a colon (``holder``: a label
    that is also a common word, "sin" or "pan", is read only right before its value)."""
    between = r"(?:(?:\s\([^()\n]{1,40}\))?" + _HOLDER + r"\s*|" + _SEP + r")" if holder else _SEP
    return re.compile(r"(?i)\b(?:" + label + r")" + between + r"(" + value + r")\b")


# (words one of which the text must hold, lower case, or none; the pattern; the check): the words keep a prompt
# without them cheap.
_LABELLED: tuple[tuple[tuple[str, ...], re.Pattern[str], Callable[[str], bool]], ...] = (
    (
        ("pan", "permanent account", "पॅन", "पैन"),
        _after(
            r"pan|permanent\s+account\s+number|pan\s+card|(?:पॅन|पैन)(?:\s+(?:कार्ड|नंबर|नम्बर|संख्या|क्रमांक))?",
            r"[A-Z]{5}\d{4}[A-Z]",
            holder=False,
        ),
        pan.is_valid,
    ),
    (("aadha",), _after(r"aadhaar|aadhar", r"\d{4}\s?\d{4}\s?\d{4}"), aadhaar.is_valid),
    ((), re.compile(r"(?<!\d)([2-9]\d{3} \d{4} \d{4})(?![\d ]\d)"), aadhaar.is_valid),
    (("nhs",), _after(r"nhs", r"\d{3}[ -]?\d{3}[ -]?\d{4}"), nhs.is_valid),
    (
        ("sin", "social insurance"),
        _after(r"sin|social\s+insurance", r"\d{3}[ -]?\d{3}[ -]?\d{3}", holder=False),
        sin.is_valid,
    ),
    (
        ("nir", "curit", "secu"),
        _after(r"nir|(?:num[ée]ro\s+de\s+)?s[ée]curit[ée]\s+sociale|s[ée]cu", r"[12][\d ]{14,20}\d"),
        nir.is_valid,
    ),
    (("bsn", "burgerservice"), _after(r"bsn|burgerservicenummer", r"\d{9}"), bsn.is_valid),
    (  # "ist": German "is" ("meine Steuer-ID ist ...")
        ("steuer", "idnr"),
        _after(r"(?:steuer-?id|steueridentifikationsnummer|idnr)(?:\s+ist)?", r"\d{2} ?\d{3} ?\d{3} ?\d{3}"),
        idnr.is_valid,
    ),
    (("cpf",), _after(r"cpf", r"\d{11}"), cpf.is_valid),
    (
        ("pesel",),
        _after(r"pesel(?:\s+to)?", r"\d{11}"),
        label_says(pesel.validate, pesel.get_birth_date),
    ),  # "to": Polish "is"
    (
        ("kimlik", "tckn", "tc no"),
        _after(r"kimlik(?:\s+numaras[\u0131i]|\s+numaram)?|tckn|tc\s+no", r"[1-9]\d{10}"),
        tckimlik.is_valid,
    ),
    (("henkilö", "henkilo", "hetu"), _after(r"henkil[öo]tunnus|hetu", r"\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]"), hetu.is_valid),
    (("nif", "contribuinte"), _after(r"nif|contribuinte", r"\d{3} ?\d{3} ?\d{3}"), nif.is_valid),
    (("dni", "nif"), _after(r"dni|nif", r"\d{8}-?[A-Z]"), label_says(dni.validate)),
    (("curp",), _after(r"curp", r"[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z0-9]\d"), label_says(curp.validate)),
)


def labelled_ids(text: str) -> Spans:
    """National identifiers after their label, checked by their check digit (Aadhaar also as 4-4-4)."""
    lower = text.lower()
    for hints, pattern, valid in _LABELLED:
        if hints and not any(hint in lower for hint in hints):
            continue
        for m in pattern.finditer(text):
            if valid(m.group(1)):
                yield m.start(1), m.end(1)
