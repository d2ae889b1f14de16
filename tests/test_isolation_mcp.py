"""The isolation proofs through MCP: the SDK's own client at ``/mcp`` of a live server, with each party's API key.

Hypothesis makes four parties (two users in each of two fresh tenants) who write notes, a core block and a chat
message, and store more notes with ``archival_memory_insert``. One of them then calls every memory tool with
the others' words, block names and note ids: searches find only its own notes and messages, its core blocks are
its own, ``forget`` with another's id reads exactly like a made-up id, and afterwards every party holds what
it held before (read through the REST API). On SQLite only: the MCP endpoint takes the caller's scope from the
same credential check as the REST routes, whose walls ``test_isolation_http`` proves on both stores.

Over stdio a server's scope is its command line: three ``tiermem mcp`` processes (another user of the tenant,
the same user id in another tenant) on one database file, started once for the module; each example writes
fresh notes and block lines through them, and the prober's tools never answer with or change the others'.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from isolation_contract import texts
from live_server import LiveServer, live_server
from remote_parties import Names, Party, held, make_party, plans
from test_mcp import run, stdio_params, text
from tiermem.memory import Memory
from tiermem.server.settings import RateLimit
from tiermem.types import Scope, new_id

EXAMPLES = 6  # an example is four parties, four MCP sessions and some 80 requests
STDIO_EXAMPLES = 10  # an example is some twenty tool calls to servers already running (their start is the cost)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module; every example makes its own tenants on it."""
    db = Path(tmp_path_factory.mktemp("isomcp")) / "iso.db"
    with live_server(db, rate=RateLimit(per_second=0), synchronous="NORMAL") as running:
        yield running


def _client(server: LiveServer, secret: str) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {secret}"}, timeout=30)
    return Client(streamable_http_client(f"{server.url}/mcp", http_client=http))


def _same_but_ids(one: str, two: str, *ids: str) -> None:
    """Equal tool results once the ids named are blanked (nothing tells one answer from the other)."""
    for i in ids:
        one, two = one.replace(i, "<id>"), two.replace(i, "<id>")
    assert one == two


async def _probe(server: LiveServer, me: Party, others: list[Party], secret: str, extra: str) -> list[str]:
    """``me``'s tool calls with the others' words, ids and block names; every answer's text, in order."""
    seen: list[str] = []
    async with _client(server, secret) as mcp:

        async def call(name: str, arguments: dict[str, Any]) -> str:
            answer = text(await mcp.call_tool(name, arguments))
            for given in arguments.values():  # an answer may quote the call (its query): that is no leak
                if isinstance(given, str):  # (not k: "20" may be part of a marker)
                    answer = answer.replace(given, "<given>")
            seen.append(answer)
            return answer

        await call("archival_memory_insert", {"content": f"{me.marker} {extra}", "tags": ["mcp"]})
        await call("archival_memory_search", {"query": extra, "k": 20})  # finds that note: the searches do work
        mine = {b for names in me.blocks.values() for b in names}
        for other in others:
            # The marker last: a query is blanked out of the answers, and so can never be a whole note of theirs.
            for query in (f"{extra} {other.marker}", f"said in a chat {other.marker}"):
                await call("archival_memory_search", {"query": query, "k": 20})
                await call("conversation_search", {"query": query, "k": 20})
            missing = new_id()
            for theirs in other.records[:2]:
                answer = await call("forget", {"id": theirs})
                _same_but_ids(answer, await call("forget", {"id": missing}), theirs, missing)
            for name in {b for names in other.blocks.values() for b in names} - mine:
                appended = await call("core_memory_append", {"block": name, "text": "sneaky"})
                _same_but_ids(
                    appended, await call("core_memory_append", {"block": "nosuch", "text": "sneaky"}), name, "nosuch"
                )
                with pytest.raises(MCPError) as theirs_error:
                    await mcp.read_resource(f"tiermem://core/{name}")
                with pytest.raises(MCPError) as made_up:
                    await mcp.read_resource("tiermem://core/nosuch")
                _same_but_ids(theirs_error.value.message, made_up.value.message, name, "nosuch")
            replaced = await call("core_memory_replace", {"block": "human", "old": other.marker, "new": "sneaky"})
            assert replaced.startswith("error:"), replaced
        listed = await mcp.list_resources()
        assert {r.name for r in listed.resources} == me.blocks.get(None, set())  # MCP serves the user's own blocks
        seen.extend(json.dumps(r.model_dump(mode="json")) for r in listed.resources)
    return seen


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans=st.lists(plans, min_size=4, max_size=4), prober=st.integers(0, 3), extra=texts)
def test_no_memory_tool_answers_with_or_changes_another_partys_data(
    server: LiveServer, plans: list[dict[str, Any]], prober: int, extra: str
) -> None:
    names = Names()
    keys = [(names.tenant(t), u) for t in ("t1", "t2") for u in ("u1", "u2")]
    parties = [make_party(server, tenant, user, plan) for (tenant, user), plan in zip(keys, plans, strict=True)]
    try:
        me, others = parties[prober], [p for i, p in enumerate(parties) if i != prober]
        before = [held(p) for p in others]
        seen = run(lambda: _probe(server, me, others, server.key(me.tenant, me.user), extra))
        for answer in seen:
            assert not any(o.marker in answer for o in others), answer
        assert any(me.marker in answer for answer in seen)  # the searches do find the prober's own notes
        assert [held(p) for p in others] == before
    finally:
        for p in parties:
            p.http.close()


# -- over stdio: one `tiermem mcp` process per party (its scope from the command line), one database file ----

STDIO_PARTIES = (Scope("t1", "u1"), Scope("t1", "u2"), Scope("t2", "u1"))  # another user; the same user id elsewhere


@pytest.fixture(scope="module")
def stdio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BlockingPortal, list[Client], Path]]:
    """The SDK's stdio clients of the parties' servers, kept open for the module (each started once)."""
    db = Path(tmp_path_factory.mktemp("isostdio")) / "iso.db"
    with start_blocking_portal() as portal:
        managers = [
            portal.wrap_async_context_manager(
                Client(stdio_params(db, "--tenant", s.tenant, "--user", str(s.user), "--block", "human=300"))
            )
            for s in STDIO_PARTIES
        ]
        # Started and stopped side by side (each waits on its own process), entered and left in their own tasks.
        with ThreadPoolExecutor(len(managers)) as pool:
            clients = list(pool.map(lambda m: m.__enter__(), managers))
        try:
            yield portal, clients, db
        finally:
            with ThreadPoolExecutor(len(managers)) as pool:
                list(pool.map(lambda m: m.__exit__(None, None, None), managers))


@settings(max_examples=STDIO_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes=st.lists(texts, min_size=3, max_size=3), prober=st.integers(0, 2))
def test_stdio_servers_of_one_file_never_answer_with_or_change_another_partys_data(
    stdio: tuple[BlockingPortal, list[Client], Path], notes: list[str], prober: int
) -> None:
    portal, clients, db = stdio

    def call(who: int, name: str, arguments: dict[str, Any]) -> str:
        return text(portal.call(clients[who].call_tool, name, arguments))

    markers = [f"zq{secrets.token_hex(3)}" for _ in STDIO_PARTIES]
    ids = []
    for who, (marker, note) in enumerate(zip(markers, notes, strict=True)):
        stored = call(who, "archival_memory_insert", {"content": f"{marker} {note}"})
        ids.append(re.search(r"id=(\S+)", stored).group(1))  # type: ignore[union-attr]
        assert not call(who, "core_memory_append", {"block": "human", "text": marker}).startswith("error:")
    others = [i for i in range(len(STDIO_PARTIES)) if i != prober]
    own = f"{markers[prober]} {notes[prober]}"
    seen = [call(prober, "archival_memory_search", {"query": own, "k": 20}).replace(own, "<given>")]
    assert ids[prober] in seen[0]  # the search works: it finds the prober's own note
    missing = new_id()
    for other in others:
        for query in (f"{notes[other]} {markers[other]}", notes[other]):  # (marker last: see _probe)
            seen.append(call(prober, "archival_memory_search", {"query": query, "k": 20}).replace(query, "<given>"))
            seen.append(call(prober, "conversation_search", {"query": query, "k": 20}).replace(query, "<given>"))
        _same_but_ids(
            call(prober, "forget", {"id": ids[other]}), call(prober, "forget", {"id": missing}), ids[other], missing
        )
        replaced = call(prober, "core_memory_replace", {"block": "human", "old": markers[other], "new": "sneaky"})
        assert replaced.startswith("error:"), replaced
    human = portal.call(clients[prober].read_resource, "tiermem://core/human").contents[0].text
    seen.append(human)
    for answer in seen:
        assert not any(markers[o] in answer for o in others), answer
    with Memory.open(db, embedder="hash") as memory:  # what the file holds: every other party's note and block
        for other in others:
            scope = STDIO_PARTIES[other]
            assert memory.get(scope, ids[other]).content == f"{markers[other]} {notes[other]}"
            (block,) = memory.store.load_core_blocks(scope)  # type: ignore[attr-defined]
            assert markers[other] in block.value and "sneaky" not in block.value
