"""Memory: the public Python API; wires a store, an embedder and the policies, with no logic of its own."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from tiermem.config import default_db_url
from tiermem.context.forgetting import forget_in_summaries
from tiermem.embed import Embedder, get_embedder
from tiermem.errors import ConfigError, ValidationError
from tiermem.lifecycle import history as lifecycle
from tiermem.lifecycle.erase import EraseReport, erase, forget
from tiermem.lifecycle.export import ImportReport, export_user, import_user
from tiermem.lifecycle.retention import RetentionPolicy, SweepReport, restart_expiry, sweep
from tiermem.memory_api import MemoryAPI
from tiermem.message import Message
from tiermem.recall.policy import RecallPolicy
from tiermem.recall.related import DEFAULT_LIMIT, Related, related
from tiermem.recall.search import hybrid_recall
from tiermem.store import AuditEntry, Page, PendingWrite, Store, open_store
from tiermem.store.base import stored_record
from tiermem.types import Filter, Hit, MemoryRecord, Scope, utcnow
from tiermem.write.behind import WriteBehind, index_queued, queued_of, recover
from tiermem.write.consolidate import Action, consolidate
from tiermem.write.conversation import CONTEXT_TURNS, statement_ids, write_messages
from tiermem.write.follows import with_preceding
from tiermem.write.path import NewMemory, WritePolicy, WriteResult, write_many
from tiermem.write.scan import release

if TYPE_CHECKING:
    from tiermem.remote import RemoteMemory

__all__ = ["MAX_LIST", "Memory", "NewMemory", "WriteResult"]

MAX_LIST = 1000


class Memory(MemoryAPI):
    """Scoped long-term memory: remember, recall, get, list, forget, erase, sweep, export, restore."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        policy: RecallPolicy | None = None,
        write_policy: WritePolicy | None = None,
        retention: RetentionPolicy | None = None,
        *,
        write_behind: bool = False,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.policy = policy or RecallPolicy()
        self.write_policy = write_policy or WritePolicy()
        self.retention = retention or RetentionPolicy()
        if write_behind and embedder is None:
            raise ConfigError("write_behind embeds after acknowledging: it needs an embedder, and none was given")
        # Write-behind (``write.behind``): writes are acknowledged stored and keyword-searchable, vectored later.
        self.write_behind = WriteBehind(store, embedder, self.write_policy) if write_behind and embedder else None

    @overload
    @classmethod
    def open(
        cls,
        url: str | Path | None = None,
        *,
        embedder: Embedder | str | None = "minilm",
        policy: RecallPolicy | None = None,
        write_policy: WritePolicy | None = None,
        retention: RetentionPolicy | None = None,
        api_key: None = None,
        write_behind: bool = False,
    ) -> Memory: ...

    @overload
    @classmethod
    def open(cls, url: str, *, api_key: str, timeout: float = 30.0) -> RemoteMemory: ...

    @classmethod
    def open(
        cls,
        url: str | Path | None = None,
        *,
        embedder: Embedder | str | None = "minilm",
        policy: RecallPolicy | None = None,
        write_policy: WritePolicy | None = None,
        retention: RetentionPolicy | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        write_behind: bool = False,
    ) -> Memory | RemoteMemory:
        """Open (creating and migrating if needed) the store at ``url``, or a tiermem server's memory.

        ``embedder`` is an Embedder, None (full-text only), or a name: ``minilm`` (the default, loaded on first
        use), ``e5`` (multilingual, the ``multilingual`` extra), ``hash`` (tests) or ``openai:<model>`` (see
        ``embed.get_embedder``); ``default`` means ``minilm``. An ``http://`` or ``https://`` URL with ``api_key``
        (an API key or a JWT) returns a ``RemoteMemory``: the same methods over HTTP, the embedder being the
        server's. ``write_behind``: acknowledge writes once stored and full-text indexed and embed them on a
        worker thread, batched across writes (see ``write.behind`` and ``flush``).
        """
        if isinstance(url, str) and url.startswith(("http://", "https://")):
            try:
                from tiermem.remote import RemoteMemory
            except ModuleNotFoundError as exc:
                raise ConfigError(
                    f"a server URL needs httpx ({exc.name} is missing): pip install 'tiermem[server]'"
                ) from None

            if api_key is None:
                raise ConfigError(f"{url} is a tiermem server: pass api_key= (an API key or a JWT)")
            return RemoteMemory(url, api_key=api_key, timeout=timeout)
        if api_key is not None:
            raise ConfigError("api_key is for a tiermem server URL (http:// or https://), not a database")
        if isinstance(embedder, str):
            embedder = get_embedder("minilm" if embedder == "default" else embedder)
        store = open_store(url if url is not None else default_db_url())
        try:
            return cls(store, embedder, policy, write_policy, retention, write_behind=write_behind)
        except BaseException:
            store.close()
            raise

    def with_embedder(self, embedder: Embedder | None) -> Memory:
        """This memory's store and policies with another embedder (None: full-text only), writing synchronously.

        It shares the store: close the memory it came from, not this one.
        """
        return Memory(self.store, embedder, self.policy, self.write_policy, self.retention)

    def close(self) -> None:
        """Wait for the write-behind queue (raising its errors, see ``flush``), then release the store."""
        try:
            if self.write_behind is not None:
                self.write_behind.close()
        finally:
            self.store.close()

    def flush(self, timeout: float | None = None) -> int:
        """Make every stored record searchable by vector too; returns how many this call embedded itself.

        With write-behind, waits for the worker and raises ``WriteBehindError`` if it failed since the last
        flush (the records it could not embed stay queued in the store). Without, embeds the records a
        write-behind process acknowledged and never embedded (after a crash), here and now.
        """
        if self.write_behind is not None:
            self.write_behind.flush(timeout)
            return 0
        if self.embedder is None:
            return 0
        return index_queued(self.store, self.embedder, recover(self.store), self.write_policy)

    def remember_many(self, scope: Scope, items: Iterable[NewMemory]) -> list[WriteResult]:
        """Store many memories with one embedding batch and one transaction; all are validated first."""
        return self._write(scope, list(items), None)

    def remember_keyed(self, scope: Scope, items: Iterable[NewMemory], keys: Sequence[str]) -> list[WriteResult]:
        """``remember_many`` with ``keys`` (one per item) naming the statements the items record.

        E.g. a conversation's digest and a fact extracted from it: an item whose key was written before in this
        scope is that record again, UNCHANGED, even once closed or expired, so a replayed source states nothing anew.
        """
        listed = list(items)
        return self._write(scope, listed, statement_ids(scope, keys, len(listed)))

    def _write(self, scope: Scope, listed: list[NewMemory], ids: list[str] | None) -> list[WriteResult]:
        deferred = self.write_behind is not None
        now = utcnow()
        results = write_many(
            self.store,
            self.embedder,
            scope,
            with_preceding(self.store, scope, listed, now, self.write_policy.follow_window),
            now,
            self.write_policy,
            self.retention.default_ttl,
            ids=ids,
            defer_vectors=deferred,
        )
        if self.write_behind is not None:
            self.write_behind.put(queued_of(results, [item.dedupe for item in listed]))
        return results

    def remember_messages(
        self,
        scope: Scope,
        messages: Iterable[Mapping[str, Any] | Message],
        *,
        session: str | None = None,
        context_turns: int = CONTEXT_TURNS,
    ) -> builtins.list[WriteResult]:
        """Store a conversation: each message an episodic record with its speaker, time, session and context.

        Messages are OpenAI / Mem0-style dicts (``role``, ``content``, optional ``name``, ``created_at``...) or
        ``Message`` values; re-sending a transcript adds only its new turns. See ``tiermem.write.conversation``.
        """
        results = write_messages(
            self.store,
            self.embedder,
            scope,
            messages,
            now=utcnow(),
            session=session,
            context_turns=context_turns,
            policy=self.write_policy,
            default_ttl=self.retention.default_ttl,
            defer_vectors=self.write_behind is not None,
        )
        if self.write_behind is not None:
            self.write_behind.put(queued_of(results, [False] * len(results)))
        return results

    def _search(
        self, scope: Scope, query: str, k: int, filter_: Filter, now: datetime | None, include_quarantined: bool
    ) -> list[Hit]:
        return hybrid_recall(
            self.store,
            self.embedder,
            scope,
            query,
            k=k,
            filter_=filter_,
            now=now or utcnow(),
            policy=self.policy,
            include_quarantined=include_quarantined,
        )

    def related(self, scope: Scope, entity: str, *, limit: int = DEFAULT_LIMIT) -> Related:
        """What memory holds around a named person, place or thing: the records naming it as a whole word, those
        of their sessions and days and their other versions (at most ``limit``), and the names occurring with it.

        No model is asked; quarantined and expired notes are left out as in recall (``recall.related``).
        """
        return related(self.store, scope, entity, limit=limit, now=utcnow())

    def get(self, scope: Scope, record_id: str) -> MemoryRecord:
        """The record with this id in this scope; NotFoundError otherwise (also for another user's id)."""
        return stored_record(self.store, scope, record_id)

    def list(self, scope: Scope, *, filter: Filter | None = None, limit: int = 50, cursor: str | None = None) -> Page:
        """A page of live records, newest first; pass ``next_cursor`` back for the next page."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIST:
            raise ValidationError("limit", f"must be an integer from 1 to {MAX_LIST}", given=limit, limit=MAX_LIST)
        return self.store.list_records(scope, filter or Filter(), now=utcnow(), limit=limit, cursor=cursor)

    def forget(self, scope: Scope, record_id: str, *, scrub_file: bool = False) -> None:
        """Delete one record with its index and vector rows and redact its audit trail; NotFoundError if absent.

        What other records and the context runtime's summaries quote of it goes too (docs/lifecycle.md).
        """
        forget(self.store, scope, record_id, now=utcnow(), scrub_file=scrub_file, also=self._forget_in_summaries)

    def erase(self, tenant: str, user: str | None = None, *, actor: str = "system") -> EraseReport:
        """Remove every trace of a user (``user`` None: of the whole tenant) and scrub the database file."""
        return erase(self.store, tenant, user, now=utcnow(), actor=actor)

    def sweep(self, *, vacuum: bool = False) -> SweepReport:
        """Delete expired records and those over the retention limits, with their index and vector rows."""
        return sweep(self.store, self.retention, now=utcnow(), vacuum=vacuum, also=self._forget_in_summaries)

    def refresh_ttl(self, scope: Scope, ttls: Mapping[str, timedelta]) -> builtins.list[MemoryRecord]:
        """Restart the expiry of the live records named in ``ttls`` that have one: each expires its TTL from now.

        A read that keeps what it reads alive (LangGraph's refresh on read); returns the records it changed.
        """
        return restart_expiry(self.store, scope, ttls, now=utcnow())

    def _forget_in_summaries(self, scope: Scope, gone: builtins.list[MemoryRecord]) -> None:
        """What forget and sweep also do: take the deleted messages out of the summary core blocks."""
        forget_in_summaries(self.store, scope, gone, at=utcnow())

    def export(self, scope: Scope) -> dict[str, Any]:
        """Everything held about the scope's user (records with history, core blocks, audit...) as JSON data."""
        return export_user(self.store, scope, now=utcnow())

    def restore(self, data: dict[str, Any], *, name: str = "export", vouched: bool = False) -> ImportReport:
        """Import an ``export`` into its (tenant, user), which must be empty; all or nothing.

        Its records are stored as from ``import:<name>`` and judged again, unless ``vouched`` (they keep the
        source and trust the file gives them); a credential anywhere in the file refuses it (``lifecycle.admit``).
        """
        return import_user(
            self.store, self.embedder, data, name=name, vouched=vouched, scan=self.write_policy.scan, now=utcnow()
        )

    def history(self, scope: Scope, record_id: str) -> builtins.list[MemoryRecord]:
        """The supersession chain through a record, oldest first."""
        return lifecycle.history(self.store, scope, record_id)

    def audit(self, scope: Scope, record_id: str | None = None) -> builtins.list[AuditEntry]:
        """Every recorded change in the scope (or to one record), oldest first."""
        return self.store.audit(scope, record_id)

    def rollback(self, scope: Scope, record_id: str, version: int, *, actor: str = "user") -> MemoryRecord:
        """Restore a record as it was at an earlier version (recorded as a new version)."""
        return lifecycle.rollback(
            self.store, self.embedder, scope, record_id, version, actor=actor, now=utcnow(), scan=self.write_policy.scan
        )

    def release(self, scope: Scope, record_id: str, *, actor: str = "operator") -> MemoryRecord:
        """Release a quarantined or suspicious note: recall returns it as clean from now on (audited as ``release``)."""
        return release(self.store, scope, record_id, actor=actor, now=utcnow())

    def pending(self, scope: Scope) -> builtins.list[PendingWrite]:
        """Writes held for approval."""
        return self.store.list_pending(scope)

    def approve(self, scope: Scope, pending_id: str, *, actor: str = "operator") -> WriteResult:
        """Store a held write: it keeps its source and trust, and ``actor`` is recorded as its approver."""
        return lifecycle.approve(
            self.store,
            self.embedder,
            scope,
            pending_id,
            now=utcnow(),
            actor=actor,
            policy=self.write_policy,
            default_ttl=self.retention.default_ttl,
        )

    def reject(self, scope: Scope, pending_id: str) -> None:
        """Drop a held write."""
        lifecycle.reject(self.store, scope, pending_id)

    def consolidate(self, scope: Scope, *, dry_run: bool = False) -> builtins.list[Action]:
        """Merge paraphrases and close superseded facts already stored in the scope (idempotent)."""
        return consolidate(
            self.store, self.embedder, scope, now=utcnow(), dry_run=dry_run, policy=self.write_policy.detection
        )
