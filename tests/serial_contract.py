"""Part of the store conformance suite: writers of one user are serialised (``Store.serialise``)."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager

import pytest

from at_once import at_once
from store_fixtures import ALICE, ANY, NOW, StoreFixture, ids, item, make_record
from tiermem.errors import StoreError
from tiermem.store import Store
from tiermem.store.base import scope_writes, tenant_writes
from tiermem.types import MemoryType, Scope


class SerialContract(StoreFixture):
    """What dedupe and supersession rely on: inside ``scope_writes`` a reader sees every earlier writer's rows."""

    def test_a_second_writer_of_a_user_waits_for_the_first_and_then_sees_its_rows(self, store: Store) -> None:
        record = make_record(ALICE, "written by the first writer")
        entered = threading.Event()
        events: list[str] = []
        seen: list[bool] = []

        def first() -> None:
            with scope_writes(store, ALICE):
                entered.set()
                time.sleep(0.3)  # the second writer is at the door by now
                store.put_many([item(record)])
                events.append("first committed")

        def second() -> None:
            entered.wait()
            with scope_writes(store, ALICE):
                events.append("second entered")
                seen.append(bool(store.find_by_hash(ALICE, MemoryType.SEMANTIC, [record.content_hash], now=NOW)))

        threads = [threading.Thread(target=first), threading.Thread(target=second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert events == ["first committed", "second entered"]
        assert seen == [True]
        assert [c.id for c in store.keyword_candidates(ALICE, ["first"], ANY, now=NOW, limit=5)] == [record.id]

    def test_keyword_candidates_racing_a_writer_never_fail_and_never_see_fewer_rows(self, store: Store) -> None:
        words = "amber basil cobalt delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow".split()
        records = [make_record(ALICE, f"the lantern by the {a} {b} gate") for a in words[:5] for b in words[5:]]
        counts: dict[str, list[int]] = {"one": [], "two": []}

        def write() -> None:
            for record in records:
                store.put_many([item(record)])

        def read(name: str) -> None:
            for _ in records:
                found = store.keyword_candidates(ALICE, ["lantern", "gate"], ANY, now=NOW, limit=len(records))
                counts[name].append(len(found))

        at_once(write, *(functools.partial(read, name) for name in counts))
        assert all(c == sorted(c) for c in counts.values()), counts  # a later read never sees fewer rows
        found = store.keyword_candidates(ALICE, ["lantern", "gate"], ANY, now=NOW, limit=len(records))
        assert sorted(ids(found)) == sorted(r.id for r in records)

    def test_a_whole_tenant_and_a_writer_of_any_of_its_users_wait_for_each_other(self, store: Store) -> None:
        newcomer = Scope(ALICE.tenant, "newcomer")  # holds nothing yet: the tenant's writer cannot name it
        record = make_record(newcomer, "written by a new user of the tenant")
        events: list[str] = []

        def hold(name: str, writes: Callable[[], AbstractContextManager[None]], after: float) -> None:
            time.sleep(after)  # the first has the lock by then
            with writes():
                events.append(f"{name} entered")
                time.sleep(0.3)  # the other is at the door by now
                if name == "user":
                    store.put_many([item(record)])
                events.append(f"{name} done")

        user = functools.partial(hold, "user", lambda: scope_writes(store, newcomer))
        tenant = functools.partial(hold, "tenant", lambda: tenant_writes(store, ALICE.tenant))
        at_once(functools.partial(user, 0.0), functools.partial(tenant, 0.1))
        at_once(functools.partial(tenant, 0.0), functools.partial(user, 0.1))
        twice = ["user entered", "user done", "tenant entered", "tenant done"]
        assert events == twice + twice[2:] + twice[:2]

    def test_serialise_outside_a_transaction_is_refused(self, store: Store) -> None:
        with pytest.raises(StoreError, match="transaction"):
            store.serialise(ALICE)
