"""The hot routes' thread trips: none when a request is alone, one (to the runtime's HotPool) when others are under way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
import pytest

from live_server import LiveServer, live_server
from tiermem.server.fast import FastRoutes


def _fast_routes(server: LiveServer) -> FastRoutes:
    """The app's FastRoutes middleware (built on the first request)."""
    app: Any = server.app.middleware_stack
    while not isinstance(app, FastRoutes):
        app = app.app
    return app


def _count_anyio_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    trips: list[str] = []
    run_sync = anyio.to_thread.run_sync

    async def counted(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(func, "__name__", repr(func)))
        return await run_sync(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    return trips


def test_a_lone_hot_request_takes_no_thread_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with live_server(tmp_path / "hops.db", credential_cache_seconds=600) as server:
        with server.client(server.key("acme", "alice")) as http:
            http.post("/v1/memories", json={"content": "the spare key is under the blue pot"})  # key verified
            anyio_trips = _count_anyio_trips(monkeypatch)
            pool = server.runtime.hot_pool
            before = pool.trips
            assert http.post("/v1/memories", json={"content": "the bike pump is in the shed"}).status_code == 201
            found = http.post("/v1/memories/search", json={"query": "where is the bike pump?", "k": 3})
            assert found.status_code == 200 and found.json()["hits"]
            assert anyio_trips == [] and pool.trips == before


def test_a_hot_request_among_others_takes_one_trip_to_the_hot_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with live_server(tmp_path / "hops.db", credential_cache_seconds=600) as server:
        with server.client(server.key("acme", "alice")) as http:
            http.post("/v1/memories", json={"content": "the spare key is under the blue pot"})  # key verified
            anyio_trips = _count_anyio_trips(monkeypatch)
            fast = _fast_routes(server)
            pool = server.runtime.hot_pool
            before = pool.trips
            fast._busy += 1  # another hot request under way
            try:
                assert http.post("/v1/memories", json={"content": "the bike pump is in the shed"}).status_code == 201
                assert pool.trips == before + 1
                found = http.post("/v1/memories/search", json={"query": "where is the bike pump?", "k": 3})
                assert found.status_code == 200 and found.json()["hits"]
                assert pool.trips == before + 2
            finally:
                fast._busy -= 1
            assert anyio_trips == []
