"""(internal) Reading JSON Lines: each non-blank line's number and value, a bad line named in the error."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tiermem.errors import ValidationError

__all__ = ["json_lines"]


def json_lines(lines: Iterable[str], where: Callable[[int], str]) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each non-blank line; a line that is not JSON raises, named by ``where(number)``."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(where(number), f"is not valid JSON ({exc.msg})", given=line[:60]) from None
        yield number, value
