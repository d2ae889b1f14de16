"""(internal) A PIN named in any language, then a few words of the sentence, then its number.

Many languages write the English "PIN" (or a mobile wallet's "MPIN") inside a sentence of their own, or spell it in
their own script ("пин-код", "পিন", "ፒን"), and put words between it and the number: whose card, which wallet, the
language's "is". Words without digits may stand between; a year or a date is when something was done to the PIN.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

__all__ = ["PIN_HINTS", "measured", "pins_after_words"]

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
