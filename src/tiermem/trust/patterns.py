"""(internal) What a directive-shape signal is: a named detector that finds its evidence and a weight in [0, 1]."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Finding", "Signal", "noisy_or", "patterns", "words"]

Finding = tuple[float, str]  # (weight, the text that fired)


@dataclass(frozen=True, slots=True)
class Signal:
    """One detector: a name for the reason and a function that finds its evidence and weight.

    ``in_roles``: an operator's own role description says this too (it addresses the assistant, orders its
    answers, speaks of the user), so in one that adds nothing a hijacker would it does not count
    (``trust.frames``).
    """

    name: str
    find: Callable[[str], Finding | None]
    in_roles: bool = False


def words(*alternatives: str) -> str:
    """A non-capturing group of regular-expression alternatives."""
    return r"(?:" + "|".join(alternatives) + r")"


def patterns(table: Sequence[tuple[re.Pattern[str], float]]) -> Callable[[str], Finding | None]:
    """The strongest pattern's weight; each other distinct pattern adds half its own (same signal, more evidence)."""

    def find(text: str) -> Finding | None:
        fired = sorted(((w, m.group(0)) for p, w in table if (m := p.search(text))), reverse=True)
        if not fired:
            return None
        weight, excerpt = fired[0]
        return noisy_or((weight, *(w / 2 for w, _ in fired[1:]))), excerpt

    return find


def noisy_or(weights: Iterable[float]) -> float:
    """1 - prod(1 - w): independent pieces of evidence, none of which alone need be conclusive."""
    remaining = 1.0
    for weight in weights:
        remaining *= 1.0 - weight
    return 1.0 - remaining
