"""Isolation proofs any memory backend must pass: subclass IsolationContract and provide ``make_target``.

Hypothesis generates a world of tenants, users, agents and sessions with records in each, then a probe: a
scope, a query, a filter, an ``as_of`` time, list cursors taken from other scopes, and record ids from everywhere
(plus made-up ones). No read, search, list, history, audit, export, erase, forget or context call may return
or change data outside the probe's scope. The target is anything with ``Memory``'s methods (the library
facade, a remote client) and, optionally, a context store; each example starts from an empty one.

What "inside the scope" means: a record is visible at ``Scope(tenant, user, agent, session)`` when tenant and
user are equal (``None`` user = the tenant's shared memory, which is its own scope) and agent and session are
equal where the probe names them. Audit and export are per (tenant, user) by design (their docstrings say
agent and session are ignored), so for them the (tenant, user) is the wall.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiermem.context.core import CoreMemory
from tiermem.errors import NotFoundError, ValidationError
from tiermem.memory import Memory
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import TiktokenCounter
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope, SourceKind, utcnow

__all__ = ["IsolationContract", "IsolationTarget", "visible", "with_examples"]

EXAMPLES = 30  # per property; the whole file runs in well under a minute on the SQLite store
COUNTER = TiktokenCounter("o200k_base")
WORDS = "apple harbour violin garden ticket river lantern coffee meadow pottery invoice cabin".split()
SOURCES = ["user", "agent", "tool:search", "web:https://pages.example.com/a"]


@dataclass
class IsolationTarget:
    """What the suite drives: a Memory-like object and, if the backend keeps working context, its store."""

    memory: Memory  # or anything with the same methods (a remote client)
    context: StoreWithContext | None = None
    closers: list[Any] = field(default_factory=list)

    def close(self) -> None:
        """Release what the factory opened."""
        self.memory.close()
        for close in self.closers:
            close()


def visible(probe: Scope, record_scope: Scope) -> bool:
    """A record of ``record_scope`` may be returned at ``probe``."""
    return (
        probe.tenant == record_scope.tenant
        and probe.user == record_scope.user
        and (probe.agent is None or probe.agent == record_scope.agent)
        and (probe.session is None or probe.session == record_scope.session)
    )


def same_user(probe: Scope, record_scope: Scope) -> bool:
    """Audit and export: the (tenant, user) wall."""
    return probe.tenant == record_scope.tenant and probe.user == record_scope.user


scopes = st.builds(
    Scope,
    st.sampled_from(["t1", "t2"]),
    st.sampled_from([None, "u1", "u2"]),
    st.sampled_from([None, "a1", "a2"]),
    st.sampled_from([None, "s1", "s2"]),
)
texts = st.lists(st.sampled_from(WORDS), min_size=2, max_size=5).map(" ".join)


@st.composite
def writes(draw: st.DrawFn) -> list[tuple[Scope, str, MemoryType, str, tuple[str, ...], int]]:
    """Records to write: (scope, text, type, source, tags, days ago); texts repeat across scopes on purpose."""
    return draw(
        st.lists(
            st.tuples(
                scopes,
                texts,
                st.sampled_from(list(MemoryType)),
                st.sampled_from(SOURCES),
                st.lists(st.sampled_from(["home", "work", "travel"]), max_size=2, unique=True).map(tuple),
                st.integers(0, 30),
            ),
            min_size=1,
            max_size=10,
        )
    )


filters = st.builds(
    Filter,
    types=st.frozensets(st.sampled_from(list(MemoryType)), max_size=2),
    sources=st.frozensets(st.sampled_from(list(SourceKind)), max_size=2),
    tags=st.frozensets(st.sampled_from(["home", "work", "travel"]), max_size=2),
)
as_of_days = st.one_of(st.none(), st.integers(0, 40))
made_up_ids = st.sampled_from(["0", "not-an-id", "01890000-0000-7000-8000-000000000000", "' OR 1=1 --"])
_PROPERTIES: dict[str, tuple[Callable[..., None], dict[str, Any]]] = {}


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
    )


def _property(**strategies: Any) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A property of the contract, run by hypothesis over ``strategies``; kept so ``with_examples`` can rerun it."""

    def wrap(check: Callable[..., None]) -> Callable[..., None]:
        _PROPERTIES[check.__name__] = (check, strategies)
        return _settings(EXAMPLES)(given(**strategies)(check))

    return wrap


def with_examples(examples: int) -> Callable[[type[IsolationContract]], type[IsolationContract]]:
    """A class decorator: every property of the contract with ``examples`` examples (for a slower target)."""

    def apply(cls: type[IsolationContract]) -> type[IsolationContract]:
        for name, (check, strategies) in _PROPERTIES.items():
            setattr(cls, name, _settings(examples)(given(**strategies)(check)))
        return cls

    return apply


class IsolationContract:
    """The isolation properties; a backend subclass supplies ``make_target`` (a fresh, empty target)."""

    def make_target(self) -> IsolationTarget:
        raise NotImplementedError

    @contextlib.contextmanager
    def _world(self, plan: list[tuple[Scope, str, MemoryType, str, tuple[str, ...], int]]) -> Iterator[Any]:
        target = self.make_target()
        try:
            written: dict[str, Scope] = {}
            now = utcnow()
            for scope, text, type_, source, tags, days in plan:
                result = target.memory.remember(
                    scope, text, type=type_, source=source, tags=tags, valid_from=now - timedelta(days=days)
                )
                # A write lands in its scope, or finds its duplicate there (a user-level write may find the same
                # note in one of the user's sessions): deduplication never reaches a sibling agent or session.
                assert visible(scope, result.record.scope), (result.record.scope, scope)
                written[result.record.id] = scope
            yield target, written
        finally:
            target.close()

    def _all_ids(self, memory: Memory, keys: set[tuple[str, str | None]]) -> dict[str, Scope]:
        """Every record's id and scope, found through each (tenant, user)'s export."""
        out = {}
        for tenant, user in keys:
            for r in memory.export(Scope(tenant, user))["records"]:
                out[r["id"]] = Scope(r["tenant"], r["user"], r["agent"], r["session"])
        return out

    def _snapshot(self, memory: Memory, keys: set[tuple[str, str | None]]) -> dict[tuple[str, str | None], Any]:
        """What each (tenant, user) holds: its export (without the time of export) and its audit trail."""
        out = {}
        for tenant, user in keys:
            scope = Scope(tenant, user)
            data = {k: v for k, v in memory.export(scope).items() if k != "exported_at"}
            out[(tenant, user)] = (data, [(e.record_id, e.op, e.version, e.after) for e in memory.audit(scope)])
        return out

    @_property(plan=writes(), probe=scopes, query=texts, filter_=filters, as_of=as_of_days, k=st.integers(1, 10))
    def test_search_returns_only_the_probes_records(
        self, plan: Any, probe: Scope, query: str, filter_: Filter, as_of: int | None, k: int
    ) -> None:
        with self._world(plan) as (target, written):
            when = None if as_of is None else utcnow() - timedelta(days=as_of)
            for hit in target.memory.recall(probe, query, k=k, filter=filter_, as_of=when):
                assert visible(probe, hit.record.scope), (probe, hit.record.scope)
                assert written.get(hit.record.id, hit.record.scope) == hit.record.scope

    @_property(plan=writes(), probe=scopes, other=scopes, filter_=filters, limit=st.integers(1, 4))
    def test_listing_and_cursors_stay_in_the_probes_scope(
        self, plan: Any, probe: Scope, other: Scope, filter_: Filter, limit: int
    ) -> None:
        with self._world(plan) as (target, _):
            memory = target.memory
            cursor: str | None = None
            for _ in range(20):
                page = memory.list(probe, filter=filter_, limit=limit, cursor=cursor)
                assert all(visible(probe, r.scope) for r in page.records)
                cursor = page.next_cursor
                if cursor is None:
                    break
            # A cursor from another scope's listing, or a made-up one, never opens that scope.
            foreign = memory.list(other, limit=1).next_cursor
            for cursor in (foreign, "0", "99999999"):
                with contextlib.suppress(ValidationError):
                    page = memory.list(probe, filter=filter_, limit=limit, cursor=cursor)
                    assert all(visible(probe, r.scope) for r in page.records)

    @_property(plan=writes(), probe=scopes, made_up=made_up_ids)
    def test_reads_by_id_history_audit_and_export_never_cross(self, plan: Any, probe: Scope, made_up: str) -> None:
        with self._world(plan) as (target, _):
            memory = target.memory
            keys = {(s.tenant, s.user) for s, *_ in plan} | {(probe.tenant, probe.user)}
            everything = self._all_ids(memory, keys)
            for record_id, scope in [*everything.items(), (made_up, None)]:
                mine = scope is not None and visible(probe, scope)
                try:
                    record: MemoryRecord = memory.get(probe, record_id)
                except NotFoundError:
                    assert not mine, (probe, scope)
                else:
                    assert mine and record.scope == scope
                try:
                    chain = memory.history(probe, record_id)
                except NotFoundError:
                    assert not mine
                else:
                    assert mine and all(visible(probe, r.scope) for r in chain)
                trail = memory.audit(probe, record_id)
                assert not trail or (scope is not None and same_user(probe, scope))
            for entry in memory.audit(probe):
                assert same_user(probe, everything[entry.record_id])
            data = memory.export(probe)
            assert all(same_user(probe, Scope(r["tenant"], r["user"])) for r in data["records"])

    @_property(plan=writes(), probe=scopes, erased=scopes, made_up=made_up_ids)
    def test_forget_and_erase_change_nothing_outside_their_scope(
        self, plan: Any, probe: Scope, erased: Scope, made_up: str
    ) -> None:
        with self._world(plan) as (target, _):
            memory = target.memory
            keys = {(s.tenant, s.user) for s, *_ in plan} | {(probe.tenant, probe.user), (erased.tenant, erased.user)}
            before = self._snapshot(memory, keys)
            outsiders = [i for i, s in self._all_ids(memory, keys).items() if not visible(probe, s)]
            for record_id in [*outsiders, made_up]:
                try:
                    memory.forget(probe, record_id)
                except NotFoundError:
                    continue
                raise AssertionError(f"forget at {probe} deleted {record_id} of another scope")
            assert self._snapshot(memory, keys) == before
            memory.erase(erased.tenant, erased.user)
            after = self._snapshot(memory, keys)
            for (tenant, user), held in before.items():
                # erase(tenant, None) removes the whole tenant; erase(tenant, user) that user only.
                if tenant != erased.tenant or erased.user not in (None, user):
                    assert after[(tenant, user)] == held, (tenant, user)

    @_property(
        edits=st.lists(st.tuples(scopes, st.sampled_from(["human", "persona"]), texts), min_size=1, max_size=8),
        cleared=scopes,
    )
    def test_core_blocks_belong_to_one_agent_and_deleting_context_touches_no_other(
        self, edits: list[tuple[Scope, str, str]], cleared: Scope
    ) -> None:
        target = self.make_target()
        try:
            store = target.context
            if store is None:
                return  # this backend keeps no working context
            expected: dict[tuple[str, str | None, str | None], dict[str, str]] = {}
            for scope, name, text in edits:
                core = CoreMemory(store, scope, counter=COUNTER, budget=10_000)
                if name not in core:
                    core.define(name, limit=1000)
                core.append(name, text, actor="user")
                key = (scope.tenant, scope.user, scope.agent)
                blocks = expected.setdefault(key, {})
                blocks[name] = f"{blocks[name]}\n{text}" if name in blocks else text
            store.delete_context(Scope(cleared.tenant, cleared.user, cleared.agent))
            for tenant, user, agent in {*expected, (cleared.tenant, cleared.user, cleared.agent)}:
                # delete_context with no agent clears every agent of the user; with one, only that agent's.
                gone = (tenant, user) == (cleared.tenant, cleared.user) and cleared.agent in (None, agent)
                wanted = {} if gone else expected.get((tenant, user, agent), {})
                loaded = store.load_core_blocks(Scope(tenant, user, agent))
                assert {b.name: b.value for b in loaded} == wanted, (tenant, user, agent)
        finally:
            target.close()

    def test_the_same_note_in_sibling_sessions_and_agents_is_two_records(self) -> None:
        target = self.make_target()
        try:
            for i, (first, second) in enumerate(
                [
                    (Scope("t1", "u1", None, "s1"), Scope("t1", "u1", None, "s2")),
                    (Scope("t1", "u1", "a1"), Scope("t1", "u1", "a2")),
                    (Scope("t1", "u1"), Scope("t1", "u2")),
                    (Scope("t1", "u1"), Scope("t2", "u1")),
                    (Scope("t1", None), Scope("t1", "u1")),
                ]
            ):
                note = f"violin lessons on tuesday, week {i}"
                a = target.memory.remember(first, note)
                b = target.memory.remember(second, note)
                assert a.record.id != b.record.id and b.record.scope == second, (first, second)
        finally:
            target.close()
