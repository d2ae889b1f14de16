"""The hot routes cost one trip to the runtime's HotPool a request (two thread wake-ups), none to anyio's."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
import pytest

from live_server import live_server


def test_search_and_remember_each_take_one_trip_to_the_hot_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with live_server(tmp_path / "hops.db", credential_cache_seconds=600) as server:  # no re-verifying
        secret = server.key("acme", "alice")
        with server.client(secret) as http:
            http.post("/v1/memories", json={"content": "the spare key is under the blue pot"})  # key verified
            anyio_trips: list[str] = []
            run_sync = anyio.to_thread.run_sync

            async def counted(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
                anyio_trips.append(getattr(func, "__name__", repr(func)))
                return await run_sync(func, *args, **kwargs)

            monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
            pool = server.runtime.hot_pool
            before = pool.trips
            assert http.post("/v1/memories", json={"content": "the bike pump is in the shed"}).status_code == 201
            assert pool.trips == before + 1
            found = http.post("/v1/memories/search", json={"query": "where is the bike pump?", "k": 3})
            assert found.status_code == 200 and found.json()["hits"]
            assert pool.trips == before + 2
            assert anyio_trips == []


def test_the_hot_pool_stops_its_threads_when_the_runtime_closes(tmp_path: Path) -> None:
    with live_server(tmp_path / "stop.db") as server:
        pool = server.runtime.hot_pool
        with server.client(server.key("acme", "bob")) as http:
            assert http.post("/v1/memories/search", json={"query": "anything"}).status_code == 200
        assert any(t.name.startswith("tiermem-hot") for t in threading.enumerate())
    assert not any(t.name.startswith("tiermem-hot") and t.is_alive() for t in threading.enumerate())
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(pool.run(print))
