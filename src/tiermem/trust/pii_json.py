"""(internal) The string and number tokens of a JSON text, so PII is looked for in values, not in JSON's escapes.

In JSON text a line break is the two characters ``\\n``: read as text, the ``n`` sits against the value on the next
line and hides it from detectors that want no letter before a value. Reading each string as its decoded value
avoids that, and a masked value written back JSON-encoded keeps the text valid JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = ["JsonToken", "json_tokens"]

# In valid JSON every quote outside a string opens one, so these find exactly the strings and the numbers.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?', re.DOTALL)


@dataclass(frozen=True, slots=True)
class JsonToken:
    """One string or number in a JSON text: where its source is, and its value as text."""

    start: int
    end: int
    value: str  # a string's decoded value, or a number as written
    is_string: bool


def json_tokens(text: str) -> list[JsonToken] | None:
    """The strings and numbers of ``text`` if it is a JSON object, array or string; None for any other text."""
    if not text.lstrip().startswith(("{", "[", '"')):
        return None
    try:
        json.loads(text)
    except ValueError:
        return None
    tokens: list[JsonToken] = []
    for m in _TOKEN.finditer(text):
        source = m.group(0)
        is_string = source.startswith('"')
        tokens.append(JsonToken(m.start(), m.end(), json.loads(source) if is_string else source, is_string))
    return tokens
