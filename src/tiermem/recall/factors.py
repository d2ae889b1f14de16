"""Re-scoring factors: each multiplies a fused score by the contribution of its own score part.

A factor is any object with a ``name``, a ``flag``, ``span`` and ``parts`` (the ``ScoreFactor`` protocol), and
holds its own parameters (``Trust(floor=0.5)``). ``RecallPolicy.factors`` lists the ones that rank the fused list,
in order (``DEFAULT_FACTORS``: recency, trust, first hand, named speaker, named day); ``RecallPolicy.guards`` the
ones that may only demote, applied to the finished ranking from the top down as far as the k best need
(``DEFAULT_GUARDS``: quarantine, suspicious). Add a factor with ``policy.with_factor(MyFactor())``, drop one of
either kind with ``policy.without_factor("recency")``. A factor reads the query parsed once (``Question``): its
text, ``now``, and its English reading (``english``, None when it is not English: the English-only factors,
first hand and named day, then give no part).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from tiermem.english.named_days import NamedDays
from tiermem.recall.query import Query
from tiermem.recall.speakers import speaker_of
from tiermem.recall.traits import is_quarantined, verdict
from tiermem.trust.injection import (
    QUARANTINE_FACTOR,
    QUARANTINE_TAG,
    SUSPICIOUS_FACTOR,
    SUSPICIOUS_TAG,
    ScanLevel,
)
from tiermem.types import MemoryRecord, MemoryType, ScorePart, SourceKind

__all__ = [
    "DEFAULT_FACTORS",
    "DEFAULT_GUARDS",
    "FirstHand",
    "NamedDay",
    "Quarantine",
    "Question",
    "Recency",
    "ScoreFactor",
    "Speaker",
    "Suspicious",
    "Trust",
    "named_speaker",
]

Question = Query
"""What a factor knows of a search: the query parsed once (``text``, ``now``, ``terms``, ``english``, ``vector``)."""


class ScoreFactor(Protocol):
    """One re-scoring factor.

    ``parts`` gives records a part whose ``contribution`` multiplies their score (a record without a part keeps
    its score) and is shown on the hit; a hit given a part also gets the factor's ``flag``, if any. ``span`` is
    how many times the factor can move one record's score against another's for this question (1: it does not
    apply): the search re-scores a short list of the best fused records while the spans' product stays small,
    every candidate otherwise (see ``recall.pipeline.SHORTLIST_SPAN``). When unsure, return ``math.inf``.

    A factor may also have ``explains_only(question) -> bool``: true when, for this question, it gives every
    record a part whose contribution is exactly 1 and which depends on that record alone (``Recency`` at weight
    0). Such parts change no score, so recall makes them only for the hits it returns.
    """

    @property
    def name(self) -> str:
        """Names the factor and its score part."""
        ...

    @property
    def flag(self) -> str | None:
        """A flag for every hit this factor gives a part, or None."""
        ...

    def span(self, question: Question) -> float:
        """How far, at most, this factor moves one record's score against another's (≥ 1)."""
        ...

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        """The part of each record (by id) this factor re-scores; ``records`` are all the search re-scores."""
        ...


def _span(a: float, b: float) -> float:
    """How many times the larger of two multipliers is the smaller (inf when one is not positive)."""
    low, high = min(a, b), max(a, b)
    return high / low if low > 0 else math.inf


def _halved(elapsed: float, half_life: float) -> float:
    """What is left of 1 after ``elapsed`` at ``half_life`` (nothing when the half-life is not positive)."""
    return math.pow(2.0, -elapsed / half_life) if half_life > 0 else 0.0


def _weighted_or_not(name: str, weight: float) -> tuple[ScorePart, ScorePart]:
    """The two parts of a factor that weighs some records by ``weight`` and leaves the rest at 1."""
    return ScorePart(name, None, None, weight), ScorePart(name, None, None, 1.0)


def _demoted(
    name: str, factor: float, records: Mapping[str, MemoryRecord], flagged: Callable[[MemoryRecord], bool]
) -> dict[str, ScorePart]:
    """A guard's parts: every flagged record keeps ``factor`` of its score."""
    demoted = [rid for rid, r in records.items() if flagged(r)]
    if not demoted:  # the usual case: no part to make
        return {}
    part = ScorePart(name, None, None, factor)
    return dict.fromkeys(demoted, part)


@dataclass(frozen=True, slots=True)
class Recency:
    """``1 + weight * 2^(-age / half_life_days)``; age from ``valid_from`` (off at weight 0, the default)."""

    weight: float = 0.0
    half_life_days: float = 30.0
    name = "recency"
    flag = None

    def span(self, question: Question) -> float:
        return _span(1.0, 1.0 + self.weight)

    def explains_only(self, question: Question) -> bool:
        """Whether every record's part has a contribution of exactly 1 (at weight 0 the recency only explains)."""
        return self.weight == 0.0

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        weight = self.weight
        half_life = self.half_life_days * 86400.0
        out: dict[str, ScorePart] = {}
        for rid, record in records.items():
            age = max(0.0, (question.now - record.valid_from).total_seconds())
            recency = _halved(age, half_life)
            out[rid] = ScorePart(self.name, None, recency, 1.0 + weight * recency)
        return out


@dataclass(frozen=True, slots=True)
class Trust:
    """``floor + (1 - floor) * trust``: third-party text counts less than first-party speech."""

    floor: float = 0.5
    name = "trust"
    flag = None

    def span(self, question: Question) -> float:
        return _span(self.floor, 1.0)

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        floor = self.floor
        # Parts are immutable and trust takes few values: one part per value (a zero of either sign, or a
        # value not a float, gets its own).
        by_trust: dict[float, ScorePart] = {}
        out: dict[str, ScorePart] = {}
        for rid, r in records.items():
            trust = r.trust
            part = by_trust.get(trust) if trust and type(trust) is float else None
            if part is None:
                part = ScorePart(self.name, None, trust, floor + (1.0 - floor) * trust)
                if trust and type(trust) is float:
                    by_trust[trust] = part
            out[rid] = part
        return out


@dataclass(frozen=True, slots=True)
class FirstHand:
    """For an English question about the user: the agent's events times ``weight``, every other record 1."""

    weight: float = 0.8
    name = "first_hand"
    flag = None

    def span(self, question: Question) -> float:
        return _span(self.weight, 1.0) if self._applies(question) else 1.0

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        if not self._applies(question):
            return {}
        agents, others = _weighted_or_not(self.name, self.weight)
        return {rid: agents if _agents_event(r) else others for rid, r in records.items()}

    def _applies(self, question: Question) -> bool:
        return self.weight != 1.0 and question.english is not None and question.english.about_the_user


def _agents_event(record: MemoryRecord) -> bool:
    return record.type is MemoryType.EPISODIC and record.source.kind is SourceKind.AGENT


@dataclass(frozen=True, slots=True)
class Speaker:
    """For a question naming one of the records' speakers: other named speakers' events times ``weight``."""

    weight: float = 0.9
    name = "speaker"
    flag = None

    def span(self, question: Question) -> float:
        # Whether the question names a speaker is known only from the records, so the span is what it may be.
        return _span(self.weight, 1.0)

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        weight = self.weight
        if weight == 1.0:
            return {}
        said = {rid: speaker_of(record) for rid, record in records.items()}
        speaker = _named(question.text, said.values())
        if speaker is None:
            return {}
        others, same = _weighted_or_not(self.name, weight)
        out: dict[str, ScorePart] = {}
        for rid, record in records.items():
            said_by = said[rid]
            other = (record.type is MemoryType.EPISODIC or said_by != record.source.speaker) and said_by not in (
                None,
                speaker,
            )
            out[rid] = others if other else same
        return out


def named_speaker(query: str, records: Iterable[MemoryRecord]) -> str | None:
    """The one speaker of these records whom the question names as a whole word (case kept), else None."""
    return _named(query, (speaker_of(r) for r in records))


def _named(query: str, speakers: Iterable[str | None]) -> str | None:
    """The one of ``speakers`` whom ``query`` names as a whole word (case kept), else None."""
    names = {name for name in speakers if name}
    named = [name for name in names if _whole_word(name).search(query)]
    return named[0] if len(named) == 1 else None


@functools.lru_cache(maxsize=1024)
def _whole_word(name: str) -> re.Pattern[str]:
    """``name`` as a whole word (a scope's speakers are few, and asked about on every question)."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


@dataclass(frozen=True, slots=True)
class NamedDay:
    """For an English question naming days: ``1 + weight * 2^(-days / half_life_days)``, days from them."""

    weight: float = 1.0
    half_life_days: float = 1.0
    name = "named_day"
    flag = None

    def span(self, question: Question) -> float:
        return 1.0 if self._days(question) is None else _span(1.0, 1.0 + self.weight)

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        days = self._days(question)
        if days is None:
            return {}
        weight = self.weight
        half_life = max(self.half_life_days, 1e-9)
        out: dict[str, ScorePart] = {}
        for rid, record in records.items():
            distance = _days_apart(days, record, question.now)
            out[rid] = ScorePart(self.name, None, float(distance), 1.0 + weight * _halved(distance, half_life))
        return out

    def _days(self, question: Question) -> NamedDays | None:
        if self.weight <= 0 or question.english is None:
            return None
        return question.english.named_days


def _days_apart(days: NamedDays, record: MemoryRecord, now: datetime) -> int:
    """Days between the named days and a record's: an event's day, a fact's whole validity; in now's zone."""
    zone = now.tzinfo
    first = record.valid_from.astimezone(zone).date()
    if record.type is MemoryType.EPISODIC:
        return days.distance(first)
    until = record.valid_to if record.valid_to is not None and record.valid_to < now else now
    return days.distance(first, until.astimezone(zone).date())


@dataclass(frozen=True, slots=True)
class Quarantine:
    """A guard: a quarantined note keeps ``factor`` of its score (flagged).

    Quarantined means the verdict stored at write time says so (tag ``quarantined``); a note without a stored
    verdict (written before write-time scanning, or from a source that is not scanned) is judged when read, as
    it always was. Default recall leaves stored-quarantined notes out altogether (``include_quarantined``);
    this demotes them when they are asked for, and the never-judged ones the read-time check flags. As a guard
    it judges only the records that can reach the k best, which bounds the cost of the read-time check.
    """

    factor: float = QUARANTINE_FACTOR
    name = "quarantine"
    flag = QUARANTINE_TAG

    def span(self, question: Question) -> float:
        # It demotes only the rare flagged note, and the short list keeps at least 2k records beyond the k
        # asked for to take its place (as the agent's tools fetched 2k hits for the same reason).
        return 1.0

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        return _demoted(self.name, self.factor, records, is_quarantined)


DEFAULT_FACTORS: tuple[ScoreFactor, ...] = (Recency(), Trust(), FirstHand(), Speaker(), NamedDay())
"""The factors of ``RecallPolicy()``, in the order their contributions multiply the score."""


@dataclass(frozen=True, slots=True)
class Suspicious:
    """A guard: a note the write path found suspicious (tag ``suspicious``) keeps ``factor`` of its score (flagged)."""

    factor: float = SUSPICIOUS_FACTOR
    name = "suspicious"
    flag = SUSPICIOUS_TAG

    def span(self, question: Question) -> float:
        return 1.0  # reads a stored verdict; demotes like the quarantine guard

    def parts(self, question: Question, records: Mapping[str, MemoryRecord]) -> Mapping[str, ScorePart]:
        return _demoted(self.name, self.factor, records, _suspicious)


def _suspicious(record: MemoryRecord) -> bool:
    return verdict(record) is ScanLevel.SUSPICIOUS


DEFAULT_GUARDS: tuple[ScoreFactor, ...] = (Quarantine(), Suspicious())
"""The guards of ``RecallPolicy()``: applied after ranking, as the agent's tools applied quarantine."""
