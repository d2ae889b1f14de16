"""(internal) National identifiers of more countries, each after its label in its own language and script.

A personal code, a civil registry number or a social-security number is a run of digits that could be anything
until its label names it ("身份证号", "Fødselsnummer", "CNP", "תעודת זהות", "マイナンバー", "ΑΜΚΑ", "NIK",
"rodné číslo", "CPR", "EMŠO", "کد ملی", "personas kods", "MyKad", "CNIC", "주민등록번호", "เลขประจำตัวประชาชน", "आधार");
after the label python-stdnum checks its check digit, or its date and region, so a reference number that follows
the same word by chance stays as written. A personal code that carries its holder's date of birth ("身份证", "ЕГН",
"PESEL", "CNP", "ΑΜΚΑ", "ЈМБГ", "EMŠO", "asmens kodas", "ЖСН", "codice fiscale", "РНОКПП") is masked after its
own label with a mistyped check digit too, its date right: a label that names a person's code has a person's code
after it, typed wrong or not.
One with no check digit at all (Bangladeshi NID, Kenyan id, Nepali citizenship, Myanmar NRC, Mongolian register,
Sri Lankan NIC, Vietnamese CCCD, Azerbaijani FIN, Nigerian NIN and BVN) is masked by its label and its own shape,
and so is one whose label names nothing else and whose shape is its own (a Turkish id after "T.C. kimlik", a Thai id
in its printed groups). A South African ID carries its date of birth and a Luhn digit, checked after any of its
labels.
"""

# ruff: noqa: RUF001, RUF002, RUF003  (the labels are written in the scripts they match)

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator

from stdnum.be import nn
from stdnum.bg import egn
from stdnum.ch import ssn as ahv
from stdnum.cn import ric
from stdnum.cz import rc
from stdnum.dk import cpr
from stdnum.ee import ik
from stdnum.exceptions import InvalidChecksum, ValidationError
from stdnum.gr import amka
from stdnum.gr import vat as afm
from stdnum.hr import oib
from stdnum.id import nik
from stdnum.il import idnr
from stdnum.in_ import aadhaar
from stdnum.is_ import kennitala
from stdnum.it import codicefiscale
from stdnum.jp import in_ as my_number
from stdnum.kr import rrn
from stdnum.lt import asmens
from stdnum.lv import pvn
from stdnum.my import nric
from stdnum.no import fodselsnummer
from stdnum.pk import cnic
from stdnum.ro import cnp
from stdnum.ru import inn
from stdnum.se import personnummer
from stdnum.si import ddv, emso
from stdnum.th import pin
from stdnum.ua import rntrc
from stdnum.za import idnr as za_idnr

__all__ = ["few_digit_ids", "label_says", "national_labelled_ids"]

Spans = Iterator[tuple[int, int]]

# Between a label and its value: a remark in brackets ("РНОКПП (ІПН)"), then words naming the holder and a colon
# ("CNP angajat:", "ΑΜΚΑ ασθενούς:"), or the number's word and a sign ("nr.", "#", ":").
_REMARK = r"(?:\s*\([^()\n]{1,40}\))?"
_HOLDER = r"(?:\s+[^\W\d_][\w'\u2019-]*){1,4}\s*:"
_SEP = rf"(?:(?:\s\([^()\n]{{1,40}}\))?{_HOLDER}|{_REMARK}\s*(?:no\.?|nr\.?|č\.|#)?\s*[:#=]?)\s*"


def _label(words: str, spaced: bool = True) -> str:
    """A label that opens on a word boundary (``spaced``), or anywhere, as scripts written without spaces, or with
    joined prefixes (Hebrew), put it."""
    return (r"\b(?:" if spaced else "(?:") + words + ")"


def _after(label: str, value: str) -> re.Pattern[str]:
    return re.compile(r"(?i)" + label + _SEP + r"(" + value + r")(?![\dA-Za-z])")


# Words naming the holder with no colon after them ("ЕГН на детето 1548123456"): read only before an identifier
# whose shape is its own, so a plain word or two cannot join a label to some other number.
_LOOSE = r"(?:\s+[^\W\d_][\w'\u2019-]*){1,3}\s+"


def _loosely(label: str, value: str) -> re.Pattern[str]:
    return re.compile(r"(?i)" + label + r"(?:" + _SEP + r"|" + _LOOSE + r")(" + value + r")(?![\dA-Za-z])")


def label_says(validate: Callable[[str], object], born: Callable[[str], object] | None = None) -> Callable[[str], bool]:
    """A check that lets a wrong check digit pass: right after its own label, a number of the identifier's length
    whose date of birth (``born``, where the check digit is read first) and region are right is the holder's."""

    def valid(value: str) -> bool:
        try:
            validate(value)
        except InvalidChecksum:
            return born is None or _dated(born, value)
        except ValidationError:
            return False
        return True

    return valid


def _dated(born: Callable[[str], object], value: str) -> bool:
    try:
        born(re.sub(r"[\s/-]", "", value))
    except (ValidationError, ValueError):
        return False
    return True


def _shaped(value: str) -> bool:
    """No check: the label and the value's own shape say what it is."""
    return True


def _born(yymmdd: str, month_offsets: tuple[int, ...] = (0,)) -> bool:
    """Whether six digits are a date (a month may carry an offset for the century, as a Mongolian register's)."""
    year, month, day = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:6])
    for offset in month_offsets:
        try:
            datetime.date(2000 + year, month - offset, day)
        except ValueError:
            continue
        return True
    return False


def _iin(value: str) -> bool:
    """A Kazakh IIN: the date of birth, then the century and sex (1 to 6)."""
    return _born(value[:6]) and value[6] in "123456"


def _mongolian(value: str) -> bool:
    """A Mongolian register: two letters, then the date of birth (the month plus 20 after 1999)."""
    return _born(value[2:8], (0, 20))


def _sri_lankan(value: str) -> bool:
    """A Sri Lankan NIC: the year, then the day of the year (plus 500 for a woman)."""
    day = int(value[4:7] if len(value) == 12 else value[2:5])
    return 1 <= day % 500 <= 366


def _snils(value: str) -> bool:
    """A Russian SNILS: nine digits weighted 9 down to 1, their sum modulo 101 (100 read as 00) the last two."""
    digits = re.sub(r"\D", "", value)
    total = sum(int(d) * (9 - i) for i, d in enumerate(digits[:9])) % 101
    return f"{total % 100:02d}" == digits[9:]


def _rnokpp_born(value: str) -> datetime.date:
    """A Ukrainian RNOKPP's date of birth: its first five digits count the days from 31 December 1899."""
    born = datetime.date(1899, 12, 31) + datetime.timedelta(days=int(value[:5]))
    if int(value[:5]) == 0 or born > datetime.date.today():
        raise ValueError(value)
    return born


def _fin(value: str) -> bool:
    """An Azerbaijani FIN: seven capitals and digits, both."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _kode_melli(value: str) -> bool:
    """An Iranian national code: ten digits, not all one digit, the last a check over the nine before it."""
    digits = re.sub(r"\D", "", value)
    if len(digits) != 10 or len(set(digits)) == 1:
        return False
    rest = sum(int(d) * (10 - i) for i, d in enumerate(digits[:9])) % 11
    return int(digits[9]) == (rest if rest < 2 else 11 - rest)


# (words one of which the lower-cased text must hold; the pattern; the check).
_NATIONAL: tuple[tuple[tuple[str, ...], re.Pattern[str], Callable[[str], bool]], ...] = (
    (
        ("身份", "居民"),
        _after(
            _label(r"居民身份证|身份证|身份證|公民身份号码", spaced=False) + r"(?:号码|號碼|号|號|字號)?",
            r"\d{17}[\dXx]",
        ),
        label_says(ric.validate, ric.get_birth_date),
    ),
    (
        ("マイナンバー", "個人番号"),
        _after(_label("マイナンバー|個人番号", False), r"\d{4}[ -]?\d{4}[ -]?\d{4}"),
        my_number.is_valid,
    ),
    (
        ("주민",),
        _after(_label("주민등록번호|주민번호", False), r"\d{6}-?\d{7}"),
        label_says(rrn.validate, rrn.get_birth_date),
    ),
    (
        ("ประชาชน",),
        _after(_label("เลขประจำตัวประชาชน|เลขบัตรประชาชน", False), r"\d[ -]?\d{4}[ -]?\d{5}[ -]?\d{2}[ -]?\d"),
        pin.is_valid,
    ),
    (
        ("ประชาชน",),
        _after(_label("เลขประจำตัวประชาชน|เลขบัตรประชาชน", False), r"[1-8][ -]\d{4}[ -]\d{5}[ -]\d{2}[ -]\d"),
        _shaped,  # the card's own 1-4-5-2-1 print: its shape, with the label, says what it is
    ),
    (
        ("आधार",),
        _after(_label("आधार", False) + r"(?:\s+(?:संख्या|नंबर|नम्बर|कार्ड|क्रमांक))?", r"\d{4}\s?\d{4}\s?\d{4}"),
        aadhaar.is_valid,
    ),
    (
        ("זהות", "ת״ז", 'ת"ז', "ת.ז"),
        _after(_label(r"תעודת\s+זהות|מספר\s+זהות|ת[״\"]ז|ת\.ז\.?", False), r"\d{9}"),
        idnr.is_valid,
    ),
    (
        ("fødsels", "fodsels", "personnummer"),
        _after(_label(r"f[øo]dselsnummer|personnummer"), r"\d{6}[ -]?\d{5}"),
        label_says(fodselsnummer.validate, fodselsnummer.get_birth_date),
    ),
    (
        ("personnummer",),
        _after(_label("personnummer"), r"(?:\d{2})?\d{6}[-+]?\d{4}"),
        label_says(personnummer.validate, personnummer.get_birth_date),
    ),
    (
        ("ملی", "ملّی"),
        _after(_label(r"(?:کد|شماره)\s*مل[ّ]?ی", False), r"\d{3}-?\d{6}-?\d"),
        _kode_melli,
    ),
    (("cpr",), _after(_label(r"cpr(?:-?nummer|-?nr\.?)?"), r"\d{6}-?\d{4}"), cpr.is_valid),
    (  # a Romanian label may carry its article ("CNP-ul", "codul")
        ("cnp", "numeric personal"),
        _after(_label(r"cnp(?:-?ul)?|cod(?:ul)?\s+numeric\s+personal"), r"\d{13}"),
        label_says(cnp.validate),
    ),
    (
        ("αμκα", "α.μ.κ.α"),
        _after(_label(r"αμκα|α\.μ\.κ\.α\.?"), r"\d{11}"),
        label_says(amka.validate, amka.get_birth_date),
    ),
    (("αφμ", "α.φ.μ"), _after(_label(r"αφμ|α\.φ\.μ\.?"), r"\d{9}"), afm.is_valid),
    (("nik", "induk kependudukan"), _after(_label(r"nik|nomor\s+induk\s+kependudukan"), r"\d{16}"), nik.is_valid),
    (
        ("rodn", "r.č", "r. č"),
        _after(_label(r"rodn[ée]\s+[čc][íi]sl[oa]|r\.\s?č\."), r"\d{6}/?\d{3,4}"),
        label_says(rc.validate, rc.get_birth_date),
    ),
    (("инн",), _after(_label("инн"), r"\d{12}"), inn.is_valid),
    (("рнокпп", "іпн"), _after(_label("рнокпп|іпн"), r"\d{10}"), label_says(rntrc.validate, _rnokpp_born)),
    (("егн",), _loosely(_label("егн"), r"\d{10}"), label_says(egn.validate)),
    (("oib",), _after(_label("oib"), r"\d{11}"), oib.is_valid),
    (("isikukood",), _loosely(_label("isikukood"), r"\d{11}"), label_says(ik.validate)),
    (("asmens kod",), _loosely(_label(r"asmens\s+kodas"), r"\d{11}"), label_says(asmens.validate)),
    (
        ("јмбг", "jmbg", "матични", "matični"),
        _loosely(_label(r"јмбг|jmbg|матични\s+број|matični\s+broj"), r"\d{13}"),
        label_says(emso.validate),  # a JMBG is built as an EMŠO is
    ),
    (("жсн", "иин", "iin"), _loosely(_label("жсн|иин|iin"), r"\d{12}"), _iin),
    (("davčn",), _after(_label(r"davčn[aeo](?:\s+(?:številka|št\.))?"), r"[1-9]\d{7}"), ddv.is_valid),
    (("kennitala",), _after(_label("kennitala"), r"\d{6}-?\d{4}"), kennitala.is_valid),
    (("personas kod",), _loosely(_label(r"personas\s+kods"), r"\d{6}-?\d{5}"), label_says(pvn.validate)),
    (("emšo", "emso"), _loosely(_label("emšo|emso"), r"\d{13}"), label_says(emso.validate)),
    (
        ("এনআইডি", "পরিচয়"),
        _loosely(_label(r"এনআইডি|জাতীয়\s*পরিচয়\s*পত্র", False) + r"(?:\s*(?:নম্বর|নং))?", r"\d{17}|\d{13}|\d{10}"),
        _shaped,
    ),
    (("kitambulisho",), _after(_label(r"kitambulisho\s+cha\s+taifa|nambari\s+ya\s+kitambulisho"), r"\d{7,8}"), _shaped),
    (
        ("नागरिकता",),
        _after(
            _label(r"नागरिकता(?:\s*प्रमाणपत्र)?", False) + r"(?:\s*(?:नं\.?|नम्बर|नंबर|क्रमांक|संख्या))?",
            r"\d{1,3}(?:[-/]\d{1,6}){2,4}",
        ),
        _shaped,
    ),
    (
        ("မှတ်ပုံတင်", "nrc"),
        _after(
            _label(r"မှတ်ပုံတင်(?:\s*(?:အမှတ်|နံပါတ်))?|\bnrc", False),
            r"\d{1,2}/[\u1000-\u109f]{2,16}\([\u1000-\u109fA-Za-z]{1,8}\)\d{6}",
        ),
        _shaped,
    ),
    (("регистр",), _after(_label(r"регистр(?:ийн)?(?:\s+дугаар)?"), r"[А-ЯЁӨҮ]{2}\d{8}"), _mongolian),
    (
        ("nic", "හැඳුනුම්", "அடையாள"),
        _after(
            _label(r"(?-i:NIC)|ජාතික\s+හැඳුනුම්\s*පත්?|தேசிய\s+அடையாள\s+அட்டை", False)
            + r"(?:\s*(?:අංකය|අංක|எண்|number))?",  # "no." as any label reads it
            r"(?:19|20)\d{10}|\d{9}[VvXx]",
        ),
        _sri_lankan,
    ),
    (("snils", "снилс"), _after(_label("снилс|snils"), r"\d{3}-?\d{3}-?\d{3}[ -]?\d{2}"), _snils),
    (
        ("cccd", "căn cước", "cmnd"),
        _after(_label(r"(?:số\s+)?(?:cccd|căn\s+cước(?:\s+công\s+dân)?)"), r"0\d{11}"),
        _shaped,  # a province's code (0xx), the century and sex, the year of birth, a serial
    ),
    (
        ("kimlik", "tckn"),
        _after(_label(r"t\.?\s?c\.?\s+kimlik(?:\s+numaras[ıi])?|tckn"), r"[1-9]\d{9}[02468]"),
        _shaped,  # the Republic's own label; its last digit is even
    ),
    (
        ("codice fiscale", "cod. fisc", "c.f"),
        _after(
            _label(r"codice\s+fiscale|cod\.\s*fisc\.?|c\.\s?f\."), r"[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z]"
        ),
        label_says(codicefiscale.validate, codicefiscale.get_birth_date),
    ),
    (("mykad", "nric", "k/p"), _after(_label(r"mykad|nric|no\.?\s*k/p"), r"\d{6}-?\d{2}-?\d{4}"), nric.is_valid),
    (("cnic",), _after(_label("cnic"), r"\d{5}-?\d{7}-?\d"), cnic.is_valid),
    # a Nigerian NIN and BVN (a bank's verification number, the holder's own): eleven digits, no check digit, after
    # the label in capitals, then words in the holder's language ("NIN mi ni", "BVN na:")
    (
        ("nin", "national identification"),
        _loosely(_label(r"(?-i:NIN)|national\s+identification\s+number"), r"\d{11}"),
        _shaped,
    ),
    (("bvn", "bank verification"), _loosely(_label(r"(?-i:BVN)|bank\s+verification\s+number"), r"\d{11}"), _shaped),
    (  # a South African ID: the date of birth, then a Luhn digit; "kamazisi" and "ID-nommer" name nothing else
        ("mazisi", "sazisi", "nommer"),
        _after(_label(r"inombolo\s+(?:ka|ye|yo)mazisi|inombolo\s+yesazisi|id-?nommer|identiteitsnommer"), r"\d{13}"),
        label_says(za_idnr.validate, za_idnr.get_birth_date),
    ),
    (
        ("id number", "id-number", "idnumber", "identity number"),
        _after(_label(r"(?:sa\s+|south\s+african\s+)?id(?:entity)?[\s-]?number"), r"\d{13}"),
        za_idnr.is_valid,
    ),
    (
        ("rijksregister", "registre national", "numéro national"),
        _after(
            _label(r"rijksregisternummer|num[ée]ro\s+(?:de\s+registre\s+)?national"),
            r"\d{2}[.\s]?\d{2}[.\s]?\d{2}[-\s]?\d{3}[.\s]?\d{2}",
        ),
        nn.is_valid,
    ),
    (
        ("ahv", "avs"),
        _after(_label(r"ahv|avs") + r"(?:-?(?:nummer|nr\.?|n°))?", r"756\.?\d{4}\.?\d{4}\.?\d{2}"),
        ahv.is_valid,
    ),
)


# An identifier that may hold a single digit, read apart so that the others are not sought in every short text.
_FEW_DIGITS: tuple[tuple[tuple[str, ...], re.Pattern[str], Callable[[str], bool]], ...] = (
    (("fin", "fi\u0307n"), _after(_label(r"f[iİ]n\s+kodu?|(?-i:FİN)"), r"(?-i:[0-9A-Z]{7})"), _fin),
)


def national_labelled_ids(text: str) -> Spans:
    """The identifiers above, each right after its label (or its holder's words and a colon), its check passed."""
    return _labelled(text, _NATIONAL)


def few_digit_ids(text: str) -> Spans:
    """An identifier of letters and as few as one digit (an Azerbaijani FIN), right after its label."""
    return _labelled(text, _FEW_DIGITS)


def _labelled(text: str, table: tuple[tuple[tuple[str, ...], re.Pattern[str], Callable[[str], bool]], ...]) -> Spans:
    lower = text.lower()
    for hints, pattern, valid in table:
        if not any(hint in lower for hint in hints):
            continue
        for m in pattern.finditer(text):
            if valid(m.group(1)):
                yield m.start(1), m.end(1)
