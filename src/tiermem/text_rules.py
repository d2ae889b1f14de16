"""(internal) The rules every written text meets, whatever the door: valid Unicode, something visible, no NUL in names.

A hidden character is one a reader cannot see: a format character (category Cf: zero-width spaces and joiners,
bidi controls, tags), a line or paragraph separator, a control other than tab and line breaks (NUL among them),
a letter that renders as nothing (a Hangul filler, a blank Braille pattern) or a mark that adds nothing to the
letter it follows (a variation selector, the grapheme joiner). Text made only of those and
spaces is empty to a reader and to search alike; the inspector shows each one as a marked code point.
"""

from __future__ import annotations

import unicodedata

from tiermem.errors import ValidationError

__all__ = ["FILLERS", "SILENT_MARKS", "check_encodable", "check_name", "check_visible", "hidden", "visible"]

# Letters and symbols that take a letter's width and show nothing: the Hangul fillers, the blank braille cell.
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Combining marks that show nothing: the grapheme joiner, Mongolian variation selectors and vowel separator,
# Khmer's inherent vowels (variation selectors proper are recognised by their range).
SILENT_MARKS = frozenset("\u034f\u180b\u180c\u180d\u180e\u180f\u17b4\u17b5")
_SHOWN_CONTROLS = frozenset("\t\n\r")
_UTF8 = "text UTF-8 can encode (no lone surrogates)"


def hidden(ch: str) -> bool:
    """Whether the character shows nothing to a reader (see the module's docstring)."""
    if ch in FILLERS or ch in SILENT_MARKS or "\ufe00" <= ch <= "\ufe0f" or ch >= "\U000e0100":
        return True
    category = unicodedata.category(ch)
    return category in ("Cf", "Zl", "Zp") or (category == "Cc" and ch not in _SHOWN_CONTROLS)


def check_encodable(field: str, text: str) -> str:
    """``text`` unchanged; ValidationError naming ``field`` when it holds a lone surrogate (no store can keep it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValidationError(
            field, f"must be valid Unicode: a lone surrogate at character {exc.start}", given=text, limit=_UTF8
        ) from None
    return text


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character that is neither a space nor hidden."""
    return any(not ch.isspace() and not hidden(ch) for ch in text)


def check_visible(field: str, text: str) -> str:
    """``text`` unchanged; ValidationError ``must not be empty`` when it holds only spaces and hidden characters."""
    if not visible(text):
        raise ValidationError(field, "must not be empty (spaces and hidden characters do not count)", given=text)
    return text


def check_name(field: str, text: str) -> str:
    """``text`` unchanged when it can name something (a source, a metadata key): valid Unicode, without NUL."""
    check_encodable(field, text)
    if "\x00" in text:
        raise ValidationError(field, "must not hold a NUL character", given=text, limit="no U+0000")
    return text
