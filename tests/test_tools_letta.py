"""The memory tools take Letta's argument names, page results, filter archival notes, and hide what cannot work."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from tiermem.agent.tools import CORE_TOOLS, LETTA_NAMES, TOOL_NAMES, MemoryTools, archival_scope
from tiermem.context.budget import ContextBudget
from tiermem.context.messages import Message
from tiermem.context.window import ContextManager
from tiermem.memory import Memory
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import WordCounter
from tiermem.types import Scope

SCOPE = Scope("acme", "maya", "atlas", "s1")
GARDEN = (  # distinct facts that all mention the garden, so none merges into another
    "The garden gate sticks after rain.",
    "Maya grows basil in the garden by the kitchen.",
    "The garden hose is kept in the blue shed.",
    "Slugs ate the lettuce in the back garden in June.",
    "A robin nests in the garden hedge every spring.",
)
BUDGET = ContextBudget(window=3000, system=100, core=300, output_reserve=200, retrieval_reserve=100)


def tools_for(mem: Memory, *, blocks: bool = True) -> MemoryTools:
    store = cast(StoreWithContext, mem.store)
    context = ContextManager(store, mem, SCOPE, budget=BUDGET, counter=WordCounter())
    if blocks:
        context.core.define("human", limit=80, description="Facts about the user.")
    return MemoryTools(mem, SCOPE, context)


def call(tools: MemoryTools, name: str, **args: Any) -> str:
    return tools.dispatch(name, json.dumps(args))


def test_letta_style_core_memory_calls_edit_the_block(mem: Memory) -> None:
    tools = tools_for(mem)
    appended = call(tools, "core_memory_append", label="human", content="Name: Maya")
    assert appended.startswith("ok: appended to core block 'human'"), appended
    replaced = call(tools, "core_memory_replace", label="human", old_content="Maya", new_content="Maya Ortiz")
    assert replaced.startswith("ok: replaced"), replaced
    assert tools.context.core.get("human").value == "Name: Maya Ortiz"


def test_a_name_and_its_letta_name_with_different_values_is_a_clear_error(mem: Memory) -> None:
    tools = tools_for(mem)
    result = call(tools, "core_memory_append", block="human", label="persona", text="x")
    assert result.startswith("error: core_memory_append: arguments 'block' and 'label'"), result
    assert '"human"' in result and '"persona"' in result
    assert tools.context.core.get("human").value == ""  # nothing written
    same = call(tools, "core_memory_append", block="human", label="human", text="Walks to work.")
    assert same.startswith("ok"), same


def test_letta_search_names_top_k_and_limit_set_how_many(mem: Memory) -> None:
    tools = tools_for(mem)
    for note in GARDEN:
        call(tools, "archival_memory_insert", content=note)
    found = call(tools, "archival_memory_search", query="garden", top_k=2)
    assert found.startswith("2 archival memories"), found
    for i in range(4):
        tools.context.append(Message.user(f"Reminder {i}: the shed roof leaks when it rains hard."))
    listed = call(tools, "conversation_search", limit=3)  # Letta's query is optional
    assert listed.startswith("3 past messages"), listed


def test_unknown_arguments_name_the_letta_names_a_tool_also_takes(mem: Memory) -> None:
    result = call(tools_for(mem), "core_memory_append", label="human", text="x", mood="calm")
    assert "unknown argument 'mood'" in result and "(or Letta's label, content)" in result


def test_letta_names_only_rename_arguments_a_tool_has() -> None:
    definitions = {d["function"]["name"]: d["function"]["parameters"]["properties"] for d in _all_schemas()}
    for tool, names in LETTA_NAMES.items():
        assert tool in TOOL_NAMES
        for theirs, ours in names.items():
            assert ours in definitions[tool] and theirs not in definitions[tool], (tool, theirs)


def _all_schemas() -> list[dict[str, Any]]:
    with Memory.open(":memory:", embedder=None) as memory:
        return tools_for(memory).definitions()


def test_page_shows_the_next_k_results(mem: Memory) -> None:
    tools = tools_for(mem)
    for note in GARDEN:
        call(tools, "archival_memory_insert", content=note)
    first = call(tools, "archival_memory_search", query="garden", k=2)
    second = call(tools, "archival_memory_search", query="garden", k=2, page=1)
    assert "page 1 (results 3-4)" in second, second
    ids = [line.split("id=")[1].split(",")[0] for text in (first, second) for line in text.splitlines()[1:]]
    assert len(ids) == len(set(ids)) == 4  # the two pages do not overlap
    beyond = call(tools, "archival_memory_search", query="garden", k=2, page=5)
    assert beyond.startswith("no archival memories match") and "beyond the first 10" in beyond
    too_far = call(tools, "archival_memory_search", query="garden", k=20, page=5)
    assert too_far.startswith("error:") and "reaches past the 100 best results" in too_far


def test_conversation_search_without_a_query_pages_back_from_the_newest(mem: Memory) -> None:
    tools = tools_for(mem)
    for i in range(5):
        tools.context.append(Message.user(f"Message number {i} about the weekly market stall."))
    newest = call(tools, "conversation_search", k=2)
    older = call(tools, "conversation_search", k=2, page=1)
    assert "number 3" in newest and "number 4" in newest and "number 2" not in newest
    assert "number 1" in older and "number 2" in older and "page 1" in older


def test_archival_search_filters_by_tags_and_dates(mem: Memory) -> None:
    tools = tools_for(mem)
    old = datetime(2024, 3, 1, tzinfo=UTC)
    mem.remember(archival_scope(SCOPE), "The boat trailer tyres were replaced.", source="agent", valid_from=old)
    call(tools, "archival_memory_insert", content="The boat engine was serviced.", tags=["boat"])
    tagged = call(tools, "archival_memory_search", query="boat", tags=["boat"])
    assert "engine" in tagged and "trailer" not in tagged
    recent = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    dated = call(tools, "archival_memory_search", query="boat", start_datetime=recent)  # Letta's name
    assert "engine" in dated and "trailer" not in dated
    early = call(tools, "archival_memory_search", query="boat", end_datetime="2024-03-31")  # Letta's name
    assert "trailer" in early and "engine" not in early


def test_core_tools_left_out_of_definitions_without_blocks(mem: Memory) -> None:
    tools = tools_for(mem, blocks=False)
    names = [d["function"]["name"] for d in tools.definitions()]
    assert names == [n for n in TOOL_NAMES if n not in CORE_TOOLS]
    assert [d["function"]["name"] for d in tools.definitions(every=True)] == list(TOOL_NAMES)
    result = call(tools, "core_memory_append", block="human", text="x")
    assert result.startswith("error: core_memory_append:") and "no core block 'human'" in result
    tools.context.core.define("human", limit=50)
    assert [d["function"]["name"] for d in tools.definitions()] == list(TOOL_NAMES)
