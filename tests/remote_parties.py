"""A Memory-shaped router over a live server: each call goes out with the credential of the scope it names.

The isolation contract drives one object with many scopes. Over HTTP a scope comes from the credential, so the
router keeps an API key per (tenant, user), made on first use, and sends each call with the key of the scope it
names: every probe is made by the probing party itself, with the other parties' ids, cursors and filters in
it. Export and erase go out with an admin key of the tenant (the routes are admin-only).

Each router (one per hypothesis example) gets fresh tenants on the one server: a random prefix on the
contract's tenant names. A session name is made per user (over HTTP a session id is bound to the first user of
the tenant who names it, while in the contract's world ``s1`` of u1 and ``s1`` of u2 are two sessions anyway);
results come back under the contract's names. An id the server refuses by its shape (422 on ``record_id``,
before any lookup, whoever holds what) is "no such record" to the contract, as it is to the library. The two
things HTTP does not offer run in process on the server's own Memory: exporting a tenant's shared memory (the
export route names a user; the contract reads it as its record of what exists) and erasing a whole tenant.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
from hypothesis import strategies as st

from isolation_contract import texts
from live_server import LiveServer
from tiermem.context.budget import ContextBudget
from tiermem.context.messages import Message, Role
from tiermem.context.window import ContextManager
from tiermem.errors import NotFoundError, ValidationError
from tiermem.lifecycle.erase import EraseReport
from tiermem.remote.client import RemoteMemory
from tiermem.store.base import AuditEntry, Page
from tiermem.tokens import WordCounter
from tiermem.types import Hit, MemoryRecord, Scope
from tiermem.write.path import WriteResult

__all__ = ["Names", "Party", "RemoteParties", "held", "make_party", "plans"]


@contextmanager
def _shaped_id(record_id: str) -> Iterator[None]:
    """NotFoundError for an id the server refused by its shape alone."""
    try:
        yield
    except ValidationError as exc:
        if exc.field != "record_id":
            raise
        raise NotFoundError(f"no record {record_id}") from exc


@dataclass(frozen=True, slots=True)
class Names:
    """The contract's scope names and the server's, both ways (sessions made per user: ``s1.u1``)."""

    prefix: str = field(default_factory=lambda: "x" + secrets.token_hex(4))

    def tenant(self, tenant: str) -> str:
        return f"{self.prefix}-{tenant}"

    def out(self, scope: Scope) -> Scope:
        session = None if scope.session is None else f"{scope.session}.{scope.user or 'shared'}"
        return Scope(self.tenant(scope.tenant), scope.user, scope.agent, session)

    def back(self, scope: Scope) -> Scope:
        tenant = scope.tenant.removeprefix(f"{self.prefix}-")
        session = None if scope.session is None else scope.session.split(".")[0]
        return Scope(tenant, scope.user, scope.agent, session)

    def record(self, record: MemoryRecord) -> MemoryRecord:
        return replace(record, scope=self.back(record.scope))

    def export(self, data: dict[str, Any]) -> dict[str, Any]:
        records = []
        for r in data["records"]:
            scope = self.back(Scope(r["tenant"], r["user"], r["agent"], r["session"]))
            records.append({**r, "tenant": scope.tenant, "session": scope.session})
        return {**data, "tenant": data["tenant"].removeprefix(f"{self.prefix}-"), "records": records}


class RemoteParties:
    """``Memory``'s reading and forgetting methods over HTTP, each call with its own scope's credential."""

    def __init__(self, server: LiveServer, names: Names | None = None) -> None:
        self.server = server
        self.names = names or Names()
        self._clients: dict[tuple[str, str | None, str], RemoteMemory] = {}

    def client(self, tenant: str, user: str | None, role: str = "user") -> RemoteMemory:
        """The client holding the key of (server tenant, user, role), made on first use."""
        key = (tenant, user, role)
        if key not in self._clients:
            self._clients[key] = RemoteMemory(self.server.url, api_key=self.server.key(tenant, user, role))
        return self._clients[key]

    def _party(self, scope: Scope) -> tuple[RemoteMemory, Scope]:
        remote = self.names.out(scope)
        return self.client(remote.tenant, remote.user), remote

    def _drop(self, tenant: str, user: str | None) -> None:
        """Forget the clients whose keys an erase removed (a later call makes a new key)."""
        for key in [k for k in self._clients if k[0] == tenant and user in (None, k[1])]:
            self._clients.pop(key).close()

    def remember(self, scope: Scope, content: str, **kwargs: Any) -> WriteResult:
        client, remote = self._party(scope)
        result = client.remember(remote, content, **kwargs)
        return replace(result, record=self.names.record(result.record))

    def recall(self, scope: Scope, query: str, **kwargs: Any) -> list[Hit]:
        client, remote = self._party(scope)
        return [replace(h, record=self.names.record(h.record)) for h in client.recall(remote, query, **kwargs)]

    def list(self, scope: Scope, **kwargs: Any) -> Page:
        client, remote = self._party(scope)
        page = client.list(remote, **kwargs)
        return Page(tuple(self.names.record(r) for r in page.records), page.next_cursor)

    def get(self, scope: Scope, record_id: str) -> MemoryRecord:
        client, remote = self._party(scope)
        with _shaped_id(record_id):
            return self.names.record(client.get(remote, record_id))

    def history(self, scope: Scope, record_id: str) -> list[MemoryRecord]:
        client, remote = self._party(scope)
        with _shaped_id(record_id):
            return [self.names.record(r) for r in client.history(remote, record_id)]

    def audit(self, scope: Scope, record_id: str | None = None) -> list[AuditEntry]:
        client, remote = self._party(scope)
        try:
            with _shaped_id(record_id or ""):
                return client.audit(remote, record_id)
        except NotFoundError:
            return []  # the library's answer for an id it never saw: an empty trail

    def forget(self, scope: Scope, record_id: str) -> None:
        client, remote = self._party(scope)
        with _shaped_id(record_id):
            client.forget(remote, record_id)

    def export(self, scope: Scope) -> dict[str, Any]:
        remote = self.names.out(Scope(scope.tenant, scope.user))
        if remote.user is None:  # no route exports shared memory: read it in process, as the test's record
            return self.names.export(self.server.runtime.memory.export(remote))
        return self.names.export(self.client(remote.tenant, None, "admin").export(remote))

    def erase(self, tenant: str, user: str | None = None) -> EraseReport:
        remote = self.names.tenant(tenant)
        if user is None:  # erasing a whole tenant is not offered over HTTP: done in process
            report = self.server.runtime.memory.erase(remote)
            self.server.runtime.credentials.clear()
        else:
            report = self.client(remote, None, "admin").erase(remote, user)
        self._drop(remote, user)
        return report

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()


# -- parties that write through the API, for the properties of the service itself ------------------------------


@dataclass
class Party:
    """One user of one (fresh) tenant: its client and what it wrote."""

    tenant: str
    user: str
    http: httpx.Client
    marker: str  # in every text the party writes, so a leak shows up as text
    session: str
    records: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    blocks: dict[str | None, set[str]] = field(default_factory=dict)  # agent -> block names


notes = st.tuples(
    texts,
    st.sampled_from(["semantic", "episodic", "procedural"]),
    st.sampled_from(["user", "agent", "tool:scraper"]),
    st.lists(st.sampled_from(["home", "work"]), max_size=2, unique=True),
    st.sampled_from([None, "a1", "a2"]),  # agent
    st.booleans(),  # in the party's session
)
plans = st.fixed_dictionaries(
    {
        "notes": st.lists(notes, min_size=1, max_size=4),
        "block": st.tuples(st.sampled_from([None, "a1"]), st.sampled_from(["human", "persona", "notes"]), texts),
        "session": st.sampled_from(["s1", "s2", "chat"]),
    }
)


def make_party(server: LiveServer, tenant: str, user: str, plan: dict[str, Any]) -> Party:
    """A party that wrote its notes, a core block and a chat message through the API (the message in process)."""
    marker = f"zq{secrets.token_hex(3)}"
    party = Party(tenant, user, server.client(server.key(tenant, user)), marker, f"{plan['session']}-{user}")
    for text, type_, source, tags, agent, in_session in plan["notes"]:
        params = {k: v for k, v in (("agent", agent), ("session", party.session if in_session else None)) if v}
        body = {"content": f"{marker} {text}", "type": type_, "source": source, "tags": tags}
        written = party.http.post("/v1/memories", params=params, json=body)
        assert written.status_code == 201, written.text
        out = written.json()
        if out["status"] == "pending":
            party.pending.append(out["pending_id"])
        else:
            party.records.append(out["record"]["id"])
    agent, name, text = plan["block"]
    params = {"agent": agent} if agent else {}
    made = party.http.put(f"/v1/core/{name}", params=params, json={"limit": 60, "value": f"{marker} {text}"})
    assert made.status_code == 200, made.text
    party.blocks.setdefault(agent, set()).add(name)
    window = ContextManager(
        server.runtime.memory.store,
        server.runtime.memory,
        Scope(tenant, user, None, party.session),
        budget=ContextBudget(window=2000, system=100, core=100, output_reserve=100, retrieval_reserve=100),
        counter=WordCounter(),
    )
    window.append(Message(Role.USER, f"{marker} said in a chat"))
    return party


def held(party: Party) -> Any:
    """Everything the party can read of its own: records, audit, held writes, core blocks, its session."""
    get = party.http.get
    return (
        get("/v1/memories", params={"limit": 1000}).json(),
        [(e["record_id"], e["op"], e["version"]) for e in get("/v1/audit").json()["entries"]],
        get("/v1/pending").json(),
        [get("/v1/core", params={"agent": a} if a else {}).json() for a in (None, "a1", "a2")],
        get(f"/v1/sessions/{party.session}/messages").json(),
    )
