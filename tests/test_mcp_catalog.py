"""What an MCP client is told about the tools: titles, the specification's hints, descriptions, templates, a prompt."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from test_mcp import ALICE, NOTE, run, text
from tiermem.agent.tools import CORE_TOOLS, TOOL_NAMES
from tiermem.memory import Memory
from tiermem.server.mcp import build_mcp_server, define_blocks
from tiermem.server.mcp_catalog import INSTRUCTIONS


def listed_tools(mem: Memory) -> dict[str, Any]:
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> list[Any]:
        async with Client(server) as client:
            return (await client.list_tools()).tools

    return {t.name: t for t in run(body)}


def test_every_tool_has_a_title_and_all_four_hints(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 100})
    tools = listed_tools(mem)
    assert list(tools) == list(TOOL_NAMES)
    for tool in tools.values():
        hints = tool.annotations
        assert tool.title and hints.title == tool.title, tool.name
        assert None not in (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint), tool.name
        assert hints.open_world_hint is False, tool.name  # a memory tool never reaches outside this memory


def test_forget_tool_is_marked_destructive(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 100})
    hints = {name: tool.annotations for name, tool in listed_tools(mem).items()}
    assert hints["forget"].destructive_hint and not hints["forget"].read_only_hint
    assert hints["core_memory_replace"].destructive_hint
    assert not hints["core_memory_append"].destructive_hint and not hints["archival_memory_insert"].destructive_hint


def test_searches_are_marked_read_only_and_change_nothing(mem: Memory) -> None:
    hints = {name: tool.annotations for name, tool in listed_tools(mem).items()}
    readers = sorted(name for name, h in hints.items() if h.read_only_hint)
    assert readers == ["archival_memory_search", "conversation_search"]
    mem.remember(ALICE, NOTE, source="agent")
    before = mem.store.held_rows(ALICE)
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> None:
        async with Client(server) as client:
            assert NOTE in text(await client.call_tool("archival_memory_search", {"query": "shed key"}))
            await client.call_tool("conversation_search", {"query": "shed key"})

    run(body)
    assert mem.store.held_rows(ALICE) == before


def test_storing_the_same_note_twice_stores_it_once_as_its_idempotent_hint_says(mem: Memory) -> None:
    assert listed_tools(mem)["archival_memory_insert"].annotations.idempotent_hint
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> list[str]:
        async with Client(server) as client:
            return [text(await client.call_tool("archival_memory_insert", {"content": NOTE})) for _ in range(2)]

    first, second = run(body)
    assert first.startswith("ok: stored") and second.startswith("ok: already stored (unchanged)")
    assert len(mem.list(ALICE).records) == 1


def test_every_parameter_of_every_tool_has_a_description(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 100})
    for tool in listed_tools(mem).values():
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{tool.name}.{name}"


def test_core_tools_hidden_without_blocks(mem: Memory) -> None:
    assert list(listed_tools(mem)) == [n for n in TOOL_NAMES if n not in CORE_TOOLS]
    define_blocks(mem, ALICE, {"human": 100})
    assert list(listed_tools(mem)) == list(TOOL_NAMES)


def test_core_blocks_are_described_by_a_resource_template_that_reads_them(mem: Memory) -> None:
    define_blocks(mem, ALICE, {"human": 100})
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> tuple[Any, Any]:
        async with Client(server) as client:
            await client.call_tool("core_memory_append", {"block": "human", "text": "Cycles to work."})
            templates = (await client.list_resource_templates()).resource_templates
            (template,) = templates
            read = await client.read_resource(template.uri_template.replace("{name}", "human"))
            return template, read

    template, read = run(body)
    assert template.uri_template == "tiermem://core/{name}" and template.mime_type == "text/plain"
    assert read.contents[0].text == "Cycles to work."


def test_the_prompt_carries_the_server_instructions(mem: Memory) -> None:
    server = build_mcp_server(mem, lambda _request: ALICE)

    async def body() -> tuple[Any, Any]:
        async with Client(server) as client:
            (prompt,) = (await client.list_prompts()).prompts
            got = await client.get_prompt(prompt.name)
            with pytest.raises(MCPError, match="no prompt 'nope'; the prompts are: memory_instructions"):
                await client.get_prompt("nope")
            return prompt, got

    prompt, got = run(body)
    assert prompt.name == "memory_instructions" and prompt.title
    assert got.messages[0].content.text == INSTRUCTIONS
