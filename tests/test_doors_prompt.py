"""Every path that puts stored text before a model passes the prompt gate: quarantined text never reaches one.

Quarantined notes are planted the ways they arrive (a tool message through the transcript route, a tool's note
through the API, an agent's note copied from a page), then every path is asked: the agent loop's prompts, the
chat route's prompts in a later session, each MCP tool and resource, each OpenAI Agents tool, the compiled
context and its summary. The code that calls a model is found by reading the source, so a new caller fails until
it is listed here.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import anyio
import httpx
import pytest
from mcp import Client

from doors import HOSTILE, HOSTILE_MARK
from fake_openai import FakeOpenAI
from live_server import live_server
from tiermem.agent.loop import Agent
from tiermem.agent.tools import archival_scope
from tiermem.context.budget import ContextBudget
from tiermem.context.messages import Message
from tiermem.context.summary import ExtractiveSummariser
from tiermem.context.window import ContextManager
from tiermem.integrations.openai_agents import function_tools, memory_tools
from tiermem.llm import ChatMessage, ScriptedClient, ToolCall
from tiermem.memory import Memory
from tiermem.server.mcp import build_mcp_server, define_blocks
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import counter_for_model
from tiermem.types import Scope

TENANT = "acme"
ANN = Scope(TENANT, "ann")
SESSION = Scope(TENANT, "ann", None, "today")
BUDGET = ContextBudget(window=6000, system=300, core=600, output_reserve=800, retrieval_reserve=1500)
SRC = Path(__file__).resolve().parents[1] / "src" / "tiermem"

# Modules that send a prompt to a model (they call ``.complete``), and what puts stored text in it.
MODEL_CALLERS = {
    "agent/loop.py": "compiled context (ContextManager.compile: the prompt gate) and tool results (MemoryTools)",
    "llm/json_reply.py": "the extractor's prompt: the text being written, not stored text",
    "llm/outbound.py": "the outbound gate: forwards the prompt it was given, masked",
}


def _plant(memory: Memory) -> None:
    """Quarantined notes, each the way such text arrives."""
    memory.remember_messages(
        Scope(TENANT, "ann", None, "yesterday"),
        [{"role": "user", "content": "check the travel page"}, {"role": "tool", "name": "fetch", "content": HOSTILE}],
    )
    memory.remember(ANN, f"Travel tips. {HOSTILE}", source="web:https://travel.example/")
    memory.remember(archival_scope(SESSION), f"Saved from a page: {HOSTILE}", source="tool:fetch")
    quarantined = [r for r in memory.store.scope_records(ANN) if HOSTILE_MARK in r.content]
    assert len(quarantined) == 3 and all("quarantined" in r.tags for r in quarantined)


@pytest.fixture
def planted() -> Iterator[Memory]:
    with Memory.open(":memory:", embedder="hash") as memory:
        _plant(memory)
        memory.remember(ANN, "Ann prefers the window seat on trains.")
        yield memory


def _assert_clean(seen: object) -> None:
    assert HOSTILE_MARK not in json.dumps(seen, default=str)


def test_the_code_that_calls_a_model_is_listed() -> None:
    callers = set()
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "complete" and isinstance(node.ctx, ast.Load):
                callers.add(path.relative_to(SRC).as_posix())
    assert callers == set(MODEL_CALLERS), f"new: {sorted(callers - set(MODEL_CALLERS))}"


def test_the_agent_loop_never_shows_a_model_quarantined_text(planted: Memory) -> None:
    searches = [
        ChatMessage.assistant(None, [_call("archival_memory_search", {"query": "forward every message travel"})]),
        ChatMessage.assistant(None, [_call("conversation_search", {"query": ""})]),
        ChatMessage.assistant(None, [_call("conversation_search", {"query": "travel page forward every message"})]),
        ChatMessage.assistant("done"),
    ]
    llm = ScriptedClient(searches)
    agent = Agent(
        planted, SESSION, llm, BUDGET, system_prompt="Help.", counter=counter_for_model("gpt-4o"), retrieve_k=5,
        retrieve=lambda text: planted.recall(ANN, text, k=5, include_quarantined=True),
    )  # fmt: skip
    agent.step("what did the travel page say about forwarding every message?")
    assert len(llm.calls) == 4
    _assert_clean(llm.calls)


def _call(name: str, arguments: dict[str, Any]) -> ToolCall:
    return ToolCall(f"c-{name}-{len(json.dumps(arguments))}", name, json.dumps(arguments))


def test_the_chat_route_never_shows_a_model_quarantined_text(tmp_path: Path) -> None:
    with FakeOpenAI() as model, live_server(tmp_path / "chat.db", llm_url=model.base_url, llm_model="m") as server:
        _plant(server.runtime.memory)
        key = server.key(TENANT, "ann")
        posted = httpx.post(
            f"{server.url}/v1/sessions/yesterday/transcript",
            json={"messages": [{"role": "tool", "name": "fetch", "content": f"Page two. {HOSTILE}"}]},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert posted.status_code == 201, posted.text
        model.reply("Here is what I found.")
        answer = httpx.post(
            f"{server.url}/v1/sessions/today/messages",
            json={"text": "what did the travel page say? forward every message"},
            headers={"Authorization": f"Bearer {key}"},
            timeout=60,
        )
        assert answer.status_code == 200, answer.text
        _assert_clean([r.body for r in model.chat_requests])


def test_every_mcp_tool_and_resource_shows_no_quarantined_text(planted: Memory) -> None:
    define_blocks(planted, ANN, {"human": 200})
    server = build_mcp_server(planted, lambda _request: ANN)
    queries = {
        "archival_memory_search": {"query": "forward every message travel"},
        "conversation_search": {"query": ""},
        "core_memory_append": None,  # writes (test_doors_write)
        "core_memory_replace": None,
        "archival_memory_insert": None,
        "forget": None,
    }

    async def body() -> list[Any]:
        seen: list[Any] = []
        async with Client(server) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            assert set(tools) == set(queries), tools
            for name, arguments in queries.items():
                if arguments is not None:
                    seen.append((await client.call_tool(name, arguments)).model_dump())
            seen.append((await client.call_tool("conversation_search", {"query": "travel page forward"})).model_dump())
            for resource in (await client.list_resources()).resources:
                seen.append((await client.read_resource(resource.uri)).model_dump())
        return seen

    seen = anyio.run(body)
    assert seen
    _assert_clean(seen)


def test_every_openai_agents_tool_shows_no_quarantined_text(planted: Memory) -> None:
    tools = memory_tools(planted, SESSION)
    arguments = {
        "archival_memory_search": {"query": "forward every message travel"},
        "conversation_search": {"query": ""},
    }
    shown = [tools.dispatch(name, json.dumps(args)) for name, args in arguments.items()]
    shown.append(tools.dispatch("conversation_search", json.dumps({"query": "travel page forward"})))
    names = {t.name for t in function_tools(tools)}
    writes = {"archival_memory_insert", "core_memory_append", "core_memory_replace", "forget"}
    assert names <= set(arguments) | writes
    _assert_clean(shown)


def test_the_compiled_context_and_its_summary_show_no_quarantined_text(planted: Memory) -> None:
    store = cast(StoreWithContext, planted.store)
    small = ContextBudget(window=900, system=100, core=200, output_reserve=100, retrieval_reserve=300)
    context = ContextManager(
        store, planted, SESSION, budget=small, counter=counter_for_model("gpt-4o"), summariser=ExtractiveSummariser()
    )
    context.core.define("summary", limit=150)
    context.append(Message.user("let me paste what the page said"))
    context.append(Message.assistant("", (_call("fetch", {"url": "x"}),)))
    context.append(Message.tool(f"I moved to Lisbon last May. {HOSTILE}", tool_call_id=_call("fetch", {"url": "x"}).id,
                                name="fetch"))  # fmt: skip
    for i in range(12):  # push the tool result out of the window and into the summary
        context.append(Message.user(f"filler line number {i} about the weather and the garden"))
    hits = planted.recall(ANN, "forward every message", k=5, include_quarantined=True)
    prompt = context.compile(hits)
    _assert_clean(prompt.messages)
    _assert_clean(context.core.get("summary").value)


def test_the_langgraph_store_hands_a_graph_no_quarantined_text(planted: Memory) -> None:
    from tiermem.integrations.langgraph import TiermemStore

    store = TiermemStore(planted, source="tool:crawler")
    store.put(("acme", "ann", "notes"), "page", {"text": HOSTILE})
    store.put(("acme", "ann", "notes"), "tea", {"text": "Ann drinks green tea"})
    seen = [i.value for i in store.search(("acme", "ann"), query="forward every message")]
    seen += [i.value for i in store.search(("acme", "ann"))]
    assert {"text": "Ann drinks green tea"} in seen
    _assert_clean(seen)
