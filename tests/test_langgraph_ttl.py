"""The LangGraph adapter's TTLs: minutes per put, refresh on read when asked, and sweeps that really delete."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("langgraph")

from langgraph_helpers import memory, pg_url  # noqa: F401  (fixtures)
from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConfigError, ValidationError
from tiermem.integrations.langgraph import AsyncTiermemStore, ScoredItem, TiermemStore

ANN = ("notes", "ann")
SCOPE = Scope("notes", "ann")
BRIEF = 0.002  # minutes: 120 ms


@pytest.fixture
def store() -> Iterator[TiermemStore]:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        yield TiermemStore(mem)


def _expiry(store: TiermemStore) -> float:
    [record] = store.memory.list(SCOPE).records
    assert record.expires_at is not None
    return (record.expires_at - record.created_at).total_seconds()


def _until(condition: object, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def test_ttl_sets_the_records_expiry_in_minutes(store: TiermemStore) -> None:
    store.put(ANN, "k", {"text": "short lived"}, ttl=10)
    assert _expiry(store) == pytest.approx(600, abs=1)


def test_a_read_refreshes_the_ttl_only_when_the_config_says_so_or_the_read_asks(store: TiermemStore) -> None:
    store.put(ANN, "k", {"text": "short lived"}, ttl=10)
    [first] = store.memory.list(SCOPE).records
    store.get(ANN, "k")
    store.search(ANN)
    assert store.ttl_config == {"refresh_on_read": False}
    assert store.memory.list(SCOPE).records[0].expires_at == first.expires_at  # nobody asked
    store.get(ANN, "k", refresh_ttl=True)
    [asked] = store.memory.list(SCOPE).records
    assert asked.expires_at is not None and first.expires_at is not None and asked.expires_at > first.expires_at
    refreshing = TiermemStore(store.memory, ttl={"refresh_on_read": True})
    refreshing.search(ANN, query="short lived")
    [searched] = store.memory.list(SCOPE).records
    assert searched.expires_at is not None and searched.expires_at > asked.expires_at
    refreshing.get(ANN, "k", refresh_ttl=False)
    assert store.memory.list(SCOPE).records[0].expires_at == searched.expires_at
    assert searched.version == first.version  # a refresh is not a new version of the item


def test_a_refreshed_item_is_found_by_its_vector_after_its_first_expiry(memory: Memory) -> None:  # noqa: F811
    store = TiermemStore(memory, ttl={"refresh_on_read": True})
    ttl = 1.2  # seconds: margins a busy machine's pauses fit in
    put_at = time.monotonic()
    store.put(ANN, "k", {"text": "the spare key is under the blue flowerpot"}, ttl=ttl / 60)
    store.put(ANN, "other", {"text": "a note that stays"})
    time.sleep(max(0.0, put_at + ttl / 2 - time.monotonic()))
    assert store.get(ANN, "k") is not None  # refreshed: now expires at least 1.8 s after the put
    time.sleep(max(0.0, put_at + ttl + 0.1 - time.monotonic()))  # past the first expiry, before the refreshed one
    [found] = store.search(ANN, query="where is the spare key?", limit=1)
    assert isinstance(found, ScoredItem) and found.key == "k"
    assert {p.name for p in found.parts if p.rank is not None} >= {"keyword", "vector"}  # each index has the new expiry


def test_an_expired_item_is_never_returned(store: TiermemStore) -> None:
    store.put(ANN, "k", {"text": "gone soon"}, ttl=BRIEF / 2)
    store.put(ANN, "kept", {"text": "stays"})
    time.sleep(0.1)
    assert store.get(ANN, "k") is None
    assert [i.key for i in store.search(ANN)] == ["kept"]
    assert [i.key for i in store.search(ANN, query="gone soon")] == ["kept"]


def test_sweep_ttl_deletes_expired_items_and_counts_them(memory: Memory) -> None:  # noqa: F811
    store = TiermemStore(memory, ttl={"default_ttl": 1 / 60})  # a second: the sweep before it finds nothing
    store.put(ANN, "a", {"text": "gone soon"})
    store.put(ANN, "b", {"text": "gone soon too"})
    store.put(ANN, "kept", {"text": "stays"}, ttl=None)
    assert store.sweep_ttl() == 0
    time.sleep(1.05)
    assert store.sweep_ttl() == 2
    assert memory.store.count(SCOPE) == 1 and [i.key for i in store.search(ANN)] == ["kept"]


def test_ttl_sweeper_deletes_expired_items() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        store = TiermemStore(mem, ttl={"default_ttl": BRIEF / 2, "sweep_interval_minutes": BRIEF / 2})
        future = store.start_ttl_sweeper()
        assert store.start_ttl_sweeper() is future  # one sweeper per store
        store.put(ANN, "a", {"text": "gone soon"})
        assert _until(lambda: mem.store.count(SCOPE) == 0)
        assert store.stop_ttl_sweeper(timeout=5)
        assert future.done() and future.exception() is None
        store.put(ANN, "b", {"text": "stays: nobody sweeps"})
        time.sleep(0.15)
        assert mem.store.count(SCOPE) == 1


def test_cancelling_the_sweepers_future_stops_it() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        store = TiermemStore(mem)
        future = store.start_ttl_sweeper(sweep_interval_minutes=BRIEF)
        assert future.cancel()
        assert _until(lambda: store.stop_ttl_sweeper(timeout=0))


def test_async_ttl_sweeper_deletes_expired_items() -> None:
    async def scenario(mem: Memory) -> tuple[int, int, bool]:
        store = AsyncTiermemStore(mem, ttl={"default_ttl": BRIEF / 2, "sweep_interval_minutes": BRIEF / 2})
        task = await store.start_ttl_sweeper()
        await store.aput(ANN, "a", {"text": "gone soon"})
        before = mem.store.count(SCOPE)
        for _ in range(250):
            if mem.store.count(SCOPE) == 0:
                break
            await asyncio.sleep(0.02)
        stopped = await store.stop_ttl_sweeper(timeout=5)
        await store.aput(ANN, "b", {"text": "gone soon"})
        await asyncio.sleep(0.1)
        return before, await store.sweep_ttl(), stopped and task.done()

    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        before, swept_by_hand, stopped = asyncio.run(scenario(mem))
        assert (before, swept_by_hand, stopped) == (1, 1, True)
        assert mem.store.count(SCOPE) == 0


@pytest.mark.parametrize(
    ("ttl", "message"),
    [
        ({"default_ttl": -1}, r"ttl\.default_ttl must be a positive number"),
        ({"default_ttl": 5, "max_age": 3}, r"unknown keys \['max_age'\]"),
        ("5", r"ttl must be a mapping of default_ttl"),
    ],
)
def test_a_ttl_config_it_cannot_use_is_refused_naming_the_field(ttl: object, message: str) -> None:
    with Memory.open(":memory:", embedder=None) as mem, pytest.raises(ConfigError, match=message):
        TiermemStore(mem, ttl=ttl)  # type: ignore[arg-type]


@pytest.mark.parametrize("ttl", [0, -5, float("nan"), float("inf")])
def test_a_ttl_that_is_not_a_positive_number_of_minutes_is_refused(store: TiermemStore, ttl: float) -> None:
    with pytest.raises(ValidationError, match="ttl"):
        store.put(ANN, "k", {"text": "x"}, ttl=ttl)
    assert store.get(ANN, "k") is None


def test_sweep_interval_must_be_a_positive_number_of_minutes(store: TiermemStore) -> None:
    with pytest.raises(ValueError, match="sweep_interval_minutes"):
        store.start_ttl_sweeper(sweep_interval_minutes=-1)
