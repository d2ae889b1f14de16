"""The form of a text that scanning reads: what a reader sees, with the disguises of its letters undone.

``scan_form(text)`` is NFKC, without invisible characters (zero-width spaces and joiners, bidirectional
overrides, tag characters, variation selectors, fillers), with look-alike letters of other scripts mapped to the
Latin letter they imitate, letters drawn in boxes or circles read as capitals, and with letters spaced apart
("i g n o r e  a l l") joined into words. Only scanning sees it: stored text keeps the user's characters.

Look-alikes come from the Unicode confusables table as ``confusable_homoglyphs`` ships it. A letter is mapped only
where it disguises a Latin word: inside a word that also has Latin letters ("ignore" with a Cyrillic i, o and e), or a
word made wholly of look-alikes in a text that is mostly Latin. A Greek or Russian sentence keeps its letters, so
its own language's signals still read it. ASCII text is returned as it is without further work.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import wordninja
from confusable_homoglyphs import categories, confusables

from tiermem.text_rules import FILLERS, SILENT_MARKS

__all__ = ["ScanForm", "is_letter", "latin_lookalikes", "normalise", "scan_form"]


def is_letter(char: str) -> bool:
    """Whether ``char`` is a letter or a combining mark (a Devanagari vowel sign, which ``str.isalpha`` rejects)."""
    return char.isalpha() or unicodedata.category(char).startswith("M")


@dataclass(frozen=True, slots=True)
class ScanForm:
    """The scanned text and how many disguises were undone to make it."""

    text: str
    invisible: int  # invisible characters removed
    lookalikes: int  # letters of another script mapped to the Latin letter they imitate
    spaced: int  # runs of letters spaced apart that were joined


# Fillers take a letter's width: a reader sees a gap, so scanning reads a space (or the words either side of a run
# of them would be read run together); silent marks add nothing to their letter and are dropped.
_GAPS = FILLERS
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_WORD = re.compile(r"[^\W\d_]+")
# A letter followed by a separator, at least four times: "i g n o r e", "s.e.n.d", "r-e-v-e-a-l".
_SPACED = re.compile(r"(?<![^\W\d_])(?:[^\W\d_](?:[ \t]{1,4}|[ \t]?[.\-*_·•|/][ \t]?)){3,}[^\W\d_](?![^\W\d_])")
_GAP = re.compile(r"[^\W\d_]")
_MIN_SEGMENTED = 12  # letters run together without word gaps are split into words only from this length


def _invisible(char: str) -> bool:
    """Whether ``char`` renders as nothing: a format character, a variation selector, a filler."""
    if char in FILLERS or char in SILENT_MARKS:
        return True
    category = unicodedata.category(char)
    return category == "Cf" or (category == "Mn" and ("\ufe00" <= char <= "\ufe0f" or char >= "\U000e0100"))


def latin_lookalikes() -> dict[str, str]:
    """Each letter of another script that imitates an ASCII letter, mapped to it (the confusables table)."""
    return _skeletons()


@cache
def _skeletons() -> dict[str, str]:
    """Each non-ASCII letter that imitates an ASCII letter, mapped to it (case kept), from the confusables table."""
    table: dict[str, str] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii() or unicodedata.normalize("NFKC", char) != char:
            continue
        for glyph in glyphs:
            target = glyph["c"]
            if len(target) == 1 and target.isascii() and target.isalpha():
                table[char] = target
                break
    # The table maps a capital Greek iota to "l": an upper-case letter is mapped through its lower-case one.
    for char in list(table):
        lower = char.lower()
        if char != lower and len(lower) == 1 and lower in table:
            table[char] = table[lower].upper()
    return table


# Letters drawn in boxes or circles that NFKC leaves as symbols (negative squared and circled letters, regional
# indicators): each is read as the capital letter its name ends in.
_DRAWN = re.compile("[\U0001f150-\U0001f169\U0001f170-\U0001f189\U0001f1e6-\U0001f1ff]")


def _drawn_letters(text: str) -> tuple[str, int]:
    """``text`` with letters drawn in boxes or circles as plain capitals, and how many there were."""
    found = len(_DRAWN.findall(text))
    return (_DRAWN.sub(lambda m: unicodedata.name(m.group(), " ")[-1], text), found) if found else (text, 0)


def _latin(char: str) -> bool:
    return char.isascii() or categories.alias(char) == "LATIN"


def _unmask_lookalikes(text: str) -> tuple[str, int]:
    """``text`` with look-alike letters mapped where they disguise Latin words, and how many were mapped."""
    table = _skeletons()
    if not any(char in table for char in text):
        return text, 0
    letters = [char for char in text if char.isalpha()]
    mostly_latin = sum(map(_latin, letters)) * 2 >= len(letters)
    mapped = 0

    def word(match: re.Match[str]) -> str:
        nonlocal mapped
        found = match.group(0)
        disguised = [char for char in found if char in table and not char.isascii()]
        if not disguised:
            return found
        has_ascii = any(char.isascii() for char in found)
        if not has_ascii and not (mostly_latin and all(char in table or char.isascii() for char in found)):
            return found
        mapped += len(disguised)
        return "".join(table.get(char, char) for char in found)

    return _WORD.sub(word, text), mapped


def _join_spaced(text: str) -> tuple[str, int]:
    """``text`` with runs of letters spaced apart joined into words, and how many runs were joined."""
    joined = 0

    def run(match: re.Match[str]) -> str:
        nonlocal joined
        found = match.group(0)
        letters = _GAP.findall(found)
        gaps = _GAP.split(found)[1:-1]
        # The commonest gap splits letters; any other gap (wider, or a slash between words) splits words.
        common = max(set(gaps), key=gaps.count)
        words: list[str] = [letters[0]]
        for letter, gap in zip(letters[1:], gaps, strict=True):
            if gap == common:
                words[-1] += letter
            else:
                words.append(letter)
        joined += 1
        if len(words) == 1 and len(words[0]) >= _MIN_SEGMENTED:
            words = [str(part) for part in wordninja.split(words[0])]
        return " ".join(words)

    return _SPACED.sub(run, text), joined


def normalise(text: str) -> ScanForm:
    """``text`` as scanning reads it (see the module docstring), with counts of what was undone."""
    if text.isascii():
        spaced, joined = _join_spaced(text) if " " in text else (text, 0)
        return ScanForm(spaced, 0, 0, joined)
    folded = unicodedata.normalize("NFKC", text)
    invisible = 0

    def seen(match: re.Match[str]) -> str:
        nonlocal invisible
        char = match.group()
        if not _invisible(char):
            return char
        invisible += 1
        return " " if char in _GAPS else ""

    kept = _NON_ASCII.sub(seen, folded)
    drawn, boxed = _drawn_letters(kept)
    unmasked, lookalikes = _unmask_lookalikes(drawn)
    lookalikes += boxed
    spaced, joined = _join_spaced(unmasked)
    return ScanForm(spaced, invisible, lookalikes, joined)


def scan_form(text: str) -> str:
    """``text`` as scanning reads it: NFKC, invisible characters removed, look-alikes mapped, spaced letters joined."""
    return normalise(text).text
