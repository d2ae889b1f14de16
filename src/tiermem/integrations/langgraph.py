"""A LangGraph ``BaseStore`` on a tiermem ``Memory``: LangGraph's long-term memory API, tiermem's storage and recall.

Namespaces and scopes. A namespace ``(tenant, user, *rest)`` lives in ``Scope(tenant, user)``, and a one-label
namespace ``(tenant,)`` in the tenant's shared memory ``Scope(tenant, None)``; so LangGraph's usual
``("memories", user_id)`` is tenant ``memories``, user ``user_id``, and the scope filter of the storage query
keeps one user's items from every other user. Any label LangGraph accepts is accepted: one that is not a valid
scope part is encoded into one (``langgraph_items``), and every item comes back with its labels as they were
put. ``rest`` and the key are kept in the record's metadata (``lg_namespace``, ``lg_key``) and as hashed tags
(``lgns:...`` for each prefix of ``rest``, ``lgkey:...`` for the key), so a get, a put and a deeper prefix find
their records with one indexed query inside the scope. Records other writers put in the same scope are not items
and stay invisible here. Labels LangGraph refuses (empty, holding ``.``, not strings) raise its
``InvalidNamespaceError``, also for ops given straight to ``batch``, before anything runs (its message withheld
when it repeats a credential: ``langgraph_labels``).

Items and records. The value is kept as JSON in the record's metadata (``lg_value``; with the namespace at most
8 KB). The record's content, which recall searches by keywords and by meaning, is the text at the index fields:
``$`` (the default) gives a line per leaf, sentences as they are and short values as ``path: value``, not JSON
syntax; other fields take the text at that path as LangGraph does. ``index=False`` stores no vector (keyword
search still finds the item). The write gate judges the whole value, whatever is indexed
(``write.reader_texts``). A put on an existing key stores a new version that supersedes the old one
(``Memory.history`` lists every version); a delete forgets every version. Writes skip duplicate merging and
automatic supersession: here keys, not content, identify items. Every write goes through ``Memory``'s methods.

Index. LangGraph's ``index`` config (``dims``, ``embed``, ``fields``; ``langgraph_index``) chooses the embedder
the store's items are indexed and searched with; without one, the memory's own embedder. ``index_config`` is the
config as given (None without one).

Get. The prompt gate's rule, as for search: a quarantined item comes back as None; any other is a ``FlaggedItem``
with the flags its record carries (``untrusted``, ``suspicious``), since a graph puts ``get``'s value into prompts.

Search. See ``langgraph_search``: hybrid recall ranks, ``SearchItem.score`` is the cosine similarity to the
question, and ``ScoredItem`` keeps tiermem's score, relevance, parts and flags. ``filter`` compares value
fields like LangGraph's stores (equality, nested objects, dotted paths, $eq, $ne, $gt, $gte, $lt, $lte).

TTL. ``ttl`` (minutes) sets the record's expiry (``ttl={"default_ttl": ...}`` gives puts a default). A read
restarts the TTL of what it returns when the store's config says ``refresh_on_read: True`` or the read passes
``refresh_ttl=True``; otherwise not (LangGraph's SQLite store's rule: ``ttl_config`` always holds
``refresh_on_read``, False unless given), so reading never extends what nobody asked to keep longer. Expired
items are never returned (``omit_expired`` is always on); ``sweep_ttl`` deletes them (``Memory.sweep``), and
``start_ttl_sweeper`` does so every ``sweep_interval_minutes`` (5 by default) on a thread, or on a task with
``AsyncTiermemStore``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from langgraph.store.base import (
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    get_text_at_path,
    validate_op_namespace,
)

from tiermem.errors import ConfigError, ValidationError, shown
from tiermem.integrations.langgraph_index import LangChainEmbedder, check_config, index_of
from tiermem.integrations.langgraph_items import (
    META_TTL,
    Place,
    indexed_text,
    item_fields,
    key_tag,
    namespace_matches,
    namespace_tag,
    place_of,
    record_fields,
    scope_label,
)
from tiermem.integrations.langgraph_labels import JudgedLabels, judged_labels
from tiermem.integrations.langgraph_search import FlaggedItem, ScoredItem, Searcher, live_records, shown_item
from tiermem.integrations.langgraph_ttl import SweeperTask, SweeperThread, sweep_interval
from tiermem.memory import Memory
from tiermem.store.base import scope_writes
from tiermem.types import MemoryRecord, MemoryType, Scope, Source, utcnow
from tiermem.write.path import NewMemory

__all__ = ["AsyncTiermemStore", "FlaggedItem", "LangChainEmbedder", "ScoredItem", "TiermemStore"]

_TTL_KEYS = ("default_ttl", "refresh_on_read", "sweep_interval_minutes", "omit_expired")


def _ttl_config(ttl: Mapping[str, Any] | None) -> TTLConfig:
    """The store's TTL config, with ``refresh_on_read`` off unless it is turned on (see the module docstring)."""
    if ttl is None:
        return TTLConfig(refresh_on_read=False)
    check_config("ttl", ttl, _TTL_KEYS)
    default = ttl.get("default_ttl")
    if default is not None and (isinstance(default, bool) or not isinstance(default, int | float) or not default > 0):
        given = shown(default, "default_ttl")
        raise ConfigError(f"ttl.default_ttl must be a positive number of minutes (or None), given {given!r}")
    config: TTLConfig = {"refresh_on_read": False, **ttl}  # type: ignore[typeddict-item]  # keys checked above
    return config


def _minutes(ttl: float | None) -> float | None:
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, int | float) or not math.isfinite(ttl) or ttl <= 0:
        raise ValidationError("ttl", "must be a positive, finite number of minutes (or None)", given=ttl)
    return float(ttl)


class _TiermemStoreBase(JudgedLabels):
    """What the sync and async stores share: everything but the TTL sweeper's methods."""

    supports_ttl = True

    def __init__(
        self,
        memory: Memory,
        *,
        index: IndexConfig | Mapping[str, Any] | None = None,
        ttl: TTLConfig | Mapping[str, Any] | None = None,
        fields: Sequence[str] | None = None,
        source: Source | str = "agent",
        type: MemoryType | str = MemoryType.SEMANTIC,
    ) -> None:
        chosen = index_of(index, memory.embedder)
        if fields is not None and index is not None and ("fields" in index or "text_fields" in index):
            raise ConfigError("fields are given twice: in index['fields'] and as fields=; give them once")
        self.memory = memory
        self.index_config: dict[str, Any] | None = chosen.config
        self.embeddings = chosen.embeddings
        self.embedder = chosen.embedder
        self.fields = tuple(fields) if fields is not None else chosen.fields
        self.source = Source.parse(source)
        self.type = MemoryType.parse(type)
        self.ttl_config: TTLConfig = _ttl_config(ttl)
        # Writes go through Memory: with the memory's own embedder the memory itself (write-behind and all),
        # else a facade on the same store and policies; index=False items through one without an embedder.
        self._writer = memory if chosen.embedder is memory.embedder else memory.with_embedder(chosen.embedder)
        self._unindexed = memory.with_embedder(None)
        self._searcher = Searcher(memory.store, chosen.embedder)
        self._sweeper_thread = SweeperThread(self._sweep)
        self._sweeper_task = SweeperTask(lambda: asyncio.to_thread(self._sweep))

    # -- the one primitive ---------------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the ops; reads see the store as it was before this batch's puts (the last put of a key wins)."""
        ops = list(ops)
        for op in ops:
            if not isinstance(op, GetOp | SearchOp | ListNamespacesOp | PutOp):
                raise TypeError(f"unknown store operation {type(op).__name__}")
            judged_labels(validate_op_namespace, op)
        now = utcnow()
        results: list[Result] = [None] * len(ops)
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for i, op in enumerate(ops):
            if isinstance(op, GetOp):
                results[i] = self._get(op, now)
            elif isinstance(op, SearchOp):
                results[i] = self._search(op, now)
            elif isinstance(op, ListNamespacesOp):
                results[i] = self._list_namespaces(op, now)
            else:
                puts[(tuple(op.namespace), op.key)] = op
        by_scope: dict[Scope, list[PutOp]] = {}
        for put in puts.values():  # the namespace's depth and the TTL are checked before any scope is written
            _minutes(put.ttl)
            by_scope.setdefault(place_of(put.namespace).scope, []).append(put)
        for scope, scope_puts in by_scope.items():
            self._put(scope, scope_puts, now)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` in a worker thread (tiermem's core is synchronous)."""
        return await asyncio.to_thread(self.batch, list(ops))

    # -- reads ---------------------------------------------------------------------------------------------------

    def _current(self, namespace: tuple[str, ...], keys: Iterable[str], now: datetime) -> dict[str, MemoryRecord]:
        """The live record of each key in ``namespace`` that has one."""
        place = place_of(namespace)
        wanted = {key_tag(place.rest, k): k for k in keys}
        found: dict[str, MemoryRecord] = {}
        for record in live_records(self.memory.store, place.scope, wanted, now):
            fields = item_fields(record)
            if fields is not None and fields[0] == namespace and fields[1] not in found:
                found[fields[1]] = record
        return found

    def _get(self, op: GetOp, now: datetime) -> Item | None:
        record = self._current(tuple(op.namespace), [op.key], now).get(op.key)
        if record is None:
            return None
        item = shown_item(record)
        if item is not None and op.refresh_ttl:
            self._refresh([record])
        return item

    def _refresh(self, records: Sequence[MemoryRecord]) -> None:
        """Restart the TTL of the records that have one (a read keeps them alive), through ``Memory``."""
        by_scope: dict[Scope, dict[str, timedelta]] = {}
        for record in records:
            minutes = record.metadata.get(META_TTL)
            if isinstance(minutes, int | float) and not isinstance(minutes, bool) and record.expires_at is not None:
                owner = Scope(record.scope.tenant, record.scope.user)
                by_scope.setdefault(owner, {})[record.id] = timedelta(minutes=minutes)
        for scope, ttls in by_scope.items():
            self.memory.refresh_ttl(scope, ttls)

    def _places(self, prefix: Sequence[str]) -> list[Place]:
        """The places a prefix covers: one scope when it names tenant and user, else every matching scope."""
        if len(prefix) >= 2:
            return [place_of(prefix)]
        scopes = self.memory.store.iter_scopes()
        tenant = scope_label(prefix[0]) if prefix else None
        return [Place(s, ()) for s in scopes if tenant is None or s.tenant == tenant]

    def _search(self, op: SearchOp, now: datetime) -> list[SearchItem]:
        found = self._searcher.search(op, self._places(op.namespace_prefix), now, self.memory.policy)
        if op.refresh_ttl and found:
            self._refresh([record for record, _ in found])
        return [item for _, item in found]

    def _list_namespaces(self, op: ListNamespacesOp, now: datetime) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        # A prefix's first two labels select scopes, compared as the scope parts they name ("*" matches any).
        heads = [
            [p if p == "*" else scope_label(p) for p in c.path[:2]] for c in conditions if c.match_type == "prefix"
        ]
        found: set[tuple[str, ...]] = set()
        for scope in self.memory.store.iter_scopes():
            head = (scope.tenant,) if scope.user is None else (scope.tenant, scope.user)
            if not all(namespace_matches(head, h[: len(head)], "prefix") for h in heads):
                continue
            for record in live_records(self.memory.store, scope, [namespace_tag(())], now):
                fields = item_fields(record)
                if fields is not None:
                    found.add(fields[0])
        names = [ns for ns in found if all(namespace_matches(ns, c.path, c.match_type) for c in conditions)]
        if op.max_depth is not None:
            names = [ns[: op.max_depth] for ns in names]
        return sorted(set(names))[op.offset : op.offset + op.limit]

    # -- writes --------------------------------------------------------------------------------------------------

    def _put(self, scope: Scope, ops: Sequence[PutOp], now: datetime) -> None:
        """Store, replace and delete the items of one scope in one transaction, no other writer of the scope between
        reading which items exist and writing them."""
        with scope_writes(self.memory.store, scope):
            current: dict[tuple[tuple[str, ...], str], MemoryRecord] = {}
            by_place: dict[tuple[str, ...], list[str]] = {}
            for op in ops:
                by_place.setdefault(tuple(op.namespace), []).append(op.key)
            for namespace, keys in by_place.items():
                for key, record in self._current(namespace, keys, now).items():
                    current[(namespace, key)] = record
            indexed: list[NewMemory] = []
            unindexed: list[NewMemory] = []
            for op in ops:
                old = current.get((tuple(op.namespace), op.key))
                if op.value is None:
                    if old is not None:
                        for version in self.memory.history(scope, old.id):
                            self.memory.forget(scope, version.id)
                    continue
                indexing = op.index is not False and self._writer.embedder is not None
                (indexed if indexing else unindexed).append(self._new_memory(op, old, indexing))
            if indexed:
                self._writer.remember_many(scope, indexed)
            if unindexed:
                self._unindexed.remember_many(scope, unindexed)

    def _new_memory(self, op: PutOp, old: MemoryRecord | None, indexing: bool) -> NewMemory:
        value = op.value or {}
        created = None
        if old is not None:
            old_fields = item_fields(old)
            created = old_fields[3] if old_fields is not None else old.created_at
        fields = self.fields if op.index is None or op.index is False else tuple(op.index)
        content = indexed_text(value, fields, get_text_at_path)
        minutes = _minutes(op.ttl)
        tags, metadata = record_fields(op.namespace, op.key, value, created, minutes, fields if indexing else None)
        return NewMemory(
            content,
            type=self.type,
            source=self.source,
            tags=tags,
            ttl=None if minutes is None else minutes * 60.0,
            metadata=metadata,
            dedupe=False,  # items are identified by key: equal values under two keys are two items
            supersedes=None if old is None else old.id,
        )

    # -- TTL -----------------------------------------------------------------------------------------------------

    def _sweep(self) -> int:
        """Delete what expired (``Memory.sweep``); how many records went."""
        return self.memory.sweep().expired

    def _interval(self, given: float | None) -> float:
        return sweep_interval(given, self.ttl_config.get("sweep_interval_minutes"))


class TiermemStore(_TiermemStoreBase):
    """LangGraph's ``BaseStore`` over a tiermem ``Memory`` (see the module docstring for the mapping)."""

    def sweep_ttl(self) -> int:
        """Delete the expired items now (every expired record of the memory, with its index rows); how many."""
        return self._sweep()

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> concurrent.futures.Future[None]:
        """Sweep every ``sweep_interval_minutes`` (else the ttl config's, else 5) on a thread; cancel to stop."""
        return self._sweeper_thread.start(self._interval(sweep_interval_minutes))

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread; False if it had not stopped within ``timeout`` seconds."""
        return self._sweeper_thread.stop(timeout)


class AsyncTiermemStore(_TiermemStoreBase):
    """``TiermemStore`` for asyncio code: the same store, with ``sweep_ttl`` and the sweeper as coroutines."""

    async def sweep_ttl(self) -> int:
        """Delete the expired items now, in a worker thread; how many records went."""
        return await asyncio.to_thread(self._sweep)

    async def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> asyncio.Task[None]:
        """Sweep every ``sweep_interval_minutes`` (else the ttl config's, else 5) as a task of the running loop."""
        return self._sweeper_task.start(self._interval(sweep_interval_minutes))

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper task; False if it had not stopped within ``timeout`` seconds."""
        return await self._sweeper_task.stop(timeout)
