"""The memory tools over MCP, driven by the SDK's own client: in process, and over stdio through `tiermem mcp`."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from tiermem.agent.tools import TOOL_NAMES, MemoryTools
from tiermem.context.budget import ContextBudget
from tiermem.context.messages import Message
from tiermem.context.window import ContextManager
from tiermem.memory import Memory
from tiermem.server.mcp import DEFAULT_BUDGET, build_mcp_server, define_blocks
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import counter_for_model
from tiermem.types import Scope

ROOT = Path(__file__).resolve().parents[1]
SRC = str(ROOT / "src")
ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
NOTE = "The spare key for the allotment shed hangs behind the red gate."


def run(body: Callable[[], Awaitable[Any]]) -> Any:
    """Run an async test body to its end."""
    return anyio.run(body)


def expected_definitions(memory: Memory, scope: Scope) -> list[dict[str, Any]]:
    """What MemoryTools publishes for ``scope`` (what an MCP client must be shown, exactly)."""
    store = cast(StoreWithContext, memory.store)
    context = ContextManager(store, memory, scope, budget=DEFAULT_BUDGET, counter=counter_for_model("gpt-4o"))
    return MemoryTools(memory, scope, context).definitions()


def as_definitions(tools: list[Any]) -> list[dict[str, Any]]:
    """MCP tools back in the OpenAI function-calling shape MemoryTools.definitions() uses."""
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.input_schema},
        }
        for t in tools
    ]


def text(result: Any) -> str:
    (content,) = result.content
    assert content.type == "text"
    return str(content.text)


# -- in process ----------------------------------------------------------------------------------------------


def test_tools_are_listed_with_the_schemas_memory_tools_publishes(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 120, "persona": 80})
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> list[Any]:
        async with Client(server) as client:
            return (await client.list_tools()).tools

    tools = run(body)
    assert as_definitions(tools) == expected_definitions(mem, ALICE)
    assert tools[0].input_schema["properties"]["block"]["enum"] == ["human", "persona"]


def test_a_note_inserted_is_found_by_archival_memory_search(mem: Memory) -> None:
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> tuple[Any, Any]:
        async with Client(server) as client:
            stored = await client.call_tool("archival_memory_insert", {"content": NOTE, "tags": ["garden"]})
            found = await client.call_tool("archival_memory_search", {"query": "where is the shed key?", "k": 3})
            return stored, found

    stored, found = run(body)
    assert not stored.is_error and text(stored).startswith("ok: stored archival note")
    assert not found.is_error and json.dumps(NOTE) in text(found)
    assert mem.recall(ALICE, "shed key", k=1)[0].record.content == NOTE  # really stored, in alice's scope


def test_the_scope_comes_from_the_resolver_for_every_request(mem: Memory) -> None:
    caller = [ALICE]  # who the host says is asking, request by request
    server = build_mcp_server(mem, lambda _request: caller[0])

    async def body() -> tuple[Any, Any]:
        async with Client(server) as client:
            await client.call_tool("archival_memory_insert", {"content": NOTE})
            caller[0] = BOB
            as_bob = await client.call_tool("archival_memory_search", {"query": "spare key shed"})
            forged = await client.call_tool("archival_memory_search", {"query": "spare key", "user": "alice"})
            return as_bob, forged

    as_bob, forged = run(body)
    assert text(as_bob).startswith("no archival memories match")
    assert forged.is_error and "unknown argument 'user'" in text(forged)  # a scope is never an argument
    assert mem.recall(ALICE, "spare key", k=1)[0].record.content == NOTE


def test_a_wrong_call_is_an_error_result_the_model_can_act_on(mem: Memory) -> None:
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> list[Any]:
        async with Client(server) as client:
            return [
                await client.call_tool("archival_memory_search", {"query": "x", "k": 99}),
                await client.call_tool("core_memory_append", {"block": "human", "text": "Likes tea."}),
                await client.call_tool("no_such_tool", {}),
            ]

    too_many, no_block, unknown = run(body)
    assert too_many.is_error and "'k' must be from 1 to 20; given 99" in text(too_many)
    assert no_block.is_error and "no core block 'human'" in text(no_block)
    assert unknown.is_error and "the memory tools are: core_memory_append" in text(unknown)


def test_core_blocks_are_read_only_resources_of_the_callers_scope(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 120})
    define_blocks(mem, BOB, {"notes": 50})
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> tuple[Any, Any, Any]:
        async with Client(server) as client:
            await client.call_tool("core_memory_append", {"block": "human", "text": "Prefers the window seat."})
            listed = await client.list_resources()
            read = await client.read_resource("tiermem://core/human")
            with pytest.raises(MCPError, match="no resource 'tiermem://core/notes'"):
                await client.read_resource("tiermem://core/notes")  # bob's block
            return listed, read, None

    listed, read, _ = run(body)
    assert [r.uri for r in listed.resources] == ["tiermem://core/human"]
    assert read.contents[0].text == "Prefers the window seat."


def test_define_blocks_leaves_an_existing_block_as_it_is(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 120})
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> None:
        async with Client(server) as client:
            await client.call_tool("core_memory_append", {"block": "human", "text": "Walks to work."})

    run(body)
    define_blocks(mem, ALICE, {"human": 60})
    (block,) = mem.store.load_core_blocks(ALICE)  # type: ignore[attr-defined]
    assert (block.limit, block.value) == (120, "Walks to work.")


def test_a_saved_message_window_of_the_scope_is_neither_loaded_nor_rewritten(mem: Memory) -> None:
    scope = Scope("acme", "alice", agent="atlas", session="s1")
    chat = ContextManager(
        cast(StoreWithContext, mem.store), mem, scope, budget=DEFAULT_BUDGET, counter=counter_for_model("gpt-4o")
    )
    for i in range(12):
        chat.append(Message.user(f"Day {i}: the fence by the vegetable patch needs another coat of green paint."))
    before = mem.store.load_context_window(scope)  # type: ignore[attr-defined]
    # A budget whose message part holds a few of those messages: loading the window would page most out.
    small = ContextBudget(window=400, system=20, core=80, output_reserve=100, retrieval_reserve=0)
    server = build_mcp_server(mem, lambda _request: scope, budget=small)

    async def body() -> Any:
        async with Client(server) as client:
            await client.list_tools()
            return await client.call_tool("conversation_search", {"query": "fence paint", "k": 3})

    found = run(body)
    assert "green paint" in text(found) and "paged out" in text(found)  # recall, not a window, answers
    assert mem.store.load_context_window(scope).message_ids == before.message_ids  # type: ignore[attr-defined]


def test_core_blocks_over_the_servers_core_budget_are_reported_not_hidden(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 300})
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def fill() -> None:
        async with Client(server) as client:
            result = await client.call_tool("core_memory_append", {"block": "human", "text": "word " * 200})
            assert not result.is_error, text(result)

    run(fill)
    small = ContextBudget(window=8000, system=600, core=100, output_reserve=1000, retrieval_reserve=500)
    narrow = build_mcp_server(mem, lambda _request: ALICE, budget=small)

    async def body() -> Any:
        async with Client(narrow) as client:
            with pytest.raises(MCPError, match="over the core budget 100"):
                await client.list_tools()
            return await client.call_tool("archival_memory_search", {"query": "anything"})

    result = run(body)
    assert result.is_error and "over the core budget 100" in text(result)


TOKEN = "ghp_" + "Wq4Ez8Rt2Yu6Io0Pa3Sd7Fg1Hj5Kl9Zx2Cv4Bn8M"  # the shape of a GitHub token, made up
KEY_ID = "AKIA" + "TW5QX8RZ2MV7LC4N"  # the shape of an AWS access key id, made up


def test_a_credential_in_a_malformed_write_argument_is_refused_and_audited_not_repeated(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 120})
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> list[Any]:
        async with Client(server) as client:
            return [
                await client.call_tool("archival_memory_insert", {"content": "hi", "tags": [f"deploy {TOKEN}"]}),
                await client.call_tool("archival_memory_insert", {"content": {"password": "Lantern#Orbit42"}}),
                await client.call_tool("core_memory_append", {"block": "human", "text": "x", "content": KEY_ID}),
                await client.call_tool("archival_memory_insert", {"content": "hi", "tags": ["two words"]}),
            ]

    tag, typed, letta, plain = run(body)
    for result, kind in ((tag, "GitHub token"), (typed, "password"), (letta, "AWS")):
        assert result.is_error and f"holds a{'n' if kind == 'AWS' else ''} {kind}" in text(result)
        assert TOKEN not in text(result) and KEY_ID not in text(result) and "Lantern" not in text(result)
    assert plain.is_error and 'given "two words"' in text(plain)  # a value without a credential is still shown
    refusals = [e.detail for e in mem.audit(ALICE) if e.op == "refuse"]
    assert len(refusals) == 3 and "tags[0] holds a GitHub token" in refusals[0]
    assert not any(TOKEN in d or KEY_ID in d for d in refusals)


def test_a_tool_argument_error_withholds_a_credential_and_names_a_plain_value(mem: Memory) -> None:
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> list[Any]:
        async with Client(server) as client:
            return [
                await client.call_tool("archival_memory_search", {"query": "x", "start_date": TOKEN}),
                await client.call_tool("conversation_search", {"query": "x", "k": 3, "limit": KEY_ID}),
                await client.call_tool("archival_memory_search", {"query": "x", TOKEN: 1}),
                await client.call_tool(TOKEN, {}),
                await client.call_tool("archival_memory_search", {"query": "x", "start_date": "soon"}),
            ]

    *withheld, plain = run(body)
    for result in withheld:
        assert result.is_error and TOKEN not in text(result) and KEY_ID not in text(result), text(result)
        assert "withheld" in text(result)
    assert plain.is_error and 'given "soon"' in text(plain)
    assert not [e for e in mem.audit(ALICE) if e.op == "refuse"]  # a search is not a write: nothing is refused


def test_a_resource_uri_or_prompt_name_holding_a_credential_is_not_repeated(mem: Memory) -> None:
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> list[MCPError]:
        errors = []
        async with Client(server) as client:
            for ask in (
                lambda: client.read_resource(f"tiermem://core/{TOKEN}"),
                lambda: client.get_prompt(f"password {KEY_ID}"),
                lambda: client.read_resource("tiermem://core/notes"),
            ):
                with pytest.raises(MCPError) as failed:
                    await ask()
                errors.append(failed.value)
        return errors

    *withheld, plain = run(body)
    for error in withheld:
        said = f"{error} {error.error.data}"
        assert TOKEN not in said and KEY_ID not in said and "withheld" in said
    assert "no resource 'tiermem://core/notes'" in str(plain)


# -- over stdio: `tiermem mcp` as the client's subprocess ----------------------------------------------------


def stdio_params(db: Path, *args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    code = "from tiermem.cli import main; main()"
    environment = {"PYTHONPATH": SRC, "TIERMEM_EMBEDDER": "hash", **(env or {})}
    return StdioServerParameters(
        command=sys.executable, args=["-c", code, "mcp", "--db", str(db), *args], env=environment
    )


def test_stdio_server_lists_the_tools_and_finds_a_note_for_its_user_only(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"

    async def body() -> tuple[Any, Any, Any, Any]:
        async with Client(stdio_params(db, "--tenant", "acme", "--user", "alice", "--block", "human=120")) as client:
            tools = (await client.list_tools()).tools
            stored = await client.call_tool("archival_memory_insert", {"content": NOTE})
            found = await client.call_tool("archival_memory_search", {"query": "spare key for the shed"})
        async with Client(stdio_params(db, "--tenant", "acme", "--user", "bob")) as client:
            other = await client.call_tool("archival_memory_search", {"query": "spare key for the shed"})
        return tools, stored, found, other

    tools, stored, found, other = run(body)
    with Memory.open(db, embedder="hash") as memory:
        assert as_definitions(tools) == expected_definitions(memory, ALICE)
    assert tools[0].input_schema["properties"]["block"]["enum"] == ["human"]
    assert text(stored).startswith("ok: stored archival note")
    assert json.dumps(NOTE) in text(found)
    assert text(other).startswith("no archival memories match")  # bob's server never sees alice's note


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "Missing option '--user'"),
        (("--user", "alice", "--block", "human"), "--block: must be NAME=TOKENS"),
        (("--user", "a/b"), "user"),
    ],
)
def test_mcp_command_refuses_bad_options_before_serving(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    import subprocess

    env = {**os.environ, "PYTHONPATH": SRC, "TIERMEM_EMBEDDER": "hash"}
    code = "from tiermem.cli import main; main()"
    db = tmp_path / "m.db"
    proc = subprocess.run(
        [sys.executable, "-c", code, "mcp", "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert not db.exists()


# -- the client configuration documented in docs/mcp.md ------------------------------------------------------


def documented_servers() -> list[dict[str, Any]]:
    """Every server entry of the mcpServers JSON blocks in docs/mcp.md."""
    doc = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"^```json\n(.*?)^```", doc, re.M | re.S)]
    return [entry for block in blocks for entry in block["mcpServers"].values()]


def test_docs_configure_one_stdio_and_one_http_server() -> None:
    kinds = sorted("command" if "command" in e else "url" for e in documented_servers())
    assert kinds == ["command", "url"]


def test_documented_client_config_starts_the_stdio_server(tmp_path: Path) -> None:
    (entry,) = [e for e in documented_servers() if "command" in e]
    assert entry["command"] == "tiermem" and entry["args"][0] == "mcp"
    command = shutil.which("tiermem", path=str(Path(sys.executable).parent))
    assert command is not None
    # The documented entry as a client would launch it; only the database moves to this test's folder.
    env = {**entry.get("env", {}), "TIERMEM_DB": str(tmp_path / "memory.db"), "TIERMEM_EMBEDDER": "hash"}
    params = StdioServerParameters(command=command, args=entry["args"], env={**env, "PYTHONPATH": SRC})

    async def body() -> tuple[list[str], str]:
        async with Client(params) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            await client.call_tool("archival_memory_insert", {"content": NOTE})
            return names, text(await client.call_tool("archival_memory_search", {"query": "shed key"}))

    names, found = run(body)
    assert names == list(TOOL_NAMES)  # the documented entry defines blocks, so the core tools are offered
    assert json.dumps(NOTE) in found
    assert (tmp_path / "memory.db").exists()


@pytest.mark.slow
def test_documented_config_with_the_default_model_finds_a_paraphrase(tmp_path: Path) -> None:
    (entry,) = [e for e in documented_servers() if "command" in e]
    command = shutil.which("tiermem", path=str(Path(sys.executable).parent))
    assert command is not None
    env = {**entry.get("env", {}), "TIERMEM_DB": str(tmp_path / "memory.db"), "PYTHONPATH": SRC}
    params = StdioServerParameters(command=command, args=entry["args"], env=env)  # the real model, as documented

    async def body() -> str:
        async with Client(params) as client:
            await client.call_tool("archival_memory_insert", {"content": "My sister's cat is named Pickles."})
            await client.call_tool("archival_memory_insert", {"content": "The quarterly report is due in March."})
            # A paraphrase: the note says "cat" and "named"; a word no note holds ("kitten") counts neither way.
            query = {"query": "what is my sister's kitten called?", "k": 1}
            return text(await client.call_tool("archival_memory_search", query))

    assert "Pickles" in run(body)


def test_letta_style_core_memory_replace_works_over_stdio(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"

    async def body() -> tuple[str, str]:
        async with Client(stdio_params(db, "--user", "alice", "--block", "human=120")) as client:
            await client.call_tool("core_memory_append", {"label": "human", "content": "Lives in Porto."})
            replaced = await client.call_tool(
                "core_memory_replace", {"label": "human", "old_content": "Porto", "new_content": "Lisbon"}
            )
            read = await client.read_resource("tiermem://core/human")
            return text(replaced), str(read.contents[0].text)

    replaced, value = run(body)
    assert replaced.startswith("ok: replaced text in core block 'human'"), replaced
    assert value == "Lives in Lisbon."
