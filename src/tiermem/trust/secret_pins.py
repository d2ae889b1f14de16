"""(internal) A PIN named in any language, then a few words of the sentence, then its number.

Many languages write the English "PIN" (or a mobile wallet's "MPIN") inside a sentence of their own, or spell it in
their own script ("пин-код", "পিন", "ፒን"), and put words between it and the number: whose card, which wallet, the
language's "is". Words without digits may stand between; a year or a date is when something was done to the PIN.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

__all__ = ["PIN_HINTS", "code_of_a_named_safe", "dialled_code", "measured", "pins_after_words"]

# The native forms: Cyrillic, Bengali, Devanagari, Telugu, Kannada, Georgian, Armenian and Ethiopic.
_NATIVE = r"(?i:пин(?:[\s\-]?код\w*)?|পিন|पिन|పిన్|ಪಿನ್|პინ(?:-?კოდ\w*)?|պին|ፒን)"
# The Tamil word is also "after": it counts only right before its number.
_TAMIL = "பின்"
_LATIN = r"M?PIN\d?"
# A word of the sentence: letters and joining signs, no digit, not the end of a sentence or of a clause.
_WORD = r"[^\W\d_][^\s\d.!?;,\u060c\u3001\uff0c]{0,30}"
_PIN_WORDS = re.compile(
    r"(?<![^\W\d_])(?:(?P<latin>" + _LATIN + r")|(?P<native>" + _NATIVE + r")|(?P<tamil>" + _TAMIL + r"))"
    r"(?![^\W_])(?P<gap>(?:[\s:\u2013\u2014\-]+" + _WORD + r"){0,5}?)"
    r"[\s:\u2013\u2014\-]+(?P<value>\d{4,6})(?![\d/]|[.,:\-]\d)"
)
_YEAR = re.compile(r"(?:19|20)\d\d")
# "PIN code" is also India's postal code, in English and in Hindi or Marathi: named so, a postal check reads it.
_POSTAL_NAMES = {"pin": "pin", "पिन": "pin"}
_CODE_WORDS = re.compile(r"(?i)[\s:\-]*(?:code|कोड)(?![^\W\d_])")
# A number the words before it say is an amount, a count, a time or a version, not the PIN ("PIN reset fee is ...").
_MEASURED = re.compile(
    r"(?i)(?<![^\W\d_])(?:timeout|fee|fees|costs?|price|error|release|version|step|attempts?|tries|limit|length"
    r"|size|ticket|order|case|ref|page|line|port|model|room|pad)(?![^\W\d_])"
)
_UNIT = re.compile(r"(?i)\s*(?:ms|s|sec|seconds?|minutes?|hours?|days?|rupees|rs|tenge|usd|eur|kb|mb)(?![^\W\d_])")


def measured(words: str, text: str, end: int) -> bool:
    """Whether the ``words`` between a PIN's name and a number, or a unit after it (at ``end``), make the number an
    amount, a count, a time or a version."""
    return _MEASURED.search(words) is not None or _UNIT.match(text, end) is not None


PIN_HINTS = ("пин", "পিন", "पिन", "పిన్", "ಪಿನ್", "პინ", "պին", "ፒን", "பின்", "mpin")


def pins_after_words(text: str) -> Iterator[tuple[str, str, int]]:
    """Each PIN's name (lower case, "pin code" when named so), its number in ASCII digits and where the name
    begins, where a few words may stand between."""
    for m in _PIN_WORDS.finditer(text):
        value = m["value"]
        if (m["tamil"] and m["gap"]) or len(set(value)) == 1 or (len(value) == 4 and _YEAR.fullmatch(value)):
            continue
        if measured(m["gap"], text, m.end()):
            continue
        name = (m["latin"] or m["native"] or m["tamil"]).lower()
        if name in _POSTAL_NAMES:
            name = _POSTAL_NAMES[name] + (" code" if _CODE_WORDS.match(m["gap"]) else "")
        yield name, "".join(str(unicodedata.digit(c)) for c in value), m.start()


# A metadata key that is only a code's name, in the languages the language table reads.
_CODE_KEY = re.compile(
    r"(?i)code|codice|c[óo]digo|codi|kod|kode|koden|koodi|pin|combination|combo|combinazione|combinaci[óo]n"
    r"|combinaison|combina[çc][ãa]o|暗証番号|コード|密码|密碼|비밀번호"
)
# A safe, a key safe or a padlock named in a note: what only a code opens. A door is left out, as a note on a door
# may carry an order's or a room's code as well.
_SAFE = re.compile(
    r"(?i)(?<![^\W\d_])(?:(?:the|a|my|our|hotel|room|in-room|wall|floor|office|gun|key)\s+safe|safe[\s\-]?(?:box|deposit)"
    r"|safety\s+deposit|lock\s?box|key\s?(?:safe|box)|padlock|combination\s+lock|cassaforte|cassetta\s+di\s+sicurezza"
    r"|lucchetto|(?:schl(?:ü|u|ue)ssel)?tresor|schl(?:ü|u|ue)ssel(?:kasten|box)|zahlenschloss|vorh(?:ä|a|ae)ngeschloss"
    r"|coffre(?:-fort)?|bo[îi]te\s+[àa]\s+cl[ée]s|cadenas|caja\s+(?:fuerte|de\s+seguridad|de\s+llaves)|candado|cofre"
    r"|cadeado|(?:sleutel)?kluis|hangslot|kassask[åa]p|nyckelbox|h[äa]ngl[åa]s|sejf\w*|k[łl][óo]dk\w*|trezor\w*|сейф\w*"
    r"|avainbok\w*|avainkaap\w*|kassakaap\w*)"
    r"(?![^\W\d_])|金庫|保险箱|保險箱|금고"
)


_NAMES_A_CODE = re.compile(r"(?i)(?<![^\W\d_])(?:" + _CODE_KEY.pattern.removeprefix("(?i)") + r")(?![^\W\d_])")


def code_of_a_named_safe(note: str, key: object, value: object) -> bool:
    """Whether a metadata entry is a safe's code: a short number under a key that is only a code's name
    (``codice: ...``), in a note that names a safe, a key safe or a padlock, or under a key that names both the safe
    and its code (``key box code``). Read alone, a code's name names any code."""
    if not isinstance(key, str):
        return False
    named = _CODE_KEY.fullmatch(key.strip(" _-")) is not None and bool(_SAFE.search(note))
    if not (named or (_SAFE.search(key) and _NAMES_A_CODE.search(key))):
        return False
    number = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""
    return re.fullmatch(r"\d{3,8}", number) is not None and len(set(number)) > 1


# A safe's dial combination: two-digit numbers joined by dashes after a label that names the safe and a code.
_DIALLED = re.compile(r"(?P<label>[^\n:=]{1,60})[:=][ \t]*\d{1,2}(?:[- ]\d{1,2}){2,3}(?![\d/.:]|[- ]\d)")


def dialled_code(text: str) -> bool:
    """Whether ``text`` gives a safe's combination in dash-joined numbers after a label naming the safe's code."""
    return any(_SAFE.search(m["label"]) and _NAMES_A_CODE.search(m["label"]) for m in _DIALLED.finditer(text))
