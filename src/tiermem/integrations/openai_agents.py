"""The memory tools of one scope as OpenAI Agents SDK function tools (``pip install 'tiermem[openai-agents]'``).

Each SDK tool is a memory tool of ``agent.tools.MemoryTools``: the same JSON schema, the same dispatch, the same
``error: ...`` line when the model gets an argument wrong (so the model can retry), run in a worker thread
because tiermem's core is synchronous. The SDK keeps the conversation itself, so by default the tools are the
ones that do not read tiermem's message window: core memory edits, archival insert and search, and forget
(``conversation_search`` is offered when asked for by name, for an application that feeds the window).
``core_memory_instructions`` puts the core blocks into the agent's instructions, re-read on every turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, cast

from agents import Agent, FunctionTool, RunContextWrapper
from agents.tool_context import ToolContext

from tiermem.agent.tool_schemas import TOOL_NAMES
from tiermem.agent.tools import MemoryTools
from tiermem.context.budget import ContextBudget
from tiermem.context.window import ContextManager
from tiermem.errors import ConfigError, ValidationError
from tiermem.memory import Memory
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import counter_for_model
from tiermem.types import Scope

__all__ = ["DEFAULT_TOOLS", "core_memory_instructions", "function_tools", "memory_tools"]

DEFAULT_TOOLS = (
    "core_memory_append",
    "core_memory_replace",
    "archival_memory_insert",
    "archival_memory_search",
    "forget",
)
# Only core blocks and tool schemas go through this context; the SDK sizes the real prompt.
_BUDGET = ContextBudget(window=128_000, system=4_000, core=4_000, output_reserve=8_000, retrieval_reserve=4_000)


def memory_tools(
    memory: Memory, scope: Scope, *, budget: ContextBudget | None = None, model: str = "gpt-4o"
) -> MemoryTools:
    """``MemoryTools`` for ``scope``, with a context (core blocks) on the memory's own store."""
    store = memory.store
    if not callable(getattr(store, "load_core_blocks", None)):
        raise ConfigError(f"the memory tools need a store that keeps core memory; {type(store).__name__} does not")
    context = ContextManager(
        cast(StoreWithContext, store),  # checked above: it keeps the working context too
        memory,
        scope,
        budget=budget or _BUDGET,
        counter=counter_for_model(model),
    )
    return MemoryTools(memory, scope, context)


def _sdk_tool(tools: MemoryTools, definition: dict[str, Any]) -> FunctionTool:
    function = definition["function"]
    name: str = function["name"]

    async def invoke(_ctx: ToolContext[Any], arguments: str) -> str:
        return await asyncio.to_thread(tools.dispatch, name, arguments)

    # Not strict: optional arguments (k, tags, dates) are left out rather than sent as null.
    return FunctionTool(
        name=name,
        description=function["description"],
        params_json_schema=function["parameters"],
        on_invoke_tool=invoke,
        strict_json_schema=False,
    )


def function_tools(tools: MemoryTools, names: Iterable[str] = DEFAULT_TOOLS) -> list[FunctionTool]:
    """SDK function tools for the named memory tools (their schemas as ``tools.definitions()`` gives them now)."""
    wanted = list(names)
    unknown = [n for n in wanted if n not in TOOL_NAMES]
    if unknown:
        raise ValidationError("names", f"must be memory tools: {', '.join(TOOL_NAMES)}", given=unknown[0])
    definitions = {d["function"]["name"]: d for d in tools.definitions(every=True)}
    return [_sdk_tool(tools, definitions[n]) for n in wanted]


def core_memory_instructions(tools: MemoryTools, base: str) -> Callable[[RunContextWrapper[Any], Agent[Any]], str]:
    """SDK ``instructions``: ``base`` followed by the core memory blocks as stored when the turn starts."""

    def instructions(_ctx: RunContextWrapper[Any], _agent: Agent[Any]) -> str:
        core = tools.context.core
        core.refresh()
        rendered = core.render()
        return f"{base}\n\n{rendered}" if rendered else base

    return instructions
