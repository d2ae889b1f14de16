"""The MCP endpoint over streamable HTTP, mounted in a FastAPI app with a bearer check of the test's own.

A real uvicorn server on a free loopback port, the SDK's own client: every request is authenticated by the
host, the caller's scope comes from the credential only, and another caller's notes are never found.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
import uvicorn
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from starlette.exceptions import HTTPException
from starlette.requests import Request

from test_mcp import NOTE, as_definitions, documented_servers, expected_definitions, run, text
from tiermem.memory import Memory
from tiermem.server.mcp import define_blocks
from tiermem.server.mcp_http import McpHttpEndpoint
from tiermem.types import Scope

TOKENS = {
    "token-alice": Scope("acme", "alice"),
    "token-bob": Scope("acme", "bob"),
    "token-carol": Scope("globex", "alice"),  # same user id, another tenant
}
BANNED = "token-banned"
NOTES = {  # one note per protocol era, unlike enough not to be merged as near-duplicates
    "auto": (NOTE, "where is the shed key?"),
    "legacy": ("Grandmother's birthday dinner is at the harbour restaurant on Friday.", "birthday dinner venue"),
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def authenticate(request: Request) -> Scope | None:
    """The test's own credential check: a bearer token from a fixed table."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if token == BANNED:
        raise HTTPException(403, "this key is suspended")
    return TOKENS.get(token) if scheme.lower() == "bearer" else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Memory]]:
    """(base URL, the server's Memory) of a FastAPI app with /healthz and the MCP endpoint at /mcp."""
    memory = Memory.open(tmp_path_factory.mktemp("mcp") / "service.db", embedder="hash")
    define_blocks(memory, TOKENS["token-alice"], {"human": 120})
    endpoint = McpHttpEndpoint(memory, authenticate)
    app = FastAPI(lifespan=lambda _app: endpoint.running())
    app.add_api_route("/healthz", lambda: {"ok": True})
    app.add_route("/mcp", endpoint, methods=["GET", "POST", "DELETE"])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=_free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", memory
    server.should_exit = True
    thread.join(timeout=30)
    memory.close()


def client(base: str, token: str | None, mode: str = "auto") -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = streamable_http_client(f"{base}/mcp", http_client=httpx2.AsyncClient(headers=headers))
    return Client(transport, mode=mode)


def test_a_request_without_a_valid_credential_gets_401_before_mcp_reads_it(served: tuple[str, Memory]) -> None:
    base, _ = served
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic token-alice"}):
        response = httpx.post(f"{base}/mcp", json=INITIALIZE, headers=headers)
        assert response.status_code == 401, headers
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["status"] == 401
    assert httpx.get(f"{base}/healthz").json() == {"ok": True}  # the host's own routes are untouched


def _leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def test_the_sdk_client_without_a_credential_cannot_connect(served: tuple[str, Memory]) -> None:
    base, _ = served

    async def body() -> None:
        async with client(base, None) as anonymous:
            await anonymous.list_tools()

    with pytest.raises(BaseException) as caught:  # the SDK raises its MCPError inside task groups
        run(body)
    errors = [e for e in _leaves(caught.value) if isinstance(e, MCPError)]
    assert errors and "error response" in errors[0].message


def test_an_http_exception_from_authenticate_keeps_its_status(served: tuple[str, Memory]) -> None:
    base, _ = served
    response = httpx.post(f"{base}/mcp", json=INITIALIZE, headers={"Authorization": f"Bearer {BANNED}"})
    assert response.status_code == 403
    assert response.json()["detail"] == "this key is suspended"


@pytest.mark.parametrize("mode", ["auto", "legacy"])  # the 2026 per-request protocol, and the initialize handshake
def test_tools_have_memory_tools_schemas_and_a_note_is_found_by_its_owner_only(
    served: tuple[str, Memory], mode: str
) -> None:
    base, memory = served
    note, query = NOTES[mode]

    async def body() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with client(base, "token-alice", mode) as alice:
            seen["tools"] = (await alice.list_tools()).tools
            seen["stored"] = await alice.call_tool("archival_memory_insert", {"content": note})
            seen["alice"] = await alice.call_tool("archival_memory_search", {"query": query})
        for name in ("bob", "carol"):
            async with client(base, f"token-{name}", mode) as other:
                seen[name] = await other.call_tool("archival_memory_search", {"query": query})
                seen[f"{name}_tools"] = (await other.list_tools()).tools
        return seen

    seen = run(body)
    assert as_definitions(seen["tools"]) == expected_definitions(memory, TOKENS["token-alice"])
    assert seen["tools"][0].input_schema["properties"]["block"]["enum"] == ["human"]  # alice's blocks
    assert "core_memory_append" not in [t.name for t in seen["bob_tools"]]  # bob has no block to edit
    assert text(seen["stored"]).startswith("ok: stored archival note")
    assert f'"{note}"' in text(seen["alice"])
    for name in ("bob", "carol"):
        assert note not in text(seen[name]), name
    assert memory.recall(Scope("acme", "alice"), query, k=1)[0].record.content == note


def test_forget_cannot_reach_another_callers_note(served: tuple[str, Memory]) -> None:
    base, memory = served
    record = memory.remember(Scope("acme", "alice"), "The boiler service is booked for the first Monday.").record

    async def body() -> Any:
        async with client(base, "token-bob") as bob:
            return await bob.call_tool("forget", {"id": record.id})

    result = run(body)
    assert result.is_error and "must be the id of an archival note in this memory" in text(result)
    assert memory.get(Scope("acme", "alice"), record.id).content == record.content


def test_documented_http_client_config_reaches_the_endpoint(served: tuple[str, Memory]) -> None:
    base, _ = served
    (entry,) = [e for e in documented_servers() if "url" in e]
    assert entry["url"].endswith("/mcp")
    header = entry["headers"]["Authorization"].replace("<your API key>", "token-alice")

    async def body() -> list[str]:
        http = httpx2.AsyncClient(headers={"Authorization": header})
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http)) as documented:
            return [t.name for t in (await documented.list_tools()).tools]

    assert run(body)[:3] == ["core_memory_append", "core_memory_replace", "archival_memory_insert"]


def test_letta_style_core_memory_replace_works_over_http(served: tuple[str, Memory]) -> None:
    base, memory = served

    async def body() -> tuple[Any, Any]:
        async with client(base, "token-alice") as alice:
            await alice.call_tool("core_memory_append", {"label": "human", "content": "Drinks green tea."})
            replaced = await alice.call_tool(
                "core_memory_replace", {"label": "human", "old_content": "green", "new_content": "jasmine"}
            )
            clash = await alice.call_tool("core_memory_append", {"block": "human", "label": "notes", "text": "x"})
            return replaced, clash

    replaced, clash = run(body)
    assert not replaced.is_error, text(replaced)
    assert "Drinks jasmine tea." in memory.store.load_core_blocks(TOKENS["token-alice"])[0].value  # type: ignore[attr-defined]
    assert clash.is_error and "arguments 'block' and 'label'" in text(clash)
