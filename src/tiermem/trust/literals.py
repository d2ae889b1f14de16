"""(internal) The literal strings a regular expression cannot match without: a cheap test before a search.

``needed(pattern)`` reads the compiled pattern's parse tree and returns a few strings one of which every match
contains, or None when no short list says so. ``str.__contains__`` finds a literal far faster than ``re``
searches a pattern that opens with ``\\b`` and an alternation (``re`` only skips ahead on a literal prefix), so a
window holding none of them is passed over without a search, and with the same answer: no match.

Only what a match itself consumes counts. Lookarounds and anchors consume nothing (an empty string in a
concatenation), a repeat that may occur zero times and any class of characters (``\\w``, ``[^x]``, ``.``) promise
no literal, and a pattern that ignores case (a flag on it or on a group) gets no gate at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as parser  # type: ignore[attr-defined]
from typing import Any

__all__ = ["gate", "may_match", "needed"]

_MOST_STRINGS = 64  # a longer list costs about as much to look for as the search it would spare
# To choose between gates only (no answer rests on them): a substring test costs a small share of a search, and a
# longer string is in fewer windows of a few sentences, a common word in nearly all.
_TEST_COST = 0.02
_ODDS = (0.9, 0.6, 0.3, 0.1, 0.03)
_COMMON_ODDS = 0.9
_MOST_EXACT = 64  # alternatives kept when concatenating exact pieces
_LONGEST = 24
_EMPTY = frozenset({""})
_STRING = object()  # a run of single characters, joined
# Words nearly every window holds: a gate on them passes nearly every window, so any other choice is better.
_COMMON = frozenset("a an and are be for in is it of on the this that to you your all any not do with".split())
_ZERO_WIDTH = {sre.AT, sre.ASSERT, sre.ASSERT_NOT}
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT}

# What a piece of a pattern promises: ``exact`` is every string it can match (a short finite list) or None;
# ``needs`` is strings one of which every match contains, or None for no promise.
_Piece = tuple[frozenset[str] | None, frozenset[str] | None]


class _IgnoresCase(Exception):
    """A group turns on IGNORECASE: literals say nothing about what it matches."""


@lru_cache(maxsize=4096)  # the same lists are weighed again at every step of a sequence
def _cost(strings: frozenset[str] | None) -> float:
    """The expected cost of a gate, in searches: its substring tests, plus the search when any string is there."""
    if not strings or "" in strings:
        return float("inf")
    absent = 1.0
    for s in strings:
        absent *= 1 - (_COMMON_ODDS if s.strip() in _COMMON else _ODDS[min(len(s), len(_ODDS)) - 1])
    return _TEST_COST * len(strings) + 1 - absent


def _best(*choices: frozenset[str] | None) -> frozenset[str] | None:
    """The strongest of several lists every match must satisfy (each alone suffices)."""
    found = min(choices, key=_cost, default=None)
    return None if _cost(found) == float("inf") else found


def _charset(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The characters a class matches, when it lists only single characters."""
    chars: set[str] = set()
    for op, av in items:
        if op is not sre.LITERAL:
            return None
        chars.add(chr(av))
    return frozenset(chars) if len(chars) <= _MOST_EXACT else None


def _concat(left: frozenset[str], right: frozenset[str]) -> frozenset[str] | None:
    if left == _EMPTY:
        return right
    product = frozenset(a + b for a in left for b in right)
    # A longer string gates no better, and joining a long run letter by letter would cost its square.
    return product if len(product) <= _MOST_EXACT and max(map(len, product)) <= _LONGEST else None


def _sequence(items: Iterable[tuple[Any, Any]]) -> _Piece:
    """A concatenation: adjacent exact pieces joined, and the strongest promise of any run or piece."""
    exact: frozenset[str] | None = frozenset({""})
    run: frozenset[str] | None = frozenset({""})  # the exact run being joined
    needs: frozenset[str] | None = None
    for op, av in _letters_joined(items):
        piece_exact, piece_needs = _piece(op, av)
        needs = _best(needs, piece_needs)
        joined = _concat(run, piece_exact) if run is not None and piece_exact is not None else None
        if joined is not None:
            run = joined
            needs = _best(needs, run)
        else:
            run = piece_exact
        exact = _concat(exact, piece_exact) if exact is not None and piece_exact is not None else None
    return exact, needs


def _letters_joined(items: Iterable[tuple[Any, Any]]) -> Iterable[tuple[Any, Any]]:
    """The nodes of a sequence, each run of single characters as one string (``_STRING``): far fewer to join."""
    letters: list[str] = []
    for op, av in items:
        if op is sre.LITERAL:
            letters.append(chr(av))
            continue
        if letters:
            yield _STRING, "".join(letters)
            letters = []
        yield op, av
    if letters:
        yield _STRING, "".join(letters)


def _piece(op: Any, av: Any) -> _Piece:
    """What one node of the parse tree promises."""
    if op is _STRING:
        one = frozenset({av})
        return one, one
    if op in _ZERO_WIDTH:
        return frozenset({""}), None
    if op is sre.IN:
        chars = _charset(av)
        return chars, chars
    if op is sre.SUBPATTERN:
        _group, add_flags, _del_flags, body = av
        if add_flags & re.IGNORECASE:
            raise _IgnoresCase
        return _sequence(body)
    if op is sre.ATOMIC_GROUP:
        return _sequence(av)
    if op is sre.BRANCH:
        pieces = [_sequence(branch) for branch in av[1]]
        exacts = [e for e, _ in pieces]
        exact = frozenset().union(*exacts) if all(e is not None for e in exacts) else None  # type: ignore[arg-type]
        needs_each = [n if n is not None else e for e, n in pieces]
        needs = frozenset().union(*needs_each) if all(n is not None for n in needs_each) else None  # type: ignore[arg-type]
        return (exact if exact is None or len(exact) <= _MOST_EXACT else None), needs
    if op in _REPEATS:
        low, _high, body = av
        if low < 1:
            return None, None
        inner_exact, inner_needs = _sequence(body)
        return None, _best(inner_needs, inner_exact)
    return None, None  # any character, a class of characters, a group reference, a conditional


def needed(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """A few strings one of which every match of ``pattern`` contains, or None when there is no short such list."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        exact, needs = _sequence(parser.parse(pattern.pattern, pattern.flags))
    except _IgnoresCase:
        return None
    best = _best(needs, exact)
    if best is None or len(best) > _MOST_STRINGS:
        return None
    return tuple(sorted(best, key=len, reverse=True))


def gate(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """Whether ``pattern`` may match in a text: False only when the text lacks every string it needs."""
    strings = needed(pattern)
    if strings is None:
        return lambda _text: True
    return lambda text: any(map(text.__contains__, strings))


# Gates of the patterns ``may_match`` was asked about, by identity: hashing a pattern hashes its whole code, which
# costs more than the search spared. The pattern is kept beside its gate so that its id is never reused.
_GATES: dict[int, tuple[re.Pattern[str], Callable[[str], bool]]] = {}


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` may match in ``text`` (or in any part of it): False only when it surely does not."""
    entry = _GATES.get(id(pattern))
    if entry is None or entry[0] is not pattern:
        entry = _GATES[id(pattern)] = (pattern, gate(pattern))
    return entry[1](text)
