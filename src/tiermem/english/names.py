"""(internal) The names an English question holds: words it capitalises inside a sentence.

Relevance reads them as evidence a scope can give: a word memory has never seen says nothing against a hit when
it is an ordinary word (the notes may say "cat" for the question's "kitten"), but a name has no synonym, so a
question naming a person, a place or a title memory never mentions is about something else. Capitals mark names
in English only (German capitalises every noun), so other languages have none; month and day names, the
question's first word and single letters ("the U.S.") are not counted. ``name_phrases`` keeps a run of such
words together ("New York"), for what a note names rather than what a question asks.
"""

from __future__ import annotations

import re

from tiermem.english.language import looks_english
from tiermem.text_index import fold

__all__ = ["name_phrases", "names"]

_NOT_NAMES = frozenset(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday""".split()
)
# A word, and whether a sentence ends just before it (its capital then says nothing).
_WORD = re.compile(r"([.!?:]\s*|^\s*)?([^\W\d_][\w'\u2019-]*)")


def names(text: str) -> frozenset[str]:
    """The folded words ``text`` capitalises inside a sentence (none when it does not read as English)."""
    if not looks_english(text):
        return frozenset()
    found: set[str] = set()
    for match in _WORD.finditer(text):
        word = match.group(2)
        if match.group(1) is not None or not word[0].isupper():
            continue
        for part in re.findall(r"\w+", fold(word)):
            if len(part) > 1 and part not in _NOT_NAMES:
                found.add(part)
    return frozenset(found)


def name_phrases(text: str) -> tuple[str, ...]:
    """The runs of words ``text`` capitalises inside a sentence, each folded and joined by one space, in order."""
    if not looks_english(text):
        return ()
    runs: list[list[str]] = []
    end = -1  # where the last name word ended: the next one continues its run when only spaces are between
    for match in _WORD.finditer(text):
        word = match.group(2)
        parts = [p for p in re.findall(r"\w+", fold(word)) if len(p) > 1 and p not in _NOT_NAMES]
        if match.group(1) is not None or not word[0].isupper() or not parts:
            end = -1
            continue
        start = match.start(2)
        if end >= 0 and text[end:start].isspace() and "\n" not in text[end:start]:
            runs[-1].extend(parts)
        else:
            runs.append(parts)
        end = match.end(2)
    return tuple(dict.fromkeys(" ".join(run) for run in runs))
