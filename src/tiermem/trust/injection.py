"""Trust: score text for directive shape (prompt injection) and down-rank quarantined notes.

``injection_score`` is the one entry point. It looks for independent signals (``trust.signals_en`` and, for
Spanish, French, German, Chinese, Japanese and Russian, ``trust.signals_intl``), each a weight in [0, 1] found
by its own detector, combined with a noisy-OR within windows of the text, and scores again what markup hides
or an encoding disguises (``trust.scorer``, ``trust.hidden``). One weak signal ("your instructions", an
urgent "send") stays below the threshold; a strong one (override phrasing, chat-template tokens) or two weak
ones together cross it. Text that merely mentions instructions ("the recipe instructions say to bake for 20
minutes") triggers nothing, because every detector wants a target (previous/your/system instructions, every
reply) or an addressee (you, the AI).

The verdict has three levels (``ScanLevel``): ``clean`` below ``SUSPICIOUS_THRESHOLD``, ``suspicious`` below
``INJECTION_THRESHOLD``, ``quarantine`` at or above it. The write path applies its own thresholds per source
(``write.scan.ScanPolicy``); these are the defaults.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from enum import StrEnum

from tiermem.trust.frames import AT_MOST_FLAGGED, FRAMED_CEILING
from tiermem.trust.read_time import read_time_score
from tiermem.trust.scorer import score_text
from tiermem.types import MemoryRecord

__all__ = [
    "INJECTION_THRESHOLD",
    "QUARANTINE_FACTOR",
    "QUARANTINE_TAG",
    "SUSPICIOUS_FACTOR",
    "SUSPICIOUS_TAG",
    "SUSPICIOUS_THRESHOLD",
    "InjectionVerdict",
    "ScanLevel",
    "injection_score",
    "level_of",
    "quarantined",
    "stored_level",
]

INJECTION_THRESHOLD = 0.5
"""A verdict at or above this is directive-shaped: quarantined at write time, flagged at read time."""

QUARANTINE_FACTOR = 0.25
"""A quarantined hit keeps a quarter of its score: it can still be found by a pointed query, never by accident."""

SUSPICIOUS_THRESHOLD = 0.3
"""A verdict at or above this (and below INJECTION_THRESHOLD) is suspicious: flagged and down-ranked."""

SUSPICIOUS_FACTOR = 0.5
"""A suspicious hit keeps half its score: flagged, and below a clean hit of similar relevance."""

QUARANTINE_TAG = "quarantined"
SUSPICIOUS_TAG = "suspicious"
# Where the write path keeps its verdict on the record (metadata), so that recall reads it instead of scoring.
SCORE_KEY = "injection_score"
VERDICT_KEY = "injection_verdict"
REASONS_KEY = "injection_reasons"
RELEASED = "released"  # the verdict of a note an operator released from quarantine


class ScanLevel(StrEnum):
    """What a score means: nothing to see, flag and down-rank, or keep out of recall."""

    CLEAN = "clean"
    SUSPICIOUS = "suspicious"
    QUARANTINE = "quarantine"

    @classmethod
    def of(cls, score: float, suspicious_at: float, quarantine_at: float) -> ScanLevel:
        """The level of ``score`` under these thresholds."""
        if score >= quarantine_at:
            return cls.QUARANTINE
        return cls.SUSPICIOUS if score >= suspicious_at else cls.CLEAN


@dataclass(frozen=True, slots=True)
class InjectionVerdict:
    """How directive-shaped a text is (0..1) and the signals that said so."""

    score: float
    reasons: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        """At or above INJECTION_THRESHOLD."""
        return self.score >= INJECTION_THRESHOLD

    @property
    def ceiling(self) -> float:
        """The highest score another signal (the classifier) may raise this to: flagged for a framed text.

        The rules read a role description or quotes in a discussion of attacks (``trust.frames``) and say so in
        the reasons, which a stored note keeps; the classifier sees neither a role nor quotation marks.
        """
        return FRAMED_CEILING if any(r.endswith(AT_MOST_FLAGGED) for r in self.reasons) else 1.0

    @property
    def verdict(self) -> ScanLevel:
        """clean, suspicious or quarantine under the default thresholds."""
        return ScanLevel.of(self.score, SUSPICIOUS_THRESHOLD, INJECTION_THRESHOLD)


def injection_score(text: str) -> InjectionVerdict:
    """How much ``text`` reads like instructions to the model rather than data, with the reasons."""
    if not isinstance(text, str) or not text.strip():
        return InjectionVerdict(0.0, ())
    score, reasons = score_text(text)
    return InjectionVerdict(score, reasons)


def stored_level(record: MemoryRecord) -> ScanLevel | None:
    """The verdict the write path stored on ``record`` (tags, metadata), or None when it was never judged."""
    verdict = record.metadata.get(VERDICT_KEY)
    if verdict == RELEASED:
        return ScanLevel.CLEAN
    if QUARANTINE_TAG in record.tags:
        return ScanLevel.QUARANTINE
    if isinstance(verdict, str) and verdict in {level.value for level in ScanLevel}:
        return ScanLevel(verdict)
    return ScanLevel.SUSPICIOUS if SUSPICIOUS_TAG in record.tags else None


def level_of(record: MemoryRecord) -> ScanLevel:
    """The stored verdict; a record without one is judged when read, as before write-time scanning."""
    stored = stored_level(record)
    if stored is not None:
        return stored
    return ScanLevel.QUARANTINE if _reads_as_directive(record.content) else ScanLevel.CLEAN


def quarantined(record: MemoryRecord) -> bool:
    """Quarantined at write time (tagged or its stored verdict) or, never judged, directive-shaped when read now."""
    return level_of(record) is ScanLevel.QUARANTINE


# Recall reads the same notes again and again, and scoring a long one takes about a millisecond: verdicts are
# remembered by a digest of the exact text (not the text itself, which may be 16,000 characters).
_VERDICTS_KEPT = 4096
_verdicts: OrderedDict[bytes, bool] = OrderedDict()
_verdicts_lock = threading.Lock()


def _reads_as_directive(text: str) -> bool:
    """Whether the read-time check (``trust.read_time``) flags ``text``, remembered for the last few thousand texts."""
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    with _verdicts_lock:
        known = _verdicts.get(key)
        if known is not None:
            _verdicts.move_to_end(key)
            return known
    flagged = read_time_score(text)[0] >= INJECTION_THRESHOLD
    with _verdicts_lock:
        _verdicts[key] = flagged
        if len(_verdicts) > _VERDICTS_KEPT:
            _verdicts.popitem(last=False)
    return flagged
