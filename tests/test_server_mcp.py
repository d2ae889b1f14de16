"""MCP on the REST server: ``tiermem serve`` answers the SDK's streamable-HTTP client at /mcp with the same API keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from served_process import make_key, served
from test_mcp import run, text
from test_mcp_http import INITIALIZE

NOTE = "The spare office key hangs behind the reception desk."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    db = tmp_path_factory.mktemp("mcp-serve") / "service.db"
    keys = {name: make_key(db, tenant, "alice" if name != "bob" else "bob") for name, tenant in
            (("alice", "acme"), ("bob", "acme"), ("carol", "globex"))}  # fmt: skip
    with served(db) as url:
        yield url, keys


def _client(url: str, secret: str) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {secret}"})
    return Client(streamable_http_client(f"{url}/mcp", http_client=http))


def test_mcp_on_the_server_lists_tools_and_finds_a_note_with_an_api_key(server: tuple[str, dict[str, str]]) -> None:
    url, keys = server

    async def body() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with _client(url, keys["alice"]) as alice:
            seen["tools"] = [t.name for t in (await alice.list_tools()).tools]
            seen["stored"] = await alice.call_tool("archival_memory_insert", {"content": NOTE})
            seen["alice"] = await alice.call_tool("archival_memory_search", {"query": "office key"})
        for name in ("bob", "carol"):  # another user of the tenant; the same user id in another tenant
            async with _client(url, keys[name]) as other:
                seen[name] = await other.call_tool("archival_memory_search", {"query": "office key"})
        return seen

    seen = run(body)
    assert {"archival_memory_search", "archival_memory_insert", "forget"} <= set(seen["tools"])
    assert text(seen["stored"]).startswith("ok: stored archival note")
    assert NOTE in text(seen["alice"])
    for name in ("bob", "carol"):
        assert NOTE not in text(seen[name]), name


def test_mcp_note_is_the_same_memory_the_rest_api_reads(server: tuple[str, dict[str, str]]) -> None:
    url, keys = server
    run(lambda: _insert(url, keys["alice"], "The printer on the second floor needs A4 paper only."))
    hits = httpx.post(
        f"{url}/v1/memories/search",
        json={"query": "printer paper"},
        headers={"Authorization": f"Bearer {keys['alice']}"},
    ).json()["hits"]
    assert any("second floor" in h["record"]["content"] for h in hits)


async def _insert(url: str, secret: str, note: str) -> None:
    async with _client(url, secret) as c:
        await c.call_tool("archival_memory_insert", {"content": note})


@pytest.mark.parametrize("header", [None, "Bearer tmk_000000000000_" + "x" * 43, "Bearer not-a-key"])
def test_mcp_401_is_the_apps_problem_with_the_v1_challenge(
    server: tuple[str, dict[str, str]], header: str | None
) -> None:
    url, _ = server
    headers = {"Authorization": header} if header else {}
    response = httpx.post(f"{url}/mcp", json=INITIALIZE, headers=headers)
    rest = httpx.get(f"{url}/v1/memories", headers=headers)
    assert response.status_code == rest.status_code == 401
    assert response.headers["content-type"] == rest.headers["content-type"] == "application/problem+json"
    assert response.headers["www-authenticate"] == rest.headers["www-authenticate"] == 'Bearer realm="tiermem"'
    body = response.json()
    assert body["type"] == rest.json()["type"] == "urn:tiermem:problem:unauthorized"
    assert body["request_id"] == response.headers["x-request-id"]


def test_post_to_mcp_is_answered_there_not_redirected(server: tuple[str, dict[str, str]]) -> None:
    url, keys = server
    response = httpx.post(
        f"{url}/mcp",
        json=INITIALIZE,
        headers={"Authorization": f"Bearer {keys['alice']}", "Accept": "application/json, text/event-stream"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["result"]["serverInfo"]
