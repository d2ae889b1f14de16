"""(internal) Reading JSON and JSON Lines: a value too deeply nested to read is a ValidationError naming the input."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from tiermem.errors import ValidationError

__all__ = ["json_lines", "load_json", "read_json"]


def _too_deep(where: str, text: str | None) -> ValidationError:
    given = None if text is None else f"{len(text)} characters"
    limit = f"about {sys.getrecursionlimit()} levels of nesting"
    return ValidationError(where, "nests arrays or objects too deeply to read", given=given, limit=limit)


def load_json(text: str, where: str) -> Any:
    """``json.loads(text)``; JSONDecodeError as json raises it (callers word it), ValidationError when too deep."""
    try:
        return json.loads(text)
    except RecursionError:  # the decoder recurses once per level: no input may exhaust the stack
        raise _too_deep(where, text) from None


def read_json(fh: IO[str], where: str) -> Any:
    """``json.load(fh)`` with ``load_json``'s errors."""
    return load_json(fh.read(), where)


def json_lines(lines: Iterable[str], where: Callable[[int], str]) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each non-blank line; a line that is not JSON raises, named by ``where(number)``."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = load_json(line, where(number))
        except json.JSONDecodeError as exc:
            raise ValidationError(where(number), f"is not valid JSON ({exc.msg})", given=line[:60]) from None
        yield number, value
