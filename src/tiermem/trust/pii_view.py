"""(internal) The form of a text that PII detection reads, with a map back to the original characters.

People paste values from web pages, word processors and PDFs: a card grouped with no-break spaces, a French phone
number with narrow no-break spaces, an SSN with non-breaking hyphens, digits typed in full width, an address with
a zero-width space inside. A model reads each of these as the plain value, so detection must too. The view maps

- every Unicode space (no-break, narrow no-break, thin, figure, ideographic, ...) to a plain space, and line and
  paragraph separators to a line break;
- the hyphen, non-breaking hyphen, figure dash, en dash and minus sign to "-";
- digits of any script to 0-9, and full-width, half-width, small and mathematical letters and signs to their ASCII
  form (the full-width and the small at sign read as "@"), and the ideographic full stop to ".";
- invisible characters (zero-width spaces and joiners, direction marks, soft hyphens, variation selectors,
  fillers, control characters other than whitespace) to nothing;
- an escaped line break or tab written out (``\\n``, ``\\r``, ``\\t`` in JSON-like text) to the break itself, so
  the value on the next line starts at its own first letter and not at the escape's ``n``.

Each character of the view comes from exactly one character of the text, so a span found in the view names one
stretch of the original, which is what is masked: the placeholder gives back the text exactly as written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from tiermem.text_rules import hidden

__all__ = ["PiiView", "pii_view"]

_PLAIN = re.compile(r"[^\t\n\r\x0b\x0c\x20-\x7e]")  # a text without these reads as it is written
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2212\ufe63")
_LINES = frozenset("\u2028\u2029\x85")
_WIDTH_FORMS = ("<wide>", "<narrow>", "<font>", "<small>")
# The ideographic full stop (and its half-width form) separates an address's numbers as a "." does: "203。0。113。42"
_FULL_STOPS = frozenset("\u3002\uff61")
# A backslash and n, r or t that no backslash escapes: the backslash reads as the break, the letter as nothing.
_ESCAPED_BREAK = re.compile(r"(?<!\\)(?:\\\\)*\\([nrt])")
_BREAKS = {"n": "\n", "r": "\r", "t": "\t"}


@dataclass(frozen=True, slots=True)
class PiiView:
    """The text detection reads, and for each of its characters the index of the original one it stands for."""

    text: str
    origin: tuple[int, ...] | None  # None: the view is the original text itself

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original span behind the view's span ``[start, end)`` (which is not empty)."""
        if self.origin is None:
            return start, end
        return self.origin[start], self.origin[end - 1] + 1


def _read_as(char: str) -> str:
    """What ``char`` reads as: itself, its plain form, or nothing."""
    if char.isascii():
        return "" if _PLAIN.match(char) else char
    category = unicodedata.category(char)
    if category == "Zs":
        return " "
    if char in _LINES:
        return "\n"
    if char in _DASHES:
        return "-"
    if char in _FULL_STOPS:
        return "."
    if hidden(char):
        return ""
    if category == "Nd":
        return str(unicodedata.decimal(char))
    if unicodedata.decomposition(char).startswith(_WIDTH_FORMS):
        folded = unicodedata.normalize("NFKC", char)
        if len(folded) == 1 and folded.isascii():
            return folded
    return char


def pii_view(text: str) -> PiiView:
    """``text`` as PII detection reads it (see the module docstring), with the map back to ``text``."""
    # backslash position -> the break it reads as; its letter is read as nothing
    breaks = {m.start(1) - 1: _BREAKS[m.group(1)] for m in _ESCAPED_BREAK.finditer(text)} if "\\" in text else {}
    if not breaks and not _PLAIN.search(text):
        return PiiView(text, None)
    chars: list[str] = []
    origin: list[int] = []
    skip = -1
    for index, char in enumerate(text):
        if index == skip:
            continue
        read = breaks.get(index)
        if read is not None:
            skip = index + 1
        else:
            read = _read_as(char)
        if read:
            chars.append(read)
            origin.append(index)
    return PiiView("".join(chars), tuple(origin))
