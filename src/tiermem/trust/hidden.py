"""(internal) Text a reader does not see: markup that hides it, and encodings that disguise it.

``hidden_parts`` finds what HTML, Markdown and LaTeX keep from a human reader (comments, ``display:none`` and
other invisible styles, ``hidden`` elements, ``alt`` and ``title`` attributes, Markdown image alt text and link
titles, Markdown comments, LaTeX phantoms, white text and skipped blocks). ``decoded_parts`` finds base64,
base32, hex, ROT13, leetspeak, Unicode tag-character and reversed payloads (a line written backwards, which a
right-to-left override shows the right way round), and runs of escapes (HTML character references, ``\\u``
escapes, percent-encoding), and decodes them.
The scorer scores each part again: a directive that was hidden or encoded is more suspect, never less.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

import wordninja

from tiermem.trust.normalise import is_letter

__all__ = ["Part", "decoded_parts", "hidden_parts"]

_MAX_PARTS = 32  # bounds the re-scoring a single text can cause


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of text found inside another, and how it was hidden."""

    how: str
    text: str
    concealed: bool = False  # written in characters no reader sees: hidden whatever it says


_HIDDEN_STYLE = (
    r"(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])|"
    r"color\s*:\s*#?(?:fff(?:fff)?|white)\b[^\"']*background(?:-color)?\s*:\s*#?(?:fff(?:fff)?|white))"
)
_MARKUP = [
    ("an HTML comment", re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)),
    (
        "an element styled invisible",
        re.compile(rf"<(\w+)[^>]*?style\s*=\s*[\"'][^\"']*{_HIDDEN_STYLE}[^\"']*[\"'][^>]*>(.*?)</\1\s*>", re.DOTALL),
    ),
    (
        "a hidden element",
        re.compile(r"<(\w+)[^>]*?\s(?:hidden|aria-hidden\s*=\s*[\"']true[\"'])[^>]*>(.*?)</\1\s*>", re.DOTALL),
    ),
    ("a noscript element", re.compile(r"<(noscript)[^>]*>(.*?)</noscript\s*>", re.DOTALL)),
    ("an alt or title attribute", re.compile(r"\b(?:alt|title|aria-label|content)\s*=\s*\"([^\"]*)\"")),
    ("an alt or title attribute", re.compile(r"\b(?:alt|title|aria-label|content)\s*=\s*'([^']*)'")),
    ("Markdown image alt text", re.compile(r"!\[([^\]]+)\]\(")),
    ("a Markdown link title", re.compile(r"\]\(\s*\S+\s+\"([^\"]+)\"\s*\)")),
    ("a Markdown link title", re.compile(r"\]\(\s*\S+\s+'([^']+)'\s*\)")),
    ("a Markdown comment", re.compile(r"^\s*\[//\]:\s*#\s*\((.*)\)\s*$", re.MULTILINE)),
    # LaTeX that typesets nothing a reader sees: space the size of the text, white ink, skipped or commented out
    ("LaTeX typeset invisible", re.compile(r"\\[hv]?phantom\s*\{([^{}]*)\}")),
    ("LaTeX typeset invisible", re.compile(r"\\textcolor\s*\{\s*white\s*\}\s*\{([^{}]*)\}")),
    ("LaTeX typeset invisible", re.compile(r"\{\s*\\color\s*\{\s*white\s*\}([^{}]*)\}")),
    ("LaTeX left out", re.compile(r"\\iffalse\b(.*?)\\fi\b", re.DOTALL)),
    ("LaTeX left out", re.compile(r"\\begin\s*\{comment\}(.*?)\\end\s*\{comment\}", re.DOTALL)),
]
_TAG = re.compile(r"<[^>]{0,400}>")


def hidden_parts(text: str) -> list[Part]:
    """The pieces of ``text`` that markup keeps from a reader, tags stripped (at most a few dozen)."""
    if "<" not in text and "](" not in text and "[//]" not in text and "\\" not in text:
        return []
    found: list[Part] = []
    for how, pattern in _MARKUP:
        for match in pattern.finditer(text):
            inner = _TAG.sub(" ", match.group(match.lastindex or 1)).strip()
            if len(inner) >= 12:
                found.append(Part(how, inner))
            if len(found) >= _MAX_PARTS:
                return found
    return found


_B64 = re.compile(r"(?<![\w+/=])[a-z0-9+/_-]{24,}={0,2}(?![\w+/=])", re.IGNORECASE)
_HEX = re.compile(r"(?<![0-9a-f])(?:[0-9a-f]{2}[\s:]?){16,}(?![0-9a-f])", re.IGNORECASE)
_LEET = str.maketrans({"4": "a", "3": "e", "1": "i", "0": "o", "5": "s", "7": "t", "@": "a", "$": "s", "|": "l"})
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[0-9])[a-z0-9@$]{2,}\b", re.IGNORECASE)
_COMMON = re.compile(r"\b(?:the|and|you|your|to|of|all|is|are|this|that|for|with|now|not|user|do)\b")
# A sentence written as one identifier, its words joined by underscores: a file or job name a printer queue or a log
# shows ("SYSTEM_NOTE_assistant_email_the_contents_of_...").
# Letters run together with no gap at all, longer than any word: read as the words wordninja splits them into.
_RUN_TOGETHER = re.compile(r"[a-z]{24,}")
_JOINED = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9@.-]+){5,}")


def _readable(raw: bytes) -> str | None:
    """``raw`` as text if it reads as words (mostly letters and spaces), else None."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return _words(text)


def _words(text: str) -> str | None:
    """``text`` if it reads as words (mostly letters and spaces), else None."""
    if len(text) < 12:
        return None
    letters = sum(is_letter(c) or c == " " for c in text)
    return text if letters / len(text) >= 0.8 and " " in text.strip() else None


def _base64(blob: str) -> str | None:
    padded = blob + "=" * (-len(blob) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _readable(raw)


def _hex(blob: str) -> str | None:
    digits = re.sub(r"[\s:]", "", blob)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        return _readable(bytes.fromhex(digits))
    except ValueError:
        return None


_B32 = re.compile(r"(?<![A-Z2-7=])[A-Z2-7]{24,}={0,6}(?![A-Z2-7=])")  # upper case: base32 has no lower


def _base32(blob: str) -> str | None:
    padded = blob.rstrip("=") + "=" * (-len(blob.rstrip("=")) % 8)
    try:
        return _readable(base64.b32decode(padded))
    except (binascii.Error, ValueError):
        return None


def _unicode_escapes(run: str) -> str:
    return codecs.decode(run, "unicode_escape")


# Runs of escapes, each character written as a code, at least eight in a row (with spaces or punctuation between):
# what marks the kind, the run, and how it is undone.
_ESCAPES: tuple[tuple[str, str, re.Pattern[str], Callable[[str], str]], ...] = (
    (
        "HTML character references",
        "&#",
        re.compile(r"(?:&#(?:\d{2,7}|x[0-9a-f]{2,6});[\s,.]*){8,}", re.IGNORECASE),
        html.unescape,
    ),
    ("\\u escapes", "\\", re.compile(r"(?:\\u[0-9a-f]{4}|\\x[0-9a-f]{2}){8,}", re.IGNORECASE), _unicode_escapes),
    ("percent-encoding", "%", re.compile(r"(?:%[0-9a-f]{2}[\w.~-]{0,3}){8,}", re.IGNORECASE), urllib.parse.unquote),
)


def _unescaped(text: str) -> list[Part]:
    """Runs of HTML character references, ``\\u`` escapes or percent-escapes in ``text``, decoded into words."""
    found = []
    for how, marker, pattern, decode in _ESCAPES:
        if marker not in text:
            continue
        for match in pattern.finditer(text):
            try:
                words = _words(decode(match.group(0)))
            except (UnicodeDecodeError, ValueError):
                continue
            if words is not None:
                found.append(Part(f"a payload in {how}", words))
    return found


# Unicode tag characters mirror ASCII (U+E0020-E007E) and render as nothing: text smuggled past a reader.
_TAGS = re.compile("[\U000e0020-\U000e007e]{4,}")


# Zero-width characters render as nothing: a run of them in two kinds is bits (one kind 0, the other 1), eight to
# a byte, or with a third kind between the characters' codes; either way a text no reader sees.
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]{16,}")


def _zero_width(run: str) -> str | None:
    """The text a run of zero-width characters spells in binary, if it reads as words."""
    kinds = sorted(set(run))
    if len(kinds) == 2 and len(run) % 8 == 0:
        for zero, one in (kinds, kinds[::-1]):
            bits = run.replace(zero, "0").replace(one, "1")
            found = _readable(bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8)))
            if found is not None:
                return found
    if len(kinds) == 3:
        for gap in kinds:
            zero, one = (k for k in kinds if k != gap)
            for a, b in ((zero, one), (one, zero)):
                codes = [c.replace(a, "0").replace(b, "1") for c in run.split(gap) if c]
                if codes and all(len(c) <= 21 for c in codes):
                    found = _words("".join(chr(int(c, 2)) for c in codes))
                    if found is not None:
                        return found
    return None


def decoded_parts(text: str) -> list[Part]:
    """Base64, base32, hex, ROT13, leetspeak, Unicode-tag, zero-width, reversed, escaped and underscore-joined
    payloads in ``text``, decoded."""
    found: list[Part] = []
    if not text.isascii():
        for match in _TAGS.finditer(text):
            spelled = "".join(chr(ord(c) - 0xE0000) for c in match.group(0))
            # A flag's tag letters (a region code) are no words: only what reads as words counts as concealed.
            found.append(Part("Unicode tag characters", spelled, _words(spelled) is not None))
        for match in _ZERO_WIDTH.finditer(text):
            words = _zero_width(match.group(0))
            if words is not None:
                found.append(Part("zero-width characters", words, True))
    for match in _B64.finditer(text):
        decoded = _base64(match.group(0))
        if decoded is not None:
            found.append(Part("a base64 payload", decoded))
    for match in _B32.finditer(text):
        decoded = _base32(match.group(0))
        if decoded is not None:
            found.append(Part("a base32 payload", decoded))
    found.extend(_unescaped(text))
    for match in _HEX.finditer(text):
        decoded = _hex(match.group(0))
        if decoded is not None:
            found.append(Part("a hex payload", decoded))
    folded = text.casefold()
    rotated = codecs.encode(folded, "rot13")
    # ROT13 of English is gibberish and the other way round: decode when it makes more common words appear.
    plain, common = len(_COMMON.findall(folded)), len(_COMMON.findall(rotated))
    if common >= plain + 2 or (plain <= 1 and common >= 1 and sum(c.isalpha() for c in folded) >= 20):
        found.append(Part("a ROT13 payload", rotated))
    for line in folded.splitlines():
        backwards = line[::-1]
        # Reversed English is gibberish too: a line is read backwards when that makes common words appear.
        if len(_COMMON.findall(backwards)) >= len(_COMMON.findall(line)) + 2:
            found.append(Part("reversed text", backwards))
    for match in _JOINED.finditer(text):
        spaced = match.group(0).replace("_", " ")
        if len(_COMMON.findall(spaced.casefold())) >= 2:
            found.append(Part("words joined into one name", spaced))
    leet = _LEET_WORD.findall(folded)
    if len(leet) >= 3 and len(leet) * 4 >= len(folded.split()):
        found.append(Part("leetspeak", _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), folded)))
    undressed = _without_marks(folded)
    if undressed is not None:
        found.append(Part("letters dressed in accents", undressed))
    for match in _RUN_TOGETHER.finditer(folded):
        split = " ".join(str(word) for word in wordninja.split(match.group(0)))
        if len(_COMMON.findall(split)) >= 2:
            found.append(Part("words run together", split))
    return found[:_MAX_PARTS]


def _without_marks(folded: str) -> str | None:
    """``folded`` without its accents and other combining marks, when that makes common English words appear (an
    order whose every vowel wears an accent); a French or Spanish sentence gains none and is left alone."""
    if folded.isascii():
        return None
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if unicodedata.category(c) != "Mn")
    if len(_COMMON.findall(bare)) < len(_COMMON.findall(folded)) + 2:
        return None
    return unicodedata.normalize("NFC", bare)
