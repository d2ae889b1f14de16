"""Every door that writes passes the write gate: a credential is refused, a hostile note quarantined or refused.

The doors are found, not remembered: the routes of ``/openapi.json`` and of the inspector, the MCP server's tools,
the CLI's commands and the public methods of ``Memory``, ``CoreMemory`` and the adapters. Each must be in a table
below, either with how it writes (and then the probes go through it) or with why it writes no text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import anyio
import click
import httpx
import pytest
from click.testing import CliRunner
from mcp import Client

from doors import CREDENTIAL, HOSTILE, holds_credential, hostile_is_kept_safely, hostile_was_stored
from fake_openai import FakeOpenAI
from live_server import LiveServer, live_server
from tiermem.cli import cli
from tiermem.context.core import CoreMemory
from tiermem.errors import InjectionRefusedError, SecretRefusedError
from tiermem.memory import Memory
from tiermem.server.mcp import build_mcp_server, define_blocks
from tiermem.tokens import TokenCounter, counter_for_model
from tiermem.types import Scope
from tiermem.write.path import NewMemory
from ui_fixtures import csrf_of, signed_in

TENANT = "acme"
ANN = Scope(TENANT, "ann")


class Hostile(Enum):
    """What a door must do with the hostile probe."""

    QUARANTINE = "stored quarantined"
    REFUSE = "refused"
    USER_WORDS = "stored as the user's own words: not judged when written, withheld when read (prompt gate)"
    NO_TEXT = "writes no new text"


@dataclass(frozen=True, slots=True)
class RestDoor:
    send: Callable[[Any, str], httpx.Response]
    hostile: Hostile
    credential: str = "refused"  # or why the probe cannot reach this door


@dataclass
class Served:
    server: LiveServer
    http: httpx.Client  # ann's key
    model: FakeOpenAI

    @property
    def store(self) -> Any:
        return self.server.runtime.memory.store


def _held(s: Served, text: str) -> str:
    """A procedural write from a web page, held: what approval stores."""
    held = s.server.runtime.memory.remember(ANN, text, type="procedural", source="web:https://shop.example/")
    assert held.pending_id is not None
    return held.pending_id


def _etag(s: Served, block: str) -> str:
    return str(s.http.get(f"/v1/core/{block}").headers["etag"])


def _chat(s: Served, text: str) -> httpx.Response:
    s.model.reply("noted")
    return s.http.post("/v1/sessions/door-chat/messages", json={"text": text})


REST_WRITES: dict[tuple[str, str], RestDoor] = {
    ("POST", "/v1/memories"): RestDoor(
        lambda s, t: s.http.post("/v1/memories", json={"content": t, "source": "tool:probe"}), Hostile.QUARANTINE
    ),
    ("POST", "/v1/memories/batch"): RestDoor(
        lambda s, t: s.http.post("/v1/memories/batch", json={"items": [{"content": t, "source": "tool:probe"}]}),
        Hostile.QUARANTINE,
    ),
    ("PUT", "/v1/core/{name}"): RestDoor(
        lambda s, t: s.http.put("/v1/core/probe", json={"limit": 60, "value": t}), Hostile.REFUSE
    ),
    ("POST", "/v1/core/{name}/append"): RestDoor(
        lambda s, t: s.http.post("/v1/core/human/append", json={"text": t}), Hostile.REFUSE
    ),
    ("POST", "/v1/core/{name}/replace"): RestDoor(
        lambda s, t: s.http.post(
            "/v1/core/human/replace", json={"old": "tea", "new": t}, headers={"If-Match": _etag(s, "human")}
        ),
        Hostile.REFUSE,
    ),
    ("POST", "/v1/sessions/{session}/transcript"): RestDoor(
        lambda s, t: s.http.post(
            "/v1/sessions/door-log/transcript", json={"messages": [{"role": "tool", "name": "probe", "content": t}]}
        ),
        Hostile.QUARANTINE,
    ),
    ("POST", "/v1/sessions/{session}/messages"): RestDoor(_chat, Hostile.USER_WORDS),
    ("POST", "/v1/pending/{pending_id}/approve"): RestDoor(
        lambda s, t: s.http.post(f"/v1/pending/{_held(s, t)}/approve"),
        Hostile.QUARANTINE,
        credential="a held write cannot hold one: the write that would be held is refused",
    ),
}
REST_NO_TEXT = {
    ("POST", "/v1/memories/search"): "reads",
    ("POST", "/v1/memories/{record_id}/rollback"): "restores a version that passed the gate (credentials checked)",
    ("POST", "/v1/pending/{pending_id}/reject"): "drops a held write",
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with FakeOpenAI() as model, live_server(tmp_path / "doors.db", llm_url=model.base_url, llm_model="m") as server:
        key = server.key(TENANT, "ann")
        with server.client(key) as http:
            assert http.put("/v1/core/human", json={"limit": 200, "value": "Ann likes tea."}).status_code in (200, 201)
            yield Served(server, http, model)


def _openapi_writes(served: Served) -> set[tuple[str, str]]:
    spec = served.http.get("/openapi.json").json()
    return {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops if m.upper() in ("POST", "PUT", "PATCH")}


def test_every_rest_route_that_writes_is_listed(served: Served) -> None:
    found = _openapi_writes(served)
    listed = set(REST_WRITES) | set(REST_NO_TEXT)
    assert found == listed, f"new routes: {sorted(found - listed)}; gone: {sorted(listed - found)}"


@pytest.mark.parametrize("door", sorted(d for d, w in REST_WRITES.items() if w.credential == "refused"), ids=" ".join)
def test_a_rest_route_refuses_a_credential(served: Served, door: tuple[str, str]) -> None:
    answer = REST_WRITES[door].send(served, f"the deploy key is {CREDENTIAL}")
    assert answer.status_code == 422, answer.text
    assert "AWS" in answer.json()["detail"]
    assert not holds_credential(served.store, ANN)


@pytest.mark.parametrize("door", sorted(REST_WRITES), ids=" ".join)
def test_a_rest_route_quarantines_or_refuses_a_hostile_note(served: Served, door: tuple[str, str]) -> None:
    expected = REST_WRITES[door].hostile
    answer = REST_WRITES[door].send(served, HOSTILE)
    if expected is Hostile.REFUSE:
        assert answer.status_code == 422 and "instructions" in answer.json()["detail"]
    else:
        assert answer.status_code in (200, 201), answer.text
    if expected is Hostile.QUARANTINE:
        assert hostile_was_stored(served.store, ANN)
    if expected is not Hostile.USER_WORDS:
        assert hostile_is_kept_safely(served.store, ANN)


# -- the inspector ---------------------------------------------------------------------------------------------

UI_WRITES = {"/ui/records/{record_id}/edit"}
UI_NO_TEXT = {
    "/ui/login": "signs in",
    "/ui/logout": "signs out",
    "/ui/records/{record_id}/rollback": "restores a version that passed the gate (credentials checked again)",
    "/ui/records/{record_id}/forget": "deletes",
    "/ui/review/confirm": "changes nothing: lists what a review action would change",
    "/ui/review/apply": "releases or deletes quarantined notes, approves (through the write path, as the REST"
    " approve) or rejects held writes",
    "/ui/erase": "deletes a user",
    "/ui/context/core/{name}": "saves core blocks through CoreMemory (see CORE_WRITES)",
}


def _ui_posts(served: Served) -> set[str]:
    """The POST routes under /ui, as the app dispatches them (included routers and all)."""
    paths: set[str] = set()
    for route in served.server.app.routes:
        contexts = getattr(route, "effective_route_contexts", None)
        for context in contexts() if callable(contexts) else contexts or [route]:
            path = str(getattr(context, "path", ""))
            if path.startswith("/ui") and "POST" in (getattr(context, "methods", None) or set()):
                paths.add(path)
    return paths


def test_every_inspector_form_that_writes_is_listed(served: Served) -> None:
    found = _ui_posts(served)
    listed = UI_WRITES | set(UI_NO_TEXT)
    assert found == listed, f"new forms: {sorted(found - listed)}; gone: {sorted(listed - found)}"


def test_an_inspector_edit_refuses_a_credential_and_quarantines_a_hostile_note(served: Served) -> None:
    memory = served.server.runtime.memory
    record = memory.remember(ANN, "the weather is mild", source="tool:weather").record
    browser = signed_in(served.server, served.server.key(TENANT, "ann"))
    page = browser.get(f"/ui/records/{record.id}")
    for text, refused in ((f"key {CREDENTIAL}", True), (HOSTILE, False)):
        browser.post(f"/ui/records/{record.id}/edit", data={"csrf": csrf_of(page.text), "content": text})
        assert not holds_credential(served.store, ANN)
        assert hostile_is_kept_safely(served.store, ANN)
        assert (memory.get(ANN, record.id).content == "the weather is mild") is refused


# -- MCP ----------------------------------------------------------------------------------------------------------

MCP_WRITES = {
    "archival_memory_insert": lambda t: {"content": t},
    "core_memory_append": lambda t: {"block": "human", "text": t},
    "core_memory_replace": lambda t: {"block": "human", "old_text": "tea", "new_text": t},
}
MCP_NO_TEXT = {"archival_memory_search": "reads", "conversation_search": "reads", "forget": "deletes"}


def _mcp(memory: Memory, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[str], list[str]]:
    define_blocks(memory, ANN, {"human": 200})
    core = CoreMemory(memory.store, ANN, counter=_counter(), budget=600)  # type: ignore[arg-type]
    if "tea" not in core.get("human").value:
        core.rewrite("human", "Ann likes tea.", actor="test")
    server = build_mcp_server(memory, lambda _request: ANN)

    async def body() -> tuple[list[str], list[str]]:
        async with Client(server) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            answers = [json.dumps([c.model_dump() for c in (await client.call_tool(n, a)).content]) for n, a in calls]
            return names, answers

    return anyio.run(body)


def test_every_mcp_tool_is_listed_and_its_writes_pass_the_gate(mem: Memory) -> None:
    names, _ = _mcp(mem, [])
    assert set(names) == set(MCP_WRITES) | set(MCP_NO_TEXT), names
    for name, args in MCP_WRITES.items():
        _, (refused,) = _mcp(mem, [(name, args(f"key {CREDENTIAL}"))])
        assert "AWS" in refused and not holds_credential(mem.store, ANN), name
        _, (answer,) = _mcp(mem, [(name, args(HOSTILE))])
        assert hostile_is_kept_safely(mem.store, ANN), (name, answer)
    assert hostile_was_stored(mem.store, ANN)  # archival_memory_insert stored it, quarantined


# -- the command line -------------------------------------------------------------------------------------------

CLI_WRITES: dict[str, Callable[[Path, str], list[str]]] = {
    "add": lambda db, t: ["add", "--db", str(db), "--tenant", TENANT, "--user", "ann", "--source", "tool:probe", t],
    "add-messages": lambda db, t: ["add-messages", "--db", str(db), "--tenant", TENANT, "--user", "ann",
                                   "--embedder", "hash",
                                   _file(db, json.dumps({"role": "tool", "name": "probe", "content": t}))],
    "import": lambda db, t: ["import", "--db", str(db.with_name("imported.db")), "--embedder", "hash",
                             _file(db, json.dumps(_export(t)))],
}  # fmt: skip
CLI_NO_TEXT = {
    "bench": "measures on a throwaway database",
    "budget": "prints arithmetic",
    "consolidate": "merges and closes stored facts: no new text",
    "demo": "a scripted story on a temporary database",
    "erase": "deletes",
    "eval injection": "measures the scanner, stores nothing",
    "eval locomo": "measures on throwaway databases",
    "eval longmemeval": "measures on throwaway databases",
    "eval update": "measures on throwaway databases",
    "export": "reads",
    "forget": "deletes",
    "get": "reads",
    "related": "reads",
    "init": "makes an empty database, or migrates a schema and grants a role: no text",
    "keys create": "makes an API key",
    "keys list": "reads",
    "keys revoke": "revokes a key",
    "list": "reads",
    "mcp": "serves the MCP tools (listed above)",
    "migrate": "copies a store's rows as they are (they passed the gate where they were written)",
    "pending approve": "stores a held write through the write path (see Memory.approve)",
    "pending list": "reads",
    "pending reject": "drops a held write",
    "quarantine list": "reads",
    "quarantine release": "an operator's release of a quarantined note",
    "scan": "scores text, stores nothing",
    "search": "reads",
    "serve": "serves the REST routes (listed above)",
    "sweep": "deletes",
}


def _file(db: Path, text: str) -> str:
    path = db.with_name(f"probe-{abs(hash(text))}.jsonl")
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


def _export(text: str) -> dict[str, Any]:
    with Memory.open(":memory:", embedder="hash") as memory:
        memory.remember(ANN, "a note to edit")
        data = memory.export(ANN)
    data["records"][0].update(content=text, source="system", trust=1.0)
    return data


def _commands(group: click.Group, prefix: str = "") -> set[str]:
    out: set[str] = set()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            out |= _commands(command, f"{prefix}{name} ")
        else:
            out.add(f"{prefix}{name}")
    return out


def test_every_cli_command_is_listed() -> None:
    found = _commands(cli)
    listed = set(CLI_WRITES) | set(CLI_NO_TEXT)
    assert found == listed, f"new commands: {sorted(found - listed)}; gone: {sorted(listed - found)}"


@pytest.mark.parametrize("command", sorted(CLI_WRITES))
def test_a_cli_command_refuses_a_credential_and_quarantines_a_hostile_note(tmp_path: Path, command: str) -> None:
    db = tmp_path / "cli.db"
    env = {"TIERMEM_EMBEDDER": "hash"}
    refused = CliRunner().invoke(cli, CLI_WRITES[command](db, f"key {CREDENTIAL}"), env=env)
    assert refused.exit_code == 2 and "AWS" in refused.output, refused.output
    taken = CliRunner().invoke(cli, CLI_WRITES[command](db, HOSTILE), env=env)
    assert taken.exit_code == 0, taken.output
    target = db.with_name("imported.db") if command == "import" else db
    with Memory.open(target, embedder="hash") as memory:
        assert not holds_credential(memory.store, ANN)
        assert hostile_was_stored(memory.store, ANN) and hostile_is_kept_safely(memory.store, ANN)


# -- public methods ---------------------------------------------------------------------------------------------

MEMORY_WRITES: dict[str, Callable[[Memory, str], object]] = {
    "remember": lambda m, t: m.remember(ANN, t, source="tool:probe"),
    "remember_many": lambda m, t: m.remember_many(ANN, [NewMemory(t, source="tool:probe")]),
    "remember_keyed": lambda m, t: m.remember_keyed(ANN, [NewMemory(t, source="tool:probe")], ["probe-key"]),
    "remember_messages": lambda m, t: m.remember_messages(ANN, [{"role": "tool", "name": "probe", "content": t}]),
    "restore": lambda m, t: m.restore(_export(t)),
    "approve": lambda m, t: m.approve(ANN, _held_in(m, t)),
}
MEMORY_NO_TEXT = {
    "open": "opens a store",
    "close": "closes it",
    "flush": "embeds stored records",
    "recall": "reads",
    "get": "reads",
    "list": "reads",
    "related": "reads",
    "history": "reads",
    "audit": "reads",
    "pending": "reads",
    "export": "reads",
    "forget": "deletes",
    "erase": "deletes",
    "sweep": "deletes",
    "reject": "drops a held write",
    "release": "an operator's release of a quarantined note",
    "rollback": "restores a version that passed the gate (credentials checked again)",
    "consolidate": "merges and closes stored facts: no new text",
    "refresh_ttl": "restarts the expiry of stored records: no new text",
    "with_embedder": "another facade on the same store: its writes are these methods",
}
CORE_WRITES: dict[str, Callable[[CoreMemory, str], object]] = {
    "define": lambda c, t: c.define("probe", limit=200, value=t),
    "append": lambda c, t: c.append("human", t),
    "replace": lambda c, t: c.replace("human", "tea", t),
    "rewrite": lambda c, t: c.rewrite("human", t, actor="agent"),
}
CORE_NO_TEXT = {
    "admits": "asks the core gate of a text: stores no text (a refusal is audited by its score only)",
    "cap_room": "measures",
    "get": "reads",
    "history": "reads",
    "refresh": "reads",
    "render": "reads",
    "would_fit": "measures",
}


def _held_in(memory: Memory, text: str) -> str:
    held = memory.remember(ANN, text, type="procedural", source="web:https://shop.example/")
    assert held.pending_id is not None
    return held.pending_id


def _public(cls: type) -> set[str]:
    """Its public methods, inherited ones included (MemoryAPI writes some of Memory's)."""
    return {n for n in dir(cls) if not n.startswith("_") and callable(getattr(cls, n))}


def test_every_public_method_of_memory_and_core_memory_is_listed() -> None:
    assert _public(Memory) == set(MEMORY_WRITES) | set(MEMORY_NO_TEXT)
    assert _public(CoreMemory) == set(CORE_WRITES) | set(CORE_NO_TEXT)


@pytest.mark.parametrize("method", sorted(MEMORY_WRITES))
def test_a_memory_method_refuses_a_credential_and_quarantines_a_hostile_note(method: str) -> None:
    with Memory.open(":memory:", embedder="hash") as memory:
        with pytest.raises(SecretRefusedError):
            MEMORY_WRITES[method](memory, f"key {CREDENTIAL}")
        assert not holds_credential(memory.store, ANN)
        if method in ("restore", "approve"):
            memory.erase(TENANT, "ann")
        MEMORY_WRITES[method](memory, HOSTILE)
        assert hostile_was_stored(memory.store, ANN) and hostile_is_kept_safely(memory.store, ANN)


@pytest.mark.parametrize("method", sorted(CORE_WRITES))
def test_a_core_memory_method_refuses_a_credential_and_a_hostile_note(mem: Memory, method: str) -> None:
    define_blocks(mem, ANN, {"human": 200})
    core = CoreMemory(mem.store, ANN, counter=_counter(), budget=600)  # type: ignore[arg-type]
    core.rewrite("human", "Ann likes tea.", actor="test")
    with pytest.raises(SecretRefusedError):
        CORE_WRITES[method](core, f"key {CREDENTIAL}")
    with pytest.raises(InjectionRefusedError):
        CORE_WRITES[method](core, HOSTILE)
    assert not holds_credential(mem.store, ANN) and hostile_is_kept_safely(mem.store, ANN)


def _counter() -> TokenCounter:
    return counter_for_model("gpt-4o")


def test_the_door_tables_name_no_door_twice() -> None:
    for writes, no_text in ((REST_WRITES, REST_NO_TEXT), (MCP_WRITES, MCP_NO_TEXT), (CLI_WRITES, CLI_NO_TEXT)):
        assert not set(writes) & set(no_text)
    assert all(re.fullmatch(r"/ui/[a-z/{}_]*", p) for p in UI_WRITES | set(UI_NO_TEXT))
