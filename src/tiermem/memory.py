"""Memory: the public Python API; wires a store, an embedder and the policies, with no logic of its own."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any

from tiermem.config import default_db_url
from tiermem.embed import Embedder, get_embedder
from tiermem.errors import NotFoundError, ValidationError
from tiermem.lifecycle import history as lifecycle
from tiermem.lifecycle.erase import EraseReport, erase, forget
from tiermem.lifecycle.export import ImportReport, export_user, import_user
from tiermem.lifecycle.retention import RetentionPolicy, SweepReport, sweep
from tiermem.recall.policy import RecallPolicy
from tiermem.recall.search import hybrid_recall
from tiermem.store import AuditEntry, Page, PendingWrite, Store, open_store
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, MetaValue, Scope, Source, utcnow
from tiermem.write.consolidate import Action, consolidate
from tiermem.write.path import NewMemory, WritePolicy, WriteResult, write_many

__all__ = ["MAX_LIST", "Memory", "NewMemory", "WriteResult"]

MAX_LIST = 1000


class Memory:
    """Scoped long-term memory: remember, recall, get, list, forget, erase, sweep, export, restore."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        policy: RecallPolicy | None = None,
        write_policy: WritePolicy | None = None,
        retention: RetentionPolicy | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.policy = policy or RecallPolicy()
        self.write_policy = write_policy or WritePolicy()
        self.retention = retention or RetentionPolicy()

    @classmethod
    def open(
        cls,
        url: str | Path | None = None,
        *,
        embedder: Embedder | str | None = "minilm",
        policy: RecallPolicy | None = None,
        write_policy: WritePolicy | None = None,
        retention: RetentionPolicy | None = None,
    ) -> Memory:
        """Open (creating and migrating if needed) the store at ``url``.

        ``embedder`` is an Embedder, None (full-text only), or a name: ``minilm`` (the default, loaded on first
        use), ``e5`` (multilingual, the ``multilingual`` extra), ``hash`` (tests) or ``openai:<model>`` (see
        ``embed.get_embedder``); ``default`` means ``minilm``.
        """
        if isinstance(embedder, str):
            embedder = get_embedder("minilm" if embedder == "default" else embedder)
        store = open_store(url if url is not None else default_db_url())
        return cls(store, embedder, policy, write_policy, retention)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: tuple[type[BaseException] | None, BaseException | None, TracebackType | None]) -> None:
        self.close()

    def close(self) -> None:
        """Release the store."""
        self.store.close()

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

    def remember_many(self, scope: Scope, items: Iterable[NewMemory]) -> list[WriteResult]:
        """Store many memories with one embedding batch and one transaction; all are validated first."""
        return write_many(
            self.store, self.embedder, scope, list(items), utcnow(), self.write_policy, self.retention.default_ttl
        )

    def recall(
        self,
        scope: Scope,
        query: str,
        *,
        k: int = 10,
        filter: Filter | None = None,
        as_of: datetime | None = None,
        now: datetime | None = None,
    ) -> list[Hit]:
        """The k most relevant live records for ``query`` (``as_of`` asks what was valid at that time).

        Ranked by the policy's factors (``RecallPolicy.factors``), which by default down-rank quarantined notes
        (tagged, or directive-shaped when read) as the agent's tools do.
        """
        filter_ = filter or Filter()
        if as_of is not None:
            filter_ = replace(filter_, as_of=as_of)
        return hybrid_recall(
            self.store, self.embedder, scope, query, k=k, filter_=filter_, now=now or utcnow(), policy=self.policy
        )

    def get(self, scope: Scope, record_id: str) -> MemoryRecord:
        """The record with this id in this scope; NotFoundError otherwise (also for another user's id)."""
        record = self.store.get(scope, record_id)
        if record is None:
            raise NotFoundError(f"no record {record_id} in scope {scope}")
        return record

    def list(self, scope: Scope, *, filter: Filter | None = None, limit: int = 50, cursor: str | None = None) -> Page:
        """A page of live records, newest first; pass ``next_cursor`` back for the next page."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIST:
            raise ValidationError("limit", f"must be an integer from 1 to {MAX_LIST}", given=limit, limit=MAX_LIST)
        if cursor is not None and not cursor.isdigit():
            raise ValidationError("cursor", "is not a cursor this store returned", given=cursor)
        return self.store.list_records(scope, filter or Filter(), now=utcnow(), limit=limit, cursor=cursor)

    def forget(self, scope: Scope, record_id: str, *, scrub_file: bool = False) -> None:
        """Delete one record with its index and vector rows and redact its audit trail; NotFoundError if absent."""
        forget(self.store, scope, record_id, now=utcnow(), scrub_file=scrub_file)

    def erase(self, tenant: str, user: str | None = None, *, actor: str = "system") -> EraseReport:
        """Remove every trace of a user (``user`` None: of the whole tenant) and scrub the database file."""
        return erase(self.store, tenant, user, now=utcnow(), actor=actor)

    def sweep(self, *, vacuum: bool = False) -> SweepReport:
        """Delete expired records and those over the retention limits, with their index and vector rows."""
        return sweep(self.store, self.retention, now=utcnow(), vacuum=vacuum)

    def export(self, scope: Scope) -> dict[str, Any]:
        """Everything held about the scope's user (records with history, core blocks, audit...) as JSON data."""
        return export_user(self.store, scope, now=utcnow())

    def restore(self, data: dict[str, Any]) -> ImportReport:
        """Import an ``export`` into its (tenant, user), which must be empty; all or nothing."""
        return import_user(self.store, self.embedder, data)

    def history(self, scope: Scope, record_id: str) -> builtins.list[MemoryRecord]:
        """The supersession chain through a record, oldest first."""
        return lifecycle.history(self.store, scope, record_id)

    def audit(self, scope: Scope, record_id: str | None = None) -> builtins.list[AuditEntry]:
        """Every recorded change in the scope (or to one record), oldest first."""
        return self.store.audit(scope, record_id)

    def rollback(self, scope: Scope, record_id: str, version: int, *, actor: str = "user") -> MemoryRecord:
        """Restore a record as it was at an earlier version (recorded as a new version)."""
        return lifecycle.rollback(self.store, self.embedder, scope, record_id, version, actor=actor, now=utcnow())

    def pending(self, scope: Scope) -> builtins.list[PendingWrite]:
        """Writes held for approval."""
        return self.store.list_pending(scope)

    def approve(self, scope: Scope, pending_id: str) -> WriteResult:
        """Store a held write."""
        return lifecycle.approve(self.store, self.embedder, scope, pending_id, now=utcnow())

    def reject(self, scope: Scope, pending_id: str) -> None:
        """Drop a held write."""
        lifecycle.reject(self.store, scope, pending_id)

    def consolidate(self, scope: Scope, *, dry_run: bool = False) -> builtins.list[Action]:
        """Merge paraphrases and close superseded facts already stored in the scope (idempotent)."""
        return consolidate(
            self.store, self.embedder, scope, now=utcnow(), dry_run=dry_run, policy=self.write_policy.detection
        )
