"""(internal) Transcript lines: "Ann: I got my boy a bike" says who spoke, in its first words.

A chat written one ``remember()`` a turn arrives as such lines with the plain source ``user``: the text, not
the source, names the speaker, and the line records what was said then (an event), not a standing fact. A
label is one to three capitalised words followed by a colon and a space at the very start ("Ann: ",
"Mary Jo: "); "Note to self: ..." or "here are the tips: ..." are not speakers.
"""

from __future__ import annotations

import re

__all__ = ["transcript_speaker"]

# A name word: a capital letter, then letters, digits, apostrophes, dots or hyphens.
_NAME_WORD = r"[^\W\d_a-z][\w'.-]*"
_LABEL = re.compile(rf"({_NAME_WORD}(?: {_NAME_WORD}){{0,2}}): (?=\S)")


def transcript_speaker(text: str) -> str | None:
    """The name a transcript line opens with ("Ann: ..."), None for text not shaped like one."""
    label = _LABEL.match(text)
    return label.group(1) if label else None
