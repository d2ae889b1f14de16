"""(internal) Places in a user's write order, shared by the backends' ``write_places``.

A backend knows each record's insertion key (SQLite's rowid, PostgreSQL's ``seq``), but keys are shared by
every user of the store, so two of one user's records far apart in keys may have few of that user's records
between them. The backend counts the user's records in each gap between consecutive keys, reading at most
``window + 1`` of them (a gap that long already puts everything on its two sides out of reach), and
``places`` turns those counts into places whose differences are exact up to ``window``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import NamedTuple

__all__ = ["Gap", "gaps", "places"]


class Gap(NamedTuple):
    """Keys ``lo`` and ``hi`` of two records adjacent among those asked about, ``after``: the index of ``lo``."""

    after: int
    lo: int
    hi: int


def gaps(keyed: Sequence[tuple[str, int]]) -> list[Gap]:
    """The gaps between consecutive keys of ``keyed`` (sorted by key) that may hold other records."""
    return [Gap(i, a[1], b[1]) for i, (a, b) in enumerate(itertools.pairwise(keyed)) if b[1] - a[1] > 1]


def places(keyed: Sequence[tuple[str, int]], counted: Mapping[int, int], window: int) -> dict[str, int]:
    """Each id's place: the one before it, plus one, plus the user's records counted in the gap between.

    ``counted[i]`` is that count for the gap after ``keyed[i]``, at most ``window + 1``; a gap not counted
    holds none.
    """
    out: dict[str, int] = {}
    place = 0
    for i, (rid, _key) in enumerate(keyed):
        if i:
            place += 1 + min(counted.get(i - 1, 0), window + 1)
        out[rid] = place
    return out
