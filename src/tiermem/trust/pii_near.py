"""(internal) Values in text that is almost JSON, read after their key: a Python dict's or object's repr, JSON cut
off at a length limit, JSON with a trailing comma.

Such text fails to parse, but a model reads it as the JSON it almost is, and so must the outbound gate: each
``key: value`` pair whose value is quoted (``'key': 'value'``, ``"key": "value``, ``key='value'``, ``key: "value"``),
or a number after a quoted key (``'passport': 482107351``), gives its value decoded, with the key as its label.
One tolerant pattern reads every such shape; a quoted value may be cut off at the end of its line or text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["NearValue", "near_values"]

# A key (quoted, or a bare name of up to four words) then ":" or "=", then a quoted value (closed, or cut off at the
# end of its line or text), or, only after a quoted key, a number: a bare number after a bare word is prose
# ("extension: 4155552671") whose words before it the plain reading needs.
_PAIR = re.compile(
    r"""(?:(["'])((?:(?!\1)[^\\\n]|\\.){1,80})\1|(?<![\w"'\\])([A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*){0,3}))"""
    r"""[ \t]*[:=][ \t]*"""
    r"""(?:(["'])((?:(?!\4)[^\\\n]|\\.)*)(?:\4|(?=\n)|\Z)|(?(1)(-?\d+(?:\.\d+)?)(?![\w.])|(?!)))"""
)
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = re.compile(r"[0-9A-Fa-f]+")


@dataclass(frozen=True, slots=True)
class NearValue:
    """One value of near-JSON: its stretch of the text, its key, its decoded characters and where each was written."""

    start: int
    end: int
    label: str
    text: str
    froms: list[int]  # for each character of ``text``, where its stretch of the source starts
    tos: list[int]  # ... and where it ends
    number: bool


def near_values(text: str, holes: tuple[tuple[int, int], ...]) -> Iterator[NearValue]:
    """The quoted (or numeric) values of ``key: value`` pairs in ``text`` that lie wholly outside ``holes``."""
    if ":" not in text and "=" not in text:
        return
    at = 0
    for hole_start, hole_end in (*holes, (len(text), len(text))):
        # only the stretches between holes are read, so a text of many JSON values costs one pass
        for m in _PAIR.finditer(text, at, hole_start):
            group = 5 if m.group(4) is not None else 6
            start, end = m.start(group), m.end(group)
            if m.group(group) is None or start == end:
                continue
            key = m.group(2) if m.group(1) else m.group(3)
            label, _, _ = _decode(key, 0, len(key))
            decoded, froms, tos = _decode(text, start, end)
            yield NearValue(start, end, label, decoded, froms, tos, group == 6)
        at = hole_end


def _decode(text: str, a: int, b: int) -> tuple[str, list[int], list[int]]:
    """``text[a:b]`` with JSON's and Python's escapes read (an unknown escape stays as written), and the stretch of
    ``text`` each decoded character comes from."""
    chars: list[str] = []
    froms: list[int] = []
    i = a
    while i < b:
        char, step = text[i], 1
        if char == "\\" and i + 1 < b:
            code = text[i + 1]
            width = 4 if code == "u" else 2 if code == "x" else 0
            digits = text[i + 2 : i + 2 + width]
            if code in _ESCAPES:
                char, step = _ESCAPES[code], 2
            elif width and len(digits) == width and i + 2 + width <= b and _HEX.fullmatch(digits):
                char, step = chr(int(digits, 16)), 2 + width
        chars.append(char)
        froms.append(i)
        i += step
    return "".join(chars), froms, [*froms[1:], b]
