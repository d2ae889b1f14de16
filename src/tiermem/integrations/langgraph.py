"""A LangGraph ``BaseStore`` on a tiermem ``Memory``: LangGraph's long-term memory API, tiermem's storage and recall.

Namespaces and scopes. A namespace ``(tenant, user, *rest)`` lives in ``Scope(tenant, user)``, and a one-label
namespace ``(tenant,)`` in the tenant's shared memory ``Scope(tenant, None)``; so LangGraph's usual
``("memories", user_id)`` is tenant ``memories``, user ``user_id``, and the scope filter of the storage query
keeps one user's items from every other user. The two labels must be valid scope parts (letters, digits and
``_ . @ + -``). ``rest`` and the key are kept in the record's metadata (``lg_namespace``, ``lg_key``) and as
hashed tags (``lgns:...`` for each prefix of ``rest``, ``lgkey:...`` for the key), so a get, a put and a deeper
prefix find their records with one indexed query inside the scope. Records other writers put in the same scope
are not items and stay invisible here.

Items and records. The value is kept as JSON in the record's metadata (``lg_value``; with the namespace at most
8 KB). The record's content, which recall searches by keywords and by meaning, is the text at the index fields:
``$`` (the default) gives a line per leaf, sentences as they are and short values as ``path: value``, not JSON
syntax; other fields take the text at that path as LangGraph does. ``index=False`` stores no vector (keyword
search still finds the item). A put on an existing key stores a new version that supersedes the old one
(``Memory.history`` lists every version); a delete forgets every version. Writes skip duplicate merging and
automatic supersession: here keys, not content, identify items.

Search. With a query each scope under the prefix is searched by tiermem's hybrid recall (the best ``MAX_K`` at
most); ``SearchItem.score`` is the hit's score and ``ScoredItem.parts`` / ``flags`` say why it came back. A prefix
shorter than (tenant, user) searches every matching scope and merges by score. Without a query items come
newest first. ``filter`` compares value fields like LangGraph's stores ($eq, $ne, $gt, $gte, $lt, $lte).

TTL. ``ttl`` (minutes) sets the record's expiry and reads refresh it (``refresh_ttl``). Expired items are
never returned (``omit_expired`` is always on); ``Memory.sweep()`` deletes them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
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

from tiermem.embed import Vectors, embed_queries
from tiermem.integrations.langgraph_items import (
    META_TTL,
    Place,
    indexed_text,
    item_fields,
    key_tag,
    matches_filter,
    namespace_matches,
    namespace_tag,
    place_of,
    record_fields,
)
from tiermem.memory import MAX_LIST, Memory
from tiermem.recall.search import MAX_K, hybrid_recall
from tiermem.store.base import StoredItem
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, Scope, ScorePart, Source, utcnow
from tiermem.write.path import NewMemory

__all__ = ["ScoredItem", "TiermemStore"]


class ScoredItem(SearchItem):
    """A search result with the score parts and flags of the hit behind it."""

    __slots__ = ("flags", "parts", "record_id")

    def __init__(self, item: Item, hit: Hit | None) -> None:
        super().__init__(
            item.namespace, item.key, item.value, item.created_at, item.updated_at, None if hit is None else hit.score
        )
        self.parts: tuple[ScorePart, ...] = () if hit is None else hit.parts
        self.flags: tuple[str, ...] = () if hit is None else hit.flags
        self.record_id: str | None = None if hit is None else hit.record.id

    def dict(self) -> dict[str, Any]:
        """LangGraph's dict, with the parts, flags and record id."""
        out: dict[str, Any] = super().dict()
        out["parts"] = [
            {"name": p.name, "rank": p.rank, "raw": p.raw, "contribution": p.contribution} for p in self.parts
        ]
        out["flags"] = list(self.flags)
        out["record_id"] = self.record_id
        return out


def _item(record: MemoryRecord) -> Item | None:
    fields = item_fields(record)
    if fields is None:
        return None
    namespace, key, value, created = fields
    return Item(value=value, key=key, namespace=namespace, created_at=created, updated_at=record.created_at)


class TiermemStore(BaseStore):
    """LangGraph's ``BaseStore`` over a tiermem ``Memory`` (see the module docstring for the mapping)."""

    supports_ttl = True

    def __init__(
        self,
        memory: Memory,
        *,
        fields: Sequence[str] = ("$",),
        source: Source | str = "agent",
        type: MemoryType | str = MemoryType.SEMANTIC,
        ttl: TTLConfig | None = None,
    ) -> None:
        self.memory = memory
        self.fields = tuple(fields)
        self.source = Source.parse(source)
        self.type = MemoryType.parse(type)
        self.ttl_config = ttl
        # index=False items are written through a facade without an embedder: same store and policies.
        self._unindexed = Memory(memory.store, None, memory.policy, memory.write_policy, memory.retention)

    # -- the one primitive ---------------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the ops; reads see the store as it was before this batch's puts (the last put of a key wins)."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
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
            elif isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
            else:
                raise TypeError(f"unknown store operation {type(op).__name__}")
        by_scope: dict[Scope, list[PutOp]] = {}
        for op in puts.values():
            by_scope.setdefault(place_of(op.namespace).scope, []).append(op)
        for scope, scope_puts in by_scope.items():
            self._put(scope, scope_puts, now)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` in a worker thread (tiermem's core is synchronous)."""
        return await asyncio.to_thread(self.batch, list(ops))

    # -- reads ---------------------------------------------------------------------------------------------------

    def _live(self, scope: Scope, tags: Iterable[str], now: datetime) -> Iterator[MemoryRecord]:
        """Live records of ``scope`` carrying any of ``tags``, newest first."""
        filter_ = Filter(tags=frozenset(tags))
        cursor: str | None = None
        while True:
            page = self.memory.store.list_records(scope, filter_, now=now, limit=MAX_LIST, cursor=cursor)
            yield from page.records
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def _current(self, place: Place, keys: Iterable[str], now: datetime) -> dict[str, MemoryRecord]:
        """The live record of each key at ``place`` that has one."""
        wanted = {key_tag(place.rest, k): k for k in keys}
        found: dict[str, MemoryRecord] = {}
        namespace = (place.scope.tenant, *((place.scope.user,) if place.scope.user else ()), *place.rest)
        for record in self._live(place.scope, wanted, now):
            fields = item_fields(record)
            if fields is not None and fields[0] == namespace and fields[1] not in found:
                found[fields[1]] = record
        return found

    def _get(self, op: GetOp, now: datetime) -> Item | None:
        place = place_of(op.namespace)
        record = self._current(place, [op.key], now).get(op.key)
        if record is None:
            return None
        if op.refresh_ttl:
            record = self._refresh([record], now)[0]
        return _item(record)

    def _refresh(self, records: Sequence[MemoryRecord], now: datetime) -> list[MemoryRecord]:
        """The records with their TTL restarted from ``now`` (those that have one)."""
        out = []
        changed = []
        for record in records:
            minutes = record.metadata.get(META_TTL)
            if isinstance(minutes, int | float) and not isinstance(minutes, bool) and record.expires_at is not None:
                record = replace(record, expires_at=now + timedelta(minutes=minutes))
                changed.append(StoredItem(record, None, keep_vector=True))
            out.append(record)
        self.memory.store.put_many(changed)
        return out

    def _scopes(self, prefix: Sequence[str]) -> list[Place]:
        """The places a prefix covers: one scope when it names tenant and user, else every matching scope."""
        if len(prefix) >= 2:
            return [place_of(prefix)]
        scopes = self.memory.store.iter_scopes()
        return [Place(s, ()) for s in scopes if not prefix or s.tenant == prefix[0]]

    def _search(self, op: SearchOp, now: datetime) -> list[SearchItem]:
        places = self._scopes(op.namespace_prefix)
        found: Iterable[tuple[MemoryRecord, Hit | None]]
        if op.query:
            found = self._recall(places, op, now)
        else:
            found = ((r, None) for p in places for r in self._live(p.scope, [namespace_tag(p.rest)], now))
        out: list[tuple[MemoryRecord, Item, Hit | None]] = []
        skip = op.offset
        for record, hit in found:
            item = _item(record)
            if item is None or not matches_filter(item.value, op.filter):
                continue
            if skip:
                skip -= 1
                continue
            out.append((record, item, hit))
            if len(out) >= op.limit:
                break
        if op.refresh_ttl and out:
            self._refresh([r for r, _, _ in out], now)
        return [ScoredItem(item, hit) for _, item, hit in out]

    def _recall(self, places: Sequence[Place], op: SearchOp, now: datetime) -> list[tuple[MemoryRecord, Hit | None]]:
        """Hybrid recall in each place (the query embedded once), merged best first."""
        query = op.query or ""
        k = MAX_K if op.filter else max(1, min(MAX_K, op.offset + op.limit))
        embedder = self.memory.embedder
        # One place leaves its query to recall, which runs the model beside its keyword query (in one call with
        # the speaker's form of the question, when perspective_weight asks for it). Several places share one vector.
        vector: Vectors | None = (
            embed_queries(embedder, [query])[0] if embedder is not None and len(places) > 1 else None
        )
        hits: list[Hit] = []
        for place in places:
            hits += hybrid_recall(
                self.memory.store,
                embedder,
                place.scope,
                query,
                k=k,
                filter_=Filter(tags=frozenset({namespace_tag(place.rest)})),
                now=now,
                policy=self.memory.policy,
                query_vector=vector,
            )
        hits.sort(key=lambda h: h.score, reverse=True)
        return [(h.record, h) for h in hits]

    def _list_namespaces(self, op: ListNamespacesOp, now: datetime) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        heads = [c.path[:2] for c in conditions if c.match_type == "prefix"]
        found: set[tuple[str, ...]] = set()
        for scope in self.memory.store.iter_scopes():
            head = (scope.tenant,) if scope.user is None else (scope.tenant, scope.user)
            if not all(namespace_matches(head, h[: len(head)], "prefix") for h in heads):
                continue
            for record in self._live(scope, [namespace_tag(())], now):
                fields = item_fields(record)
                if fields is not None:
                    found.add(fields[0])
        names = [ns for ns in found if all(namespace_matches(ns, c.path, c.match_type) for c in conditions)]
        if op.max_depth is not None:
            names = [ns[: op.max_depth] for ns in names]
        return sorted(set(names))[op.offset : op.offset + op.limit]

    # -- writes --------------------------------------------------------------------------------------------------

    def _put(self, scope: Scope, ops: Sequence[PutOp], now: datetime) -> None:
        """Store, replace and delete the items of one scope in one transaction."""
        store = self.memory.store
        with store.transaction():
            current: dict[tuple[tuple[str, ...], str], MemoryRecord] = {}
            by_place: dict[tuple[str, ...], list[str]] = {}
            for op in ops:
                by_place.setdefault(tuple(op.namespace), []).append(op.key)
            for namespace, keys in by_place.items():
                for key, record in self._current(place_of(namespace), keys, now).items():
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
                (unindexed if op.index is False else indexed).append(self._new_memory(op, old))
            if indexed:
                self.memory.remember_many(scope, indexed)
            if unindexed:
                self._unindexed.remember_many(scope, unindexed)

    def _new_memory(self, op: PutOp, old: MemoryRecord | None) -> NewMemory:
        value = op.value or {}
        created = None
        if old is not None:
            old_fields = item_fields(old)
            created = old_fields[3] if old_fields is not None else old.created_at
        tags, metadata = record_fields(op.namespace, op.key, value, created, op.ttl)
        fields = self.fields if op.index is None or op.index is False else tuple(op.index)
        return NewMemory(
            indexed_text(value, fields, get_text_at_path),
            type=self.type,
            source=self.source,
            tags=tags,
            ttl=None if op.ttl is None else timedelta(minutes=op.ttl),
            metadata=metadata,
            dedupe=False,  # items are identified by key: equal values under two keys are two items
            supersedes=None if old is None else old.id,
        )
