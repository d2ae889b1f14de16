"""(internal) The memory tools over MCP: one server of the official SDK, the caller's scope from the host.

Every tool is a memory tool of ``MemoryTools``: its ``inputSchema`` is the ``parameters`` object that
``MemoryTools.definitions()`` publishes for the caller's scope (the block argument lists that scope's core
blocks), and every call goes through ``MemoryTools.dispatch``, so an MCP client sees the schemas, the argument
checks and the result lines the agent loop sees. The SDK's low-level ``Server`` is used rather than
``MCPServer``: MCPServer derives schemas from Python signatures and validates arguments itself, which would
replace both.

The scope is never a tool argument. The host supplies a resolver that returns the Scope of each request: over
stdio a fixed scope from the command line (a local process owned by its user), over streamable HTTP the scope
of the verified credential (see ``mcp_http``). Core blocks are also read-only resources ``tiermem://core/<name>``
(listed, and described by one resource template); the core-memory tools are offered once the scope has a block,
and a listening client is told when that changes (``mcp_watch``). Titles, hints and the one prompt are in
``mcp_catalog``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, cast

import anyio
import anyio.abc
import anyio.to_thread
from mcp.server import Server, ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    GetPromptRequestParams,
    GetPromptResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    NotificationParams,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
    TextContent,
    TextResourceContents,
)
from starlette.requests import Request

from tiermem import __version__
from tiermem.agent.tools import MemoryTools
from tiermem.context.budget import ContextBudget
from tiermem.context.core import CoreMemory
from tiermem.context.window import ContextManager
from tiermem.errors import ConfigError, ConflictError, MemError, ValidationError, shown
from tiermem.memory import Memory
from tiermem.server.mcp_catalog import CORE_TEMPLATE, CORE_URI, INSTRUCTIONS, PROMPTS, get_prompt, mcp_tool
from tiermem.server.mcp_watch import BlockWatch
from tiermem.store.context_base import ANY_REVISION, CoreBlock, StoreWithContext, WindowState
from tiermem.tokens import TokenCounter, counter_for_model
from tiermem.types import Scope

__all__ = [
    "CORE_URI",
    "DEFAULT_BUDGET",
    "ScopeResolver",
    "build_mcp_server",
    "define_blocks",
    "define_missing",
    "mcp_tool",
    "serve_stdio",
]

log = logging.getLogger(__name__)

ScopeResolver = Callable[[Request | None], Scope]
"""The scope of one MCP request, given the HTTP request that carried it (None over stdio)."""

# The prompt budget of the agent on the other side is not known here; the core budget K only bounds what
# core_memory_append may grow the blocks to, so this is the README's budget unless the host gives its own.
DEFAULT_BUDGET = ContextBudget(window=8000, system=600, core=400, output_reserve=1000, retrieval_reserve=500)
_MODEL = "gpt-4o"  # whose tokenizer counts core blocks against their caps when the host names no counter
_CONTEXT_METHODS = ("load_core_blocks", "save_core_block", "core_block_edits", "load_context_window")


def _context_store(memory: Memory) -> StoreWithContext:
    missing = [m for m in _CONTEXT_METHODS if not callable(getattr(memory.store, m, None))]
    if missing:
        raise ConfigError(
            f"the MCP server needs a store that keeps core memory ({', '.join(missing)} missing on "
            f"{type(memory.store).__name__})"
        )
    return cast(StoreWithContext, memory.store)


class _WithoutWindow:
    """The store as the MCP server's contexts see it: core blocks and records, but no message window.

    The conversation lives in the MCP client, so the server keeps no window of its own; loading one (and
    re-saving it under this server's budget) could page out messages of an agent that does keep a window
    for the same scope.
    """

    def __init__(self, store: StoreWithContext) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def load_context_window(self, scope: Scope) -> None:
        """No saved window: every request starts with an empty message queue."""
        return None

    def save_context_window(self, scope: Scope, state: WindowState, *, expected: str | None = ANY_REVISION) -> None:
        """Nothing to save (the memory tools never append messages)."""


def _request(ctx: ServerRequestContext[Any, Any]) -> Request | None:
    """The HTTP request that carried this message (None over stdio)."""
    return ctx.request if isinstance(ctx.request, Request) else None


@dataclass(frozen=True, slots=True)
class _MemoryHandlers:
    """The MCP handlers of one Memory; each request gets the tools of the scope its resolver returns."""

    memory: Memory
    store: StoreWithContext
    resolve: ScopeResolver
    budget: ContextBudget
    counter: TokenCounter
    watch: BlockWatch

    def _scope(self, ctx: ServerRequestContext[Any, Any]) -> Scope:
        scope = self.resolve(_request(ctx))
        if not isinstance(scope, Scope):  # a host bug must not turn into "some default scope"
            raise MCPError(INTERNAL_ERROR, "the server could not tell whose memory this request is for")
        return scope

    def _tools(self, scope: Scope) -> MemoryTools:
        # A fresh context per request: it reads the core blocks as stored now, so edits made through REST, the
        # agent loop or another MCP session are seen, and no state is shared between callers.
        store = cast(StoreWithContext, _WithoutWindow(self.store))
        context = ContextManager(store, self.memory, scope, budget=self.budget, counter=self.counter)
        return MemoryTools(self.memory, scope, context)

    def _definitions(self, scope: Scope) -> list[dict[str, Any]]:
        try:
            return self._tools(scope).definitions()
        except ValidationError as exc:  # the stored core blocks outgrew this server's core budget
            raise MCPError(INTERNAL_ERROR, f"this memory cannot be served with this budget: {exc}") from None
        except MemError as exc:
            log.warning("tools/list failed for %s: %s", scope, exc)
            raise MCPError(INTERNAL_ERROR, f"the memory could not be opened ({type(exc).__name__})") from None

    def _call(self, scope: Scope, name: str, arguments_json: str) -> str:
        try:
            tools = self._tools(scope)
        except ValidationError as exc:
            return f"error: {name}: this memory cannot be served with this budget: {exc}"
        try:
            return tools.dispatch(name, arguments_json)
        except MemError as exc:
            # The store or the embedder failed: not the model's doing, and its text (file paths, URLs) is the
            # operator's business, so the caller gets the kind of failure and the log gets the details.
            log.warning("tool %s failed for %s: %s", name, scope, exc)
            return f"error: {name}: the memory failed ({type(exc).__name__}); nothing was changed, try again later"

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        """The memory tools with the caller's schemas."""
        definitions = await anyio.to_thread.run_sync(self._definitions, self._scope(ctx))
        return ListToolsResult(tools=[mcp_tool(d) for d in definitions])

    async def call_tool(self, ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams) -> CallToolResult:
        """Run one memory tool for the caller (in a worker thread: store and embedder block)."""
        arguments = json.dumps(params.arguments or {}, ensure_ascii=False)
        text = await anyio.to_thread.run_sync(self._call, self._scope(ctx), params.name, arguments)
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=text.startswith("error:"))

    def _blocks(self, scope: Scope) -> list[CoreBlock]:
        try:
            return self.store.load_core_blocks(Scope(scope.tenant, scope.user, scope.agent))
        except MemError as exc:
            log.warning("reading core blocks failed for %s: %s", scope, exc)
            raise MCPError(INTERNAL_ERROR, f"the memory could not be read ({type(exc).__name__})") from None

    async def list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        """The caller's core blocks, one resource each."""
        blocks = await anyio.to_thread.run_sync(self._blocks, self._scope(ctx))
        return ListResourcesResult(
            resources=[
                Resource(
                    uri=CORE_URI + b.name,
                    name=b.name,
                    description=b.description or f"Core memory block '{b.name}' (cap {b.limit} tokens).",
                    mime_type="text/plain",
                )
                for b in blocks
            ]
        )

    async def read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: ReadResourceRequestParams
    ) -> ReadResourceResult:
        """One core block's text (read-only: the core_memory tools edit it)."""
        uri = str(params.uri)
        blocks = await anyio.to_thread.run_sync(self._blocks, self._scope(ctx))
        block = next((b for b in blocks if CORE_URI + b.name == uri), None)
        if block is None:
            names = ", ".join(CORE_URI + b.name for b in blocks) or "none"
            given = shown(uri)  # a URI is not a stored id: one holding a credential is not repeated
            raise MCPError(INVALID_PARAMS, f"no resource {given!r}; the core blocks are: {names}", {"uri": given})
        return ReadResourceResult(contents=[TextResourceContents(uri=uri, text=block.value, mime_type="text/plain")])

    async def list_resource_templates(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourceTemplatesResult:
        """The one template: a core block by name."""
        return ListResourceTemplatesResult(resource_templates=[CORE_TEMPLATE])

    async def list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListPromptsResult:
        """The prompts: how to use this memory."""
        return ListPromptsResult(prompts=list(PROMPTS))

    async def get_prompt(self, ctx: ServerRequestContext[Any, Any], params: GetPromptRequestParams) -> GetPromptResult:
        """One prompt by name."""
        found = get_prompt(params.name)
        if found is None:
            names, given = ", ".join(p.name for p in PROMPTS), shown(params.name)
            raise MCPError(INVALID_PARAMS, f"no prompt {given!r}; the prompts are: {names}", {"name": given})
        return found

    async def listen(
        self, ctx: ServerRequestContext[Any, Any], params: SubscriptionsListenRequestParams
    ) -> SubscriptionsListenResult:
        """A 2026-protocol client's change stream: its tools and resources, as its core blocks change."""
        return await self.watch.listen(ctx, params, self._scope(ctx))

    async def initialized(self, ctx: ServerRequestContext[Any, Any], params: NotificationParams) -> None:
        """A handshake-era client is ready: follow its blocks if its connection can carry notifications."""
        followers: anyio.abc.TaskGroup | None = (ctx.lifespan_context or {}).get(_FOLLOWERS)
        # Only a duplex stream (stdio, in process) outlives the request; stateless HTTP has no channel to send on.
        if followers is not None and _request(ctx) is None:
            followers.start_soon(self.watch.follow, ctx.session, self._scope(ctx))


_FOLLOWERS = "tiermem.followers"


@asynccontextmanager
async def _lifespan(_server: Server[Any]) -> AsyncIterator[dict[str, Any]]:
    """The task group of the connections' change notifications: it ends with the server's connection."""
    async with anyio.create_task_group() as followers:
        yield {_FOLLOWERS: followers}
        followers.cancel_scope.cancel()


def build_mcp_server(
    memory: Memory,
    resolve_scope: ScopeResolver,
    *,
    budget: ContextBudget = DEFAULT_BUDGET,
    counter: TokenCounter | None = None,
    name: str = "tiermem",
    watch_interval: float = 2.0,
) -> Server[Any]:
    """An MCP server exposing ``memory``'s tools and core blocks to the scope ``resolve_scope`` returns.

    ``watch_interval``: how often, in seconds, a listening client's core blocks are read for changes.
    """
    store = _context_store(memory)
    handlers = _MemoryHandlers(
        memory,
        store,
        resolve_scope,
        budget,
        counter or counter_for_model(_MODEL),
        BlockWatch(_names(store), interval=watch_interval),
    )
    server: Server[Any] = Server(
        name,
        version=__version__,
        title="tiermem memory",
        instructions=INSTRUCTIONS,
        lifespan=_lifespan,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_resource_templates,
        on_read_resource=handlers.read_resource,
        on_list_prompts=handlers.list_prompts,
        on_get_prompt=handlers.get_prompt,
        on_subscriptions_listen=handlers.listen,
    )
    server.add_notification_handler("notifications/initialized", NotificationParams, handlers.initialized)
    return server


def _names(store: StoreWithContext) -> Callable[[Scope], tuple[str, ...]]:
    def names(scope: Scope) -> tuple[str, ...]:
        return tuple(b.name for b in store.load_core_blocks(Scope(scope.tenant, scope.user, scope.agent)))

    return names


def define_blocks(
    memory: Memory, scope: Scope, blocks: dict[str, int], *, budget: ContextBudget = DEFAULT_BUDGET
) -> None:
    """Create the core blocks (name -> cap in tokens) the scope lacks; existing blocks are left as they are."""
    core_scope = Scope(scope.tenant, scope.user, scope.agent)
    core = CoreMemory(_context_store(memory), core_scope, counter=counter_for_model(_MODEL), budget=budget.core)
    define_missing(core, blocks)


def define_missing(core: CoreMemory, blocks: dict[str, int]) -> None:
    """Create the blocks (name -> cap in tokens) ``core`` lacks; existing blocks are left as they are."""
    for name, limit in blocks.items():
        if name not in core:
            try:
                core.define(name, limit=limit)
            except ConflictError:  # another request of the same user created it first: it exists, as wanted
                continue


async def serve_stdio(server: Server[Any]) -> None:
    """Serve ``server`` on standard input and output until the client closes them."""
    changes = NotificationOptions(tools_changed=True, resources_changed=True)  # see mcp_watch
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options(changes))
