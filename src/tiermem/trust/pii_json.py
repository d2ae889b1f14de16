"""(internal) The layers of a text that holds JSON, each read as a model reads it: strings decoded, keys as labels.

Read raw, JSON hides values three ways: a line break is the two characters ``\\n``, whose ``n`` sits against the
value on the next line; a value is often named only by its key (``{"date_of_birth": "12/03/1984"}``); and an
HTTP tool's body is a string holding JSON, one encoding deeper. So a text is read in layers: the text itself, and
for each JSON value in it (the whole text, or one after a prefix such as ``Result:``) each string decoded, with
the key it is stored under as its label, and each number. A string that holds JSON is read the same way, down to
``MAX_DEPTH`` encodings. Each character of a layer knows the stretch of the outer text written for it, so a value
found in a layer names the stretch to replace, and the rest of the text, escapes included, stays as written.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tiermem.trust.pii_keys import FIELD, NEITHER, VALUE, field_role, may_label
from tiermem.trust.pii_near import NearValue, near_values

__all__ = ["MAX_DEPTH", "Layer", "encode", "is_json", "layers"]

MAX_DEPTH = 4  # encodings read through: JSON in a string in JSON in a string...; deeper strings are read raw
# A bracket that starts no JSON value is read past until the JSON breaks: the failed tries together may read this
# many times the text (plus a little), so a text of many unclosed brackets does not cost the square of its length;
# past that, the rest of the text is left to the text reading.
_TRY_READS = 4

_DECODER = json.JSONDecoder()
_OPEN = re.compile(r"[{\[]")
_MAY_NEST = re.compile(r'[{\[":=]')  # a JSON value opens with one of these, a near-JSON pair holds ":" or "="
# Inside a valid JSON value every quote outside a string opens one, so these find exactly its parts.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|[{}\[\],]', re.DOTALL)
_BRACKET = re.compile(r'"(?:[^"\\\n]|\\.)*"|[{}\[\]]')
_PAIRS = {"}": "{", "]": "["}
_BRACE = re.compile(r"[{}]")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_JSON_SPACE = " \t\n\r"


@dataclass(frozen=True, slots=True)
class Layer:
    """One text to read: the outer text, or a JSON string (decoded) or number within it."""

    text: str
    starts: Sequence[int]  # for each character of ``text``, where the outer text's stretch for it starts
    ends: Sequence[int]  # ... and where it ends
    depth: int  # how many JSON string encodings wrap ``text`` in the outer text
    label: str | None = None  # the key the value is stored under (an array's elements take the array's key)
    parent: str | None = None  # the key the object or array holding the value is stored under
    siblings: tuple[str, ...] = ()  # what the naming fields beside a "value" field say it is ({"label": "DOB", ...})
    holes: tuple[tuple[int, int], ...] = ()  # stretches of ``text`` that are JSON values, read in their own layers
    number: bool = False  # a JSON number: masked, it becomes a string

    def source(self, start: int, end: int) -> tuple[int, int]:
        """The stretch of the outer text written for ``text[start:end]`` (which is not empty)."""
        return self.starts[start], self.ends[end - 1]

    def outside_holes(self, start: int, end: int) -> bool:
        """``text[start:end]`` meets none of the JSON values read in their own layers (holes are sorted and apart,
        so one look at the last hole that starts before ``end`` answers: unmasking a long reply stays linear)."""
        before = bisect_left(self.holes, (end,))
        return before == 0 or self.holes[before - 1][1] <= start

    def has_text(self) -> bool:
        """Something other than JSON space lies outside the holes (a whole-JSON text has nothing of its own)."""
        if not self.holes:
            return bool(self.text.strip(_JSON_SPACE))
        at = 0
        for start, end in (*self.holes, (len(self.text), len(self.text))):
            if self.text[at:start].strip(_JSON_SPACE):
                return True
            at = end
        return False


def layers(text: str) -> list[Layer]:
    """``text`` itself, then, within each JSON value in it, its strings (decoded, recursively) and numbers."""
    return _read(text, range(len(text)), range(1, len(text) + 1), 0, None)


def is_json(text: str) -> bool:
    """``text`` is one JSON value (surrounding space allowed)."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def encode(text: str, depth: int) -> str:
    """``text`` as written inside ``depth`` JSON string encodings."""
    for _ in range(depth):
        text = json.dumps(text, ensure_ascii=False)[1:-1]
    return text


def _read(
    text: str,
    starts: Sequence[int],
    ends: Sequence[int],
    depth: int,
    label: str | None,
    parent: str | None = None,
    siblings: tuple[str, ...] = (),
) -> list[Layer]:
    """``text`` (its characters written at ``starts``/``ends`` of the outer text), the layers of its JSON, and the
    values of its near-JSON (``pii_near``) read after their keys at this layer's depth."""
    if _MAY_NEST.search(text) is None:  # most strings of a tool result: no JSON and no near-JSON in them
        return [Layer(text, starts, ends, depth, label, parent, siblings)]
    values = _json_values(text) if depth < MAX_DEPTH else []
    near = list(near_values(text, tuple(values)))
    holes = tuple(sorted([*values, *((v.start, v.end) for v in near)]))
    out = [Layer(text, starts, ends, depth, label, parent, siblings, holes)]
    for index, value in enumerate(near):
        out.append(
            Layer(
                value.text,
                [starts[i] for i in value.froms],
                [ends[i - 1] for i in value.tos],
                depth,
                value.label,
                siblings=_near_siblings(text, near, index),
                number=value.number,
            )
        )
    for start, end in values:
        for a, b, name, outer, names, is_string in _tokens(text, start, end):
            if is_string:
                decoded, froms, tos = _decode(text, a, b)
                if isinstance(froms, range):  # no escapes: the decoded string is a run of the source
                    run = slice(froms.start, froms.stop)
                    out += _read(decoded, starts[run], ends[run], depth + 1, name, outer, names)
                else:
                    froms_at, tos_at = [starts[i] for i in froms], [ends[i - 1] for i in tos]
                    out += _read(decoded, froms_at, tos_at, depth + 1, name, outer, names)
            else:
                out.append(Layer(text[a:b], starts[a:b], ends[a:b], depth, name, outer, names, number=True))
    return out


def _near_siblings(text: str, near: list[NearValue], index: int) -> tuple[str, ...]:
    """What the naming pairs right before and after a near-JSON value under a key such as "value" say, where no
    brace stands between them (``{'label': 'DOB', 'value': ...}``)."""
    value = near[index]
    if field_role(value.label) is not VALUE:
        return ()
    beside = [near[i] for i in (index - 1, index + 1) if 0 <= i < len(near)]
    return tuple(
        other.text
        for other in beside
        if field_role(other.label) is FIELD
        and len(other.text) <= _FIELD_NAME
        and may_label(other.text)
        and _BRACE.search(text, min(other.end, value.end), max(other.start, value.start)) is None
    )


def _json_values(text: str) -> list[tuple[int, int]]:
    """Where JSON values are in ``text``: the whole text if it is one, else each object or array holding a string.

    An object or array of numbers alone has no escapes to hide a value behind, and read as text it keeps its
    shape (``[4111111111111111]`` in prose stays a bracketed number).
    """
    body = text.strip(_JSON_SPACE)
    if body[:1] in ("{", "[", '"') and is_json(body):
        lead = len(text) - len(text.lstrip(_JSON_SPACE))
        return [(lead, lead + len(body))]
    if _OPEN.search(text) is None:  # most strings of a tool result: nothing to try
        return []
    found: list[tuple[int, int]] = []
    closed = _closed_brackets(text)
    at, budget, closed_budget = 0, _TRY_READS * len(text) + 4096, _TRY_READS * len(text) + 4096
    while (m := _OPEN.search(text, at)) is not None:
        # A bracket some close answers is tried on its own budget, so unclosed ones before it (a list cut off at
        # a length limit) cannot spend the reads a whole JSON value later in the text needs.
        is_closed = m.start() in closed
        if (closed_budget if is_closed else budget) <= 0:
            at = m.start() + 1
            continue
        try:
            value, end = _DECODER.raw_decode(text, m.start())
        except json.JSONDecodeError as exc:
            cost = exc.pos - m.start() + 1
        except RecursionError:
            cost = len(text) - m.start()
        else:
            if _holds_string(value):
                found.append((m.start(), end))
            at = end
            continue
        if is_closed:
            closed_budget -= cost
        else:
            budget -= cost
        at = m.start() + 1
    return found


def _closed_brackets(text: str) -> set[int]:
    """Where a ``{`` or ``[`` stands that a close of its kind answers, strings (on one line) read as wholes."""
    closed: set[int] = set()
    stack: list[tuple[str, int]] = []
    for m in _BRACKET.finditer(text):
        token = m.group(0)
        if token in "{[":
            stack.append((token, m.start()))
        elif token in "}]":
            if stack and stack[-1][0] == _PAIRS[token]:
                closed.add(stack.pop()[1])
            else:
                stack.clear()
    return closed


def _holds_string(value: object) -> bool:
    """A decoded JSON value has a string in it (a key counts)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str) or (isinstance(item, dict) and item):
            return True
        if isinstance(item, list):
            todo += item
    return False


# A field's name longer than this is prose, not a label for the field beside it.
_FIELD_NAME = 60
Token = tuple[int, int, str | None, str | None, tuple[str, ...], bool]


def _tokens(text: str, start: int, end: int) -> Iterator[Token]:
    """Each string and number of the JSON value at ``text[start:end]``: where, its label, the key of the object or
    array holding it, what the naming fields beside it say (``pii_keys.field_role``), whether a string.

    A key is read alone (label None); a value takes its key as label, and an array's elements take the array's; a
    value in an object stored under a key has that key as its parent (``{"passport": {"number": ...}}``). A value
    under a key such as "value" is given when its object closes, with the short strings of the object's naming
    fields ("label", "field", "name"...), which may stand before or after it.
    """
    # each open container: an object?, the key it is stored under (its elements' label), that key's own parent,
    # and for an object its values waiting for their siblings' names and its naming fields' strings as written
    stack: list[tuple[bool, str | None, str | None, list[Token], list[str]]] = []
    key: str | None = None  # the innermost object's current key; None where the next string is a key
    role = NEITHER  # what the current key's value is to its siblings
    for m in _TOKEN.finditer(text, start, end):
        token = m.group(0)
        in_object = bool(stack) and stack[-1][0]
        if in_object:
            label, parent = key, stack[-1][1]
        else:
            label, parent = (stack[-1][1], stack[-1][2]) if stack else (None, None)
        if token in ("{", "["):
            stack.append((token == "{", label, parent, [], []))
            key = None
        elif token in ("}", "]"):
            _, _, _, waiting, fields = stack.pop()
            if waiting:  # the names are read only where a value waits for them
                names = tuple(said for said in map(_string, fields) if may_label(said))
                for a, b, name, outer, _, is_string in waiting:
                    yield a, b, name, outer, names, is_string
        elif token == ",":
            if in_object:
                key = None
        elif token.startswith('"'):
            if in_object and key is None:
                key = _string(token)
                role = field_role(key)
                yield m.start(), m.end(), None, None, (), True
            elif in_object and role is VALUE:
                stack[-1][3].append((m.start(), m.end(), label, parent, (), True))
            else:
                if in_object and role is FIELD and len(token) <= _FIELD_NAME:
                    stack[-1][4].append(token)
                yield m.start(), m.end(), label, parent, (), True
        elif in_object and role is VALUE:
            stack[-1][3].append((m.start(), m.end(), label, parent, (), False))
        else:
            yield m.start(), m.end(), label, parent, (), False


def _string(token: str) -> str:
    """A JSON string token decoded."""
    return str(json.loads(token)) if "\\" in token else token[1:-1]


def _decode(text: str, a: int, b: int) -> tuple[str, Sequence[int], Sequence[int]]:
    """The JSON string at ``text[a:b]`` decoded, with where in ``text`` each of its characters starts and ends."""
    if "\\" not in text[a + 1 : b - 1]:
        return text[a + 1 : b - 1], range(a + 1, b - 1), range(a + 2, b)
    chars: list[str] = []
    froms: list[int] = []
    tos: list[int] = []
    i, stop = a + 1, b - 1
    while i < stop:
        escape = text.find("\\", i, stop)
        if escape < 0:
            escape = stop
        if escape > i:  # the run up to the next escape: each character stands for itself
            chars.append(text[i:escape])
            froms += range(i, escape)
            tos += range(i + 1, escape + 1)
        if escape == stop:
            break
        i = escape
        code = text[i + 1]
        if code != "u":
            char, step = _ESCAPES[code], 2
        else:
            char, step = chr(int(text[i + 2 : i + 6], 16)), 6
            low = text[i + 8 : i + 12] if text[i + 6 : i + 8] == "\\u" else ""
            if "\ud800" <= char <= "\udbff" and low and 0xDC00 <= int(low, 16) <= 0xDFFF:
                char, step = chr(0x10000 + ((ord(char) - 0xD800) << 10) + int(low, 16) - 0xDC00), 12
        chars.append(char)
        froms.append(i)
        tos.append(i + step)
        i += step
    return "".join(chars), froms, tos
