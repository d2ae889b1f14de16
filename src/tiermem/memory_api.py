"""MemoryAPI: the methods the embedded ``Memory`` and the HTTP ``RemoteMemory`` both offer, with the same signatures.

Code that takes a memory should take a ``MemoryAPI``: it then works the same against a database file and a
tiermem server. Both classes subclass it, so mypy checks every signature against this one, and the shared steps
(``remember`` as a one-item ``remember_many``, the context manager) are written here once.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, Protocol, Self

from tiermem.lifecycle.erase import EraseReport
from tiermem.message import Message
from tiermem.recall.related import DEFAULT_LIMIT, Related
from tiermem.store.base import AuditEntry, Page, PendingWrite
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, MetaValue, Scope, Source
from tiermem.write.conversation import CONTEXT_TURNS
from tiermem.write.path import NewMemory, WriteResult

__all__ = ["MemoryAPI"]


class MemoryAPI(Protocol):
    """Scoped long-term memory, wherever it is kept: remember, recall, read, forget, audit, approve, erase."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release what the memory holds (the store, or the connection pool)."""

    def remember(
        self,
        scope: Scope,
        content: str,
        *,
        type: MemoryType | str = MemoryType.SEMANTIC,
        source: Source | str = "user",
        tags: Sequence[str] = (),
        ttl: timedelta | float | None = None,
        valid_from: datetime | None = None,
        metadata: dict[str, MetaValue] | None = None,
        supersedes: str | None = None,
    ) -> WriteResult:
        """Store one memory; duplicates return the existing record, paraphrases merge, updates supersede."""
        item = NewMemory(content, type, source, tags, ttl, valid_from, metadata or {}, supersedes=supersedes)
        return self.remember_many(scope, [item])[0]

    def remember_many(self, scope: Scope, items: Iterable[NewMemory]) -> builtins.list[WriteResult]:
        """Store many memories at once, all or nothing; every item is validated first."""
        ...

    def remember_messages(
        self,
        scope: Scope,
        messages: Iterable[Mapping[str, Any] | Message],
        *,
        session: str | None = None,
        context_turns: int = CONTEXT_TURNS,
    ) -> builtins.list[WriteResult]:
        """Store a conversation: each message an episodic record with its speaker, time, session and context."""
        ...

    def recall(
        self,
        scope: Scope,
        query: str,
        *,
        k: int = 10,
        filter: Filter | None = None,
        as_of: datetime | None = None,
        now: datetime | None = None,
        include_quarantined: bool = False,
    ) -> builtins.list[Hit]:
        """The k most relevant live records for ``query`` (``as_of`` asks what was valid at that time).

        Ranked by the policy's factors (``RecallPolicy.factors``); notes quarantined at write time are left out
        unless ``include_quarantined`` (then flagged and down-ranked), suspicious ones are flagged and down-ranked.
        """
        filter_ = filter or Filter()
        if as_of is not None:
            filter_ = replace(filter_, as_of=as_of)
        return self._search(scope, query, k, filter_, now, include_quarantined)

    def _search(
        self, scope: Scope, query: str, k: int, filter_: Filter, now: datetime | None, include_quarantined: bool
    ) -> builtins.list[Hit]:
        """``recall`` with ``as_of`` folded into the filter: what each memory does its own way."""
        ...

    def related(self, scope: Scope, entity: str, *, limit: int = DEFAULT_LIMIT) -> Related:
        """The records around a named person, place or thing and how they connect; the names occurring with it."""
        ...

    def get(self, scope: Scope, record_id: str) -> MemoryRecord:
        """The record with this id in this scope; NotFoundError otherwise."""
        ...

    def list(self, scope: Scope, *, filter: Filter | None = None, limit: int = 50, cursor: str | None = None) -> Page:
        """A page of live records, newest first; pass ``next_cursor`` back for the next page."""
        ...

    def forget(self, scope: Scope, record_id: str, *, scrub_file: bool = False) -> None:
        """Delete one record with everything that quotes it; NotFoundError if absent."""
        ...

    def history(self, scope: Scope, record_id: str) -> builtins.list[MemoryRecord]:
        """The supersession chain through a record, oldest first."""
        ...

    def audit(self, scope: Scope, record_id: str | None = None) -> builtins.list[AuditEntry]:
        """Every recorded change in the scope (or to one record), oldest first."""
        ...

    def rollback(self, scope: Scope, record_id: str, version: int, *, actor: str = "user") -> MemoryRecord:
        """Restore a record as it was at an earlier version (recorded as a new version)."""
        ...

    def pending(self, scope: Scope) -> builtins.list[PendingWrite]:
        """Writes held for approval."""
        ...

    def approve(self, scope: Scope, pending_id: str, *, actor: str = "operator") -> WriteResult:
        """Store a held write; ``actor`` (over HTTP: the credential) is recorded as its approver."""
        ...

    def reject(self, scope: Scope, pending_id: str) -> None:
        """Drop a held write."""
        ...

    def export(self, scope: Scope) -> dict[str, Any]:
        """Everything held about the scope's user, as JSON data."""
        ...

    def erase(self, tenant: str, user: str | None = None, *, actor: str = "system") -> EraseReport:
        """Remove every trace of a user (``user`` None: of the whole tenant, embedded only)."""
        ...
