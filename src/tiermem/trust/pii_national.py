"""(internal) National identifiers of more countries, each after its label in its own language and script.

A personal code, a civil registry number or a social-security number is a run of digits that could be anything
until its label names it ("身份证号", "Fødselsnummer", "CNP", "תעודת זהות", "マイナンバー", "ΑΜΚΑ", "NIK",
"rodné číslo", "CPR", "EMŠO", "personas kods", "MyKad", "CNIC", "주민등록번호", "เลขประจำตัวประชาชน", "आधार");
after the label python-stdnum checks its check digit, or its date and region, so a reference number that follows
the same word by chance stays as written.
"""

# ruff: noqa: RUF001, RUF002, RUF003  (the labels are written in the scripts they match)

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from stdnum.be import nn
from stdnum.bg import egn
from stdnum.ch import ssn as ahv
from stdnum.cn import ric
from stdnum.cz import rc
from stdnum.dk import cpr
from stdnum.ee import ik
from stdnum.gr import amka
from stdnum.gr import vat as afm
from stdnum.hr import oib
from stdnum.id import nik
from stdnum.il import idnr
from stdnum.in_ import aadhaar
from stdnum.is_ import kennitala
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
from stdnum.si import emso
from stdnum.th import pin
from stdnum.ua import rntrc

__all__ = ["national_labelled_ids"]

Spans = Iterator[tuple[int, int]]

# Between a label and its value: a remark in brackets, words naming the holder then a colon ("CNP angajat:",
# "ΑΜΚΑ ασθενούς:"), or the number's word and a sign ("nr.", "#", ":").
_REMARK = r"(?:\s*\([^()\n]{1,40}\))?"
_HOLDER = r"(?:\s+[^\W\d_][\w'\u2019-]*){1,4}\s*:"
_SEP = rf"(?:{_HOLDER}|{_REMARK}\s*(?:no\.?|nr\.?|č\.|#)?\s*[:#=]?)\s*"


def _label(words: str, spaced: bool = True) -> str:
    """A label that opens on a word boundary (``spaced``), or anywhere, as scripts written without spaces, or with
    joined prefixes (Hebrew), put it."""
    return (r"\b(?:" if spaced else "(?:") + words + ")"


def _after(label: str, value: str) -> re.Pattern[str]:
    return re.compile(r"(?i)" + label + _SEP + r"(" + value + r")(?![\dA-Za-z])")


# (words one of which the lower-cased text must hold; the pattern; the check).
_NATIONAL: tuple[tuple[tuple[str, ...], re.Pattern[str], Callable[[str], bool]], ...] = (
    (
        ("身份", "居民"),
        _after(
            _label(r"居民身份证|身份证|身份證|公民身份号码", spaced=False) + r"(?:号码|號碼|号|號|字號)?",
            r"\d{17}[\dXx]",
        ),
        ric.is_valid,
    ),
    (
        ("マイナンバー", "個人番号"),
        _after(_label("マイナンバー|個人番号", False), r"\d{4}[ -]?\d{4}[ -]?\d{4}"),
        my_number.is_valid,
    ),
    (("주민",), _after(_label("주민등록번호|주민번호", False), r"\d{6}-?\d{7}"), rrn.is_valid),
    (
        ("ประชาชน",),
        _after(_label("เลขประจำตัวประชาชน|เลขบัตรประชาชน", False), r"\d[ -]?\d{4}[ -]?\d{5}[ -]?\d{2}[ -]?\d"),
        pin.is_valid,
    ),
    (
        ("आधार",),
        _after(_label("आधार", False) + r"(?:\s+(?:संख्या|नंबर|नम्बर|कार्ड|क्रमांक))?", r"\d{4}\s?\d{4}\s?\d{4}"),
        aadhaar.is_valid,
    ),
    (("זהות", "ת״ז", 'ת"ז'), _after(_label(r"תעודת\s+זהות|מספר\s+זהות|ת[״\"]ז", False), r"\d{9}"), idnr.is_valid),
    (
        ("fødsels", "fodsels", "personnummer"),
        _after(_label(r"f[øo]dselsnummer|personnummer"), r"\d{6}[ -]?\d{5}"),
        fodselsnummer.is_valid,
    ),
    (("personnummer",), _after(_label("personnummer"), r"(?:\d{2})?\d{6}[-+]?\d{4}"), personnummer.is_valid),
    (("cpr",), _after(_label(r"cpr(?:-?nummer|-?nr\.?)?"), r"\d{6}-?\d{4}"), cpr.is_valid),
    (("cnp", "numeric personal"), _after(_label(r"cnp|cod\s+numeric\s+personal"), r"\d{13}"), cnp.is_valid),
    (("αμκα", "α.μ.κ.α"), _after(_label(r"αμκα|α\.μ\.κ\.α\.?"), r"\d{11}"), amka.is_valid),
    (("αφμ", "α.φ.μ"), _after(_label(r"αφμ|α\.φ\.μ\.?"), r"\d{9}"), afm.is_valid),
    (("nik", "induk kependudukan"), _after(_label(r"nik|nomor\s+induk\s+kependudukan"), r"\d{16}"), nik.is_valid),
    (
        ("rodn", "r.č", "r. č"),
        _after(_label(r"rodn[ée]\s+[čc][íi]sl[oa]|r\.\s?č\."), r"\d{6}/?\d{3,4}"),
        rc.is_valid,
    ),
    (("инн",), _after(_label("инн"), r"\d{12}"), inn.is_valid),
    (("рнокпп", "іпн"), _after(_label("рнокпп|іпн"), r"\d{10}"), rntrc.is_valid),
    (("егн",), _after(_label("егн"), r"\d{10}"), egn.is_valid),
    (("oib",), _after(_label("oib"), r"\d{11}"), oib.is_valid),
    (("isikukood",), _after(_label("isikukood"), r"\d{11}"), ik.is_valid),
    (("asmens kod",), _after(_label(r"asmens\s+kodas"), r"\d{11}"), asmens.is_valid),
    (("kennitala",), _after(_label("kennitala"), r"\d{6}-?\d{4}"), kennitala.is_valid),
    (("personas kod",), _after(_label(r"personas\s+kods"), r"\d{6}-?\d{5}"), pvn.is_valid),
    (("emšo", "emso"), _after(_label("emšo|emso"), r"\d{13}"), emso.is_valid),
    (("mykad", "nric", "k/p"), _after(_label(r"mykad|nric|no\.?\s*k/p"), r"\d{6}-?\d{2}-?\d{4}"), nric.is_valid),
    (("cnic",), _after(_label("cnic"), r"\d{5}-?\d{7}-?\d"), cnic.is_valid),
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


def national_labelled_ids(text: str) -> Spans:
    """The identifiers above, each right after its label (or its holder's words and a colon), its check passed."""
    lower = text.lower()
    for hints, pattern, valid in _NATIONAL:
        if not any(hint in lower for hint in hints):
            continue
        for m in pattern.finditer(text):
            if valid(m.group(1)):
                yield m.start(1), m.end(1)
