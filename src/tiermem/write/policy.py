"""(internal) The write path's switches (``WritePolicy``, ``DetectionPolicy``) and what a write reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from typing import Any

from tiermem.errors import ValidationError
from tiermem.types import MemoryRecord
from tiermem.write.scan import ScanPolicy

__all__ = ["DetectionPolicy", "WritePolicy", "WriteResult", "WriteStatus"]


class WriteStatus(StrEnum):
    """What a write did."""

    ADDED = "added"
    # The same text is current in this scope and type (its expiry becomes this write's: ``restated_expiry``).
    UNCHANGED = "unchanged"
    MERGED = "merged"  # a paraphrase of an existing record: that record was refreshed instead
    SUPERSEDED = "superseded"  # added, and it closed the validity of the older facts it replaces
    PENDING = "pending"  # held for approval (procedural memory from an untrusted source)


@dataclass(frozen=True, slots=True)
class DetectionPolicy:
    """Which stored facts a new fact is compared with, in the write path and in consolidation alike.

    - ``neighbours``: a new fact is compared with its nearest current facts, this many (5). Consolidation
      compares each stored fact with the same number of its nearest earlier current facts: it replays the
      write path on what is stored. Each comparison runs ``supersede.decide`` (word rules), so this bounds a
      write's cost.
    - ``min_cosine``: below this cosine two statements share no topic and nothing is decided (0.3).
    Facts of the same batch are compared with every earlier fact of that batch above ``min_cosine`` (a batch
    behaves like writes in order). The thresholds of the decision itself (merge cosine, word overlap...) are
    the named constants of ``write.supersede``.
    """

    neighbours: int = 5
    min_cosine: float = 0.3

    def __post_init__(self) -> None:
        if isinstance(self.neighbours, bool) or not isinstance(self.neighbours, int) or self.neighbours < 1:
            raise ValidationError("neighbours", "must be an integer of at least 1", given=self.neighbours)
        if not -1.0 <= self.min_cosine <= 1.0:
            raise ValidationError("min_cosine", "must be a cosine, from -1 to 1", given=self.min_cosine)


@dataclass(frozen=True, slots=True)
class WritePolicy:
    """Switches of the write path; ``detect`` turns automatic merge and supersession on, ``detection`` tunes it.

    ``scan`` sets which sources are scanned for injection and with which thresholds, and whether credentials
    are refused (``write.scan``; docs/security.md). ``follow_window`` (off when None) makes a note written that
    soon after its scope's previous one searchable by that note's end too (``write.follows``).
    """

    detect: bool = True
    detection: DetectionPolicy = DetectionPolicy()
    scan: ScanPolicy = field(default_factory=ScanPolicy)
    # Off by default: it helps a stream written a turn at a time, and only adds noise to standalone facts.
    follow_window: timedelta | None = None

    def __post_init__(self) -> None:
        window = self.follow_window
        if window is not None and (not isinstance(window, timedelta) or window <= timedelta(0)):
            raise ValidationError("follow_window", "must be a positive timedelta, or None (off)", given=window)


@dataclass(frozen=True, slots=True)
class WriteResult:
    """The record the write produced or found, what happened, and why."""

    status: WriteStatus
    record: MemoryRecord
    superseded: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    pending_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Status, record (its times still datetimes), superseded ids, reasons and (if held) the pending id."""
        return {
            "status": self.status.value,
            "record": self.record.to_dict(),
            "superseded": list(self.superseded),
            "reasons": list(self.reasons),
            "pending_id": self.pending_id,
        }

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``to_dict`` with the record's times as ISO 8601."""
        return {**self.to_dict(), "record": self.record.to_json()}
