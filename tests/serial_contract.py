"""Part of the store conformance suite: writers of one user are serialised (``Store.serialise``)."""

from __future__ import annotations

import threading
import time

import pytest

from store_fixtures import ALICE, ANY, NOW, StoreFixture, item, make_record
from tiermem.errors import StoreError
from tiermem.store import Store
from tiermem.store.base import scope_writes
from tiermem.types import MemoryType


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
                seen.append(bool(store.find_by_hash(ALICE, MemoryType.SEMANTIC, [record.content_hash])))

        threads = [threading.Thread(target=first), threading.Thread(target=second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert events == ["first committed", "second entered"]
        assert seen == [True]
        assert [c.id for c in store.keyword_candidates(ALICE, ["first"], ANY, now=NOW, limit=5)] == [record.id]

    def test_serialise_outside_a_transaction_is_refused(self, store: Store) -> None:
        with pytest.raises(StoreError, match="transaction"):
            store.serialise(ALICE)
