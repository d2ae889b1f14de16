"""(internal) Transcript lines: "Ann: I got my boy a bike" says who spoke, in its first words.

A chat written one ``remember()`` a turn arrives as such lines with the plain source ``user``: the text, not
the source, names the speaker, and the line records what was said then (an event), not a standing fact. A
label is one to three capitalised words followed by a colon and a space at the very start ("Ann: ",
"Mary Jo: "); "Note to self: ..." or "here are the tips: ..." are not speakers.
"""

from __future__ import annotations

import re

__all__ = ["spoken_line", "transcript_speaker"]

# A name word: a capital letter, then letters, digits, apostrophes, dots or hyphens.
_NAME_WORD = r"[^\W\d_a-z][\w'.-]*"
_LABEL = re.compile(rf"({_NAME_WORD}(?: {_NAME_WORD}){{0,2}}): (?=\S)")
# What a speaker says, not a labelled value ("Office: Building 7"): a line that speaks for its speaker or to
# someone, or asks or exclaims.
_SPEECH = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|us|our|you|you're|you've|your|yours)\b|[?!]", re.I
)


def transcript_speaker(text: str) -> str | None:
    """The name a transcript line opens with ("Ann: ..."), None for text not shaped like one."""
    label = _LABEL.match(text)
    return label.group(1) if label else None


def spoken_line(text: str) -> bool:
    """Whether ``text`` is a transcript line that reads as speech ("Ann: I moved the party to Sunday!")."""
    label = _LABEL.match(text)
    return label is not None and _SPEECH.search(text, label.end()) is not None
