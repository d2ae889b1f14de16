"""The summary part of the Store protocol: what a scope holds, counted, and the sessions it holds records of.

These are reads for people looking at a memory (the web inspector's overview and session pages): aggregates
the store computes in one query, so a page never loads a user's records to count them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from tiermem.types import MemoryType, Scope, SourceKind

__all__ = ["MAX_SESSIONS", "SessionSummary", "SummaryStore", "Tally"]

MAX_SESSIONS = 1000


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """One session of a user: its agent (None: none), how many records it holds, its first and last record."""

    session: str
    agent: str | None
    records: int
    first_at: datetime
    last_at: datetime


@dataclass(frozen=True, slots=True)
class Tally:
    """How many live records of the scope have this type, source kind and trust."""

    type: MemoryType
    source_kind: SourceKind
    trust: float
    count: int


class SummaryStore(Protocol):
    """Aggregates over a scope's records."""

    def list_sessions(self, scope: Scope, *, limit: int = MAX_SESSIONS) -> list[SessionSummary]:
        """The sessions with records in ``scope`` (its agent and session narrow when given), latest first."""
        ...

    def tally(self, scope: Scope, *, now: datetime) -> list[Tally]:
        """The scope's live records at ``now`` (valid, unexpired) counted by type, source kind and trust."""
        ...
