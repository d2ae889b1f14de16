"""A client is told when its tools and resources change: a core block defined by any door brings the core tools."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import mcp_types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from live_server import live_server
from test_mcp import ALICE, run, stdio_params
from tiermem.memory import Memory
from tiermem.server.mcp import build_mcp_server, define_blocks
from tiermem.server.settings import RateLimit

CHANGED = (mcp_types.ToolListChangedNotification, mcp_types.ResourceListChangedNotification)


async def wait_for(seen: list[Any], count: int, seconds: float = 10) -> None:
    with anyio.fail_after(seconds):
        while len(seen) < count:
            await anyio.sleep(0.05)


def collector(seen: list[Any]) -> Callable[[Any], Awaitable[None]]:
    async def handle(message: Any) -> None:
        if isinstance(message, CHANGED):
            seen.append(message)

    return handle


def test_handshake_client_is_told_when_a_block_is_defined(mem: Memory) -> None:
    server = build_mcp_server(mem, lambda _request: ALICE, watch_interval=0.05)
    seen: list[Any] = []

    async def body() -> tuple[list[str], list[str]]:
        async with Client(server, mode="legacy", message_handler=collector(seen)) as client:
            before = [t.name for t in (await client.list_tools()).tools]
            await anyio.sleep(0.2)
            define_blocks(mem, ALICE, {"human": 100})  # another door: the Python API
            await wait_for(seen, 2)
            return before, [t.name for t in (await client.list_tools()).tools]

    before, after = run(body)
    assert "core_memory_append" not in before and "core_memory_append" in after
    assert {type(m) for m in seen} == set(CHANGED)


def test_listening_client_is_told_when_a_block_is_defined(mem: Memory) -> None:
    server = build_mcp_server(mem, lambda _request: ALICE, watch_interval=0.05)

    async def body() -> list[Any]:
        events = []
        async with Client(server) as client, client.listen(tools_list_changed=True, resources_list_changed=True) as sub:
            await anyio.sleep(0.2)
            define_blocks(mem, ALICE, {"human": 100})
            with anyio.fail_after(10):
                async for event in sub:
                    events.append(event)
                    if len(events) == 2:
                        break
        return events

    assert {type(e).__name__ for e in run(body)} == {"ToolsListChanged", "ResourcesListChanged"}


def test_stdio_server_announces_list_changes_and_sends_them(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    seen: list[Any] = []

    async def body() -> tuple[Any, list[str]]:
        params = stdio_params(db, "--tenant", "acme", "--user", "alice")
        async with Client(params, mode="legacy", message_handler=collector(seen)) as client:
            await client.list_tools()
            await anyio.sleep(0.5)
            with Memory.open(db, embedder="hash") as other:  # another process's write, as the CLI would make it
                define_blocks(other, ALICE, {"human": 100})
            await wait_for(seen, 2)
            return client.server_capabilities, [t.name for t in (await client.list_tools()).tools]

    capabilities, names = run(body)
    assert capabilities.tools.list_changed and capabilities.resources.list_changed
    assert "core_memory_replace" in names


def test_a_block_defined_over_rest_reaches_a_listening_http_client(tmp_path: Path) -> None:
    with live_server(tmp_path / "s.db", rate=RateLimit(per_second=0)) as server:
        key = server.key("acme", "alice")
        auth = {"Authorization": f"Bearer {key}"}

        async def body() -> list[str]:
            transport = streamable_http_client(f"{server.url}/mcp", http_client=httpx2.AsyncClient(headers=auth))
            events = []
            async with Client(transport) as client, client.listen(tools_list_changed=True) as sub:
                async with httpx.AsyncClient(base_url=server.url, headers=auth) as rest:
                    made = await rest.put("/v1/core/human", json={"limit": 100})
                    assert made.status_code == 200, made.text
                with anyio.fail_after(15):
                    async for event in sub:
                        events.append(type(event).__name__)
                        break
                events += [t.name for t in (await client.list_tools()).tools]
            return events

        seen = run(body)
    assert seen[0] == "ToolsListChanged" and "core_memory_append" in seen[1:]
