"""(internal) Telling an MCP client that its tools and resources changed, when its scope's core blocks change.

The tools offered and the resources listed follow the caller's core blocks: the core-memory tools appear with
the first block, and each block is a resource. A block may be defined through any door (``tiermem mcp --block``,
``PUT /v1/core/{name}``, the Python API, another process on the same database), so while a client listens the
watch reads the scope's block names every ``interval`` seconds and, when they change, sends
``notifications/tools/list_changed`` and ``notifications/resources/list_changed``:

- to a client that opened with the initialize handshake over a duplex stream (stdio), on its connection;
- to a client of the 2026 protocol, on the ``subscriptions/listen`` stream it opened (stdio or HTTP).

A stateless HTTP client of the handshake protocol has no channel the server could send on; it sees the new list
on its next ``tools/list``, which always reads the blocks as stored.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import anyio.to_thread
from mcp.server import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourcesListChanged, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, SubscriptionsListenRequestParams, SubscriptionsListenResult

from tiermem.errors import MemError
from tiermem.types import Scope

__all__ = ["BlockNames", "BlockWatch"]

log = logging.getLogger(__name__)

BlockNames = Callable[[Scope], tuple[str, ...]]
"""The names of a scope's core blocks as stored now (blocking: it is run in a worker thread)."""

_GONE = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)


class BlockWatch:
    """Polls a listening client's core block names and tells the client when they change."""

    def __init__(self, names: BlockNames, *, interval: float = 2.0, max_listeners: int = 256) -> None:
        self._names = names
        self.interval = interval
        self._max = max_listeners
        self._listening = 0

    async def _read(self, scope: Scope) -> tuple[str, ...] | None:
        try:
            return await anyio.to_thread.run_sync(self._names, scope)
        except MemError as exc:  # the store is briefly unavailable: try again on the next tick
            log.warning("reading core blocks of %s for change notifications failed: %s", scope, exc)
            return None

    async def changes(self, scope: Scope) -> AsyncIterator[None]:
        """Yields each time the scope's block names differ from the last names read."""
        last = await self._read(scope)
        while True:
            await anyio.sleep(self.interval)
            now = await self._read(scope)
            if now is not None and last is not None and now != last:
                yield
            last = now if now is not None else last

    async def follow(self, session: ServerSession, scope: Scope) -> None:
        """Send list-changed notifications on a handshake-era connection until it closes."""
        with self._slot():
            async for _ in self.changes(scope):
                try:
                    await session.send_tool_list_changed()
                    await session.send_resource_list_changed()
                except _GONE:
                    return

    async def listen(
        self, ctx: ServerRequestContext[Any, Any], params: SubscriptionsListenRequestParams, scope: Scope
    ) -> SubscriptionsListenResult:
        """Serve one ``subscriptions/listen`` stream (2026 protocol): the scope's list changes, until it ends."""
        with self._slot():
            bus = InMemorySubscriptionBus()
            handler = ListenHandler(bus, max_subscriptions=1, max_buffered_events=8)
            async with anyio.create_task_group() as tasks:

                async def publish() -> None:
                    async for _ in self.changes(scope):
                        await bus.publish(ToolsListChanged())
                        await bus.publish(ResourcesListChanged())

                tasks.start_soon(publish)
                try:
                    result = await handler(ctx, params)
                finally:
                    tasks.cancel_scope.cancel()
            return result

    @contextmanager
    def _slot(self) -> Iterator[None]:
        """One listener, counted while it lasts; refused over the limit."""
        if self._listening >= self._max:
            raise MCPError(INTERNAL_ERROR, f"too many clients listen for changes ({self._max}); try again later")
        self._listening += 1
        try:
            yield
        finally:
            self._listening -= 1
