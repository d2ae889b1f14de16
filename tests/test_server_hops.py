"""The hot routes cost one trip to the thread pool a request (each trip is two thread wake-ups)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
import pytest

from live_server import live_server


def test_search_and_remember_each_take_one_thread_pool_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with live_server(tmp_path / "hops.db", credential_cache_seconds=600) as server:  # no re-verifying trip
        secret = server.key("acme", "alice")
        with server.client(secret) as http:
            http.post("/v1/memories", json={"content": "the spare key is under the blue pot"})  # key verified
            trips: list[str] = []
            run_sync = anyio.to_thread.run_sync

            async def counted(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
                trips.append(getattr(func, "__name__", repr(func)))
                return await run_sync(func, *args, **kwargs)

            monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
            assert http.post("/v1/memories", json={"content": "the bike pump is in the shed"}).status_code == 201
            assert len(trips) == 1, trips
            found = http.post("/v1/memories/search", json={"query": "where is the bike pump?", "k": 3})
            assert found.status_code == 200 and found.json()["hits"]
            assert len(trips) == 2, trips
