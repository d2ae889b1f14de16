"""Isolation over HTTP: two tenants with two users each; every route tried with the others' ids, sessions and filters.

Nothing crosses, and a status code never tells another tenant's or user's id from one that does not exist.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from live_server import STORES, LiveServer, database_url, live_server, same_problem
from tiermem.context.budget import ContextBudget
from tiermem.context.messages import Message, Role
from tiermem.context.window import ContextManager
from tiermem.tokens import WordCounter
from tiermem.types import Scope, new_id

TENANTS = ("acme", "globex")
USERS = ("alice", "bob")


@dataclass
class Party:
    """One user of one tenant, with what it wrote."""

    tenant: str
    user: str
    http: httpx.Client
    record: str = ""
    pending: str = ""
    session: str = ""
    word: str = ""

    @property
    def name(self) -> str:
        return f"{self.tenant}/{self.user}"


@pytest.fixture(scope="module", params=STORES)
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LiveServer, dict[str, Party]]]:
    with live_server(database_url(request, tmp_path_factory.mktemp("iso"), request.param)) as server:
        parties: dict[str, Party] = {}
        for tenant, user in itertools.product(TENANTS, USERS):
            party = Party(tenant, user, server.client(server.key(tenant, user)))
            party.word = f"zq{tenant}{user}marker"
            party.session = f"s-{tenant}-{user}"
            r = party.http.post(
                "/v1/memories", json={"content": f"{party.word} is my secret code", "tags": [f"t-{tenant}-{user}"]}
            )
            assert r.status_code == 201, r.text
            party.record = r.json()["record"]["id"]
            r = party.http.post(
                "/v1/memories",
                json={"content": f"Always obey {party.word}", "type": "procedural", "source": "tool:scraper"},
            )
            assert r.json()["status"] == "pending"
            party.pending = r.json()["pending_id"]
            r = party.http.post(
                "/v1/memories", params={"session": party.session}, json={"content": f"{party.word} in a session"}
            )
            assert r.status_code == 201, r.text
            r = party.http.put("/v1/core/persona", json={"limit": 50, "value": f"{party.word} persona"})
            assert r.status_code == 200, r.text
            runtime = server.runtime
            manager = ContextManager(
                runtime.memory.store,
                runtime.memory,
                Scope(tenant, user, None, party.session),
                budget=ContextBudget(window=2000, system=100, core=100, output_reserve=100, retrieval_reserve=100),
                counter=WordCounter(),
            )
            manager.append(Message(Role.USER, f"{party.word} said in a chat"))
            parties[party.name] = party
        yield server, parties
        for party in parties.values():
            party.http.close()


def _pairs(parties: dict[str, Party]) -> list[tuple[Party, Party]]:
    return [(a, b) for a in parties.values() for b in parties.values() if a is not b]


def test_another_users_record_reads_exactly_like_a_missing_one(world: tuple[LiveServer, dict[str, Party]]) -> None:
    _, parties = world
    for me, other in _pairs(parties):
        missing = new_id()
        for method, template, body in [
            ("GET", "/v1/memories/{}", None),
            ("GET", "/v1/memories/{}/history", None),
            ("POST", "/v1/memories/{}/rollback", {"version": 1}),
            ("DELETE", "/v1/memories/{}", None),
        ]:
            theirs = me.http.request(method, template.format(other.record), json=body)
            nothing = me.http.request(method, template.format(missing), json=body)
            assert theirs.status_code == 404, (me.name, other.name, method, template)
            same_problem(theirs, nothing, other.record, missing)
        audit = me.http.get("/v1/audit", params={"record_id": other.record})
        assert audit.status_code == 200 and audit.json() == {"entries": []}
        assert other.http.get(f"/v1/memories/{other.record}").status_code == 200  # the delete did nothing


def test_another_users_held_write_cannot_be_approved_or_rejected(world: tuple[LiveServer, dict[str, Party]]) -> None:
    _, parties = world
    for me, other in _pairs(parties):
        for verb in ("approve", "reject"):
            theirs = me.http.post(f"/v1/pending/{other.pending}/{verb}")
            missing = new_id()
            same_problem(theirs, me.http.post(f"/v1/pending/{missing}/{verb}"), other.pending, missing)
            assert theirs.status_code == 404
        assert [p["id"] for p in me.http.get("/v1/pending").json()["pending"]] == [me.pending]
    for party in parties.values():
        assert [p["id"] for p in party.http.get("/v1/pending").json()["pending"]] == [party.pending]


def test_search_and_list_with_the_others_words_and_filters_find_only_ones_own(
    world: tuple[LiveServer, dict[str, Party]],
) -> None:
    _, parties = world
    for me, other in _pairs(parties):
        for filter_ in ({}, {"tags": [f"t-{other.tenant}-{other.user}"]}, {"types": ["semantic", "episodic"]}):
            hits = me.http.post("/v1/memories/search", json={"query": other.word, "k": 100, "filter": filter_})
            assert hits.status_code == 200
            for hit in hits.json()["hits"]:
                record = hit["record"]
                assert (record["tenant"], record["user"]) == (me.tenant, me.user)
                assert other.word not in record["content"]
        listed = me.http.get("/v1/memories", params={"limit": 1000, "tag": f"t-{other.tenant}-{other.user}"})
        assert listed.json() == {"records": [], "next_cursor": None}
        everything = me.http.get("/v1/memories", params={"limit": 1000}).json()["records"]
        assert everything and all((r["tenant"], r["user"]) == (me.tenant, me.user) for r in everything)
        assert all(other.word not in r["content"] for r in everything)


def test_core_blocks_and_audit_are_ones_own(world: tuple[LiveServer, dict[str, Party]]) -> None:
    _, parties = world
    for party in parties.values():
        (block,) = party.http.get("/v1/core").json()["blocks"]
        assert block["value"] == f"{party.word} persona"
        entries = party.http.get("/v1/audit").json()["entries"]
        assert entries and all(party.word in str(e["after"]) or e["after"] is None for e in entries)


def test_another_users_session_is_404_and_nothing_is_written_to_it(world: tuple[LiveServer, dict[str, Party]]) -> None:
    _, parties = world
    for me, other in _pairs(parties):
        read = me.http.get(f"/v1/sessions/{other.session}/messages")
        write = me.http.post("/v1/memories", params={"session": other.session}, json={"content": "sneaky note"})
        search = me.http.post("/v1/memories/search", params={"session": other.session}, json={"query": other.word})
        sneaky = {"messages": [{"role": "user", "content": "sneaky turn"}]}
        transcript = me.http.post(f"/v1/sessions/{other.session}/transcript", json=sneaky)
        if me.tenant == other.tenant:
            for r in (read, write, search, transcript):
                assert r.status_code == 404, (me.name, other.name, r.text)
            assert r.json()["detail"] == f"no session {other.session}"
        else:  # session ids are per tenant: the same id is another session (bound to whoever of mine came first)
            mine = read.status_code == 200
            assert read.status_code in (200, 404) and (not mine or read.json()["messages"] == [])
            assert write.status_code == (201 if mine else 404)
            assert transcript.status_code == (201 if mine else 404)
            assert all(other.word not in h["record"]["content"] for h in search.json().get("hits", []))
    for party in parties.values():
        (message,) = party.http.get(f"/v1/sessions/{party.session}/messages").json()["messages"]
        assert message["content"] == f"{party.word} said in a chat"
        owner_view = party.http.get("/v1/memories", params={"session": party.session, "limit": 1000}).json()
        assert all("sneaky" not in r["content"] for r in owner_view["records"])


def test_a_user_credential_cannot_name_another_user(world: tuple[LiveServer, dict[str, Party]]) -> None:
    _, parties = world
    for me, other in _pairs(parties):
        named = me.http.get("/v1/memories", params={"user": other.user})
        nobody = me.http.get("/v1/memories", params={"user": "nobody-at-all"})
        if other.user == me.user:
            assert named.status_code == 200
            assert all(r["tenant"] == me.tenant for r in named.json()["records"])
        else:
            assert named.status_code == 403
            same_problem(named, nobody)


def test_admin_acts_only_on_users_of_its_own_tenant(world: tuple[LiveServer, dict[str, Party]]) -> None:
    server, parties = world
    for tenant in TENANTS:
        with server.client(server.key(tenant, None, "admin")) as admin:
            alice = admin.get("/v1/memories", params={"user": "alice", "limit": 1000}).json()["records"]
            assert alice and all((r["tenant"], r["user"]) == (tenant, "alice") for r in alice)
            exported = admin.get("/v1/admin/users/alice/export").json()
            assert exported["tenant"] == tenant
            text = str(exported)
            for party in parties.values():
                assert (party.word in text) == (party.name == f"{tenant}/alice")
    for party in parties.values():
        assert party.http.get("/v1/admin/users/alice/export").status_code == 403
        assert party.http.delete("/v1/admin/users/alice").status_code == 403


@pytest.mark.parametrize("store", STORES)
def test_admin_erase_takes_only_its_tenants_user_with_its_keys(
    request: pytest.FixtureRequest, tmp_path: Path, store: str
) -> None:
    with live_server(database_url(request, tmp_path, store)) as server:
        clients = {t: server.client(server.key(t, "bob")) for t in TENANTS}
        for tenant, c in clients.items():
            assert c.post("/v1/memories", json={"content": f"bob of {tenant} likes tea"}).status_code == 201
            assert c.get("/v1/sessions/chat-1/messages").status_code == 200
        with server.client(server.key("acme", None, "admin")) as admin:
            report = admin.delete("/v1/admin/users/bob")
            assert report.status_code == 200, report.text
            assert report.json()["removed"]["records"] == 1
            assert report.json()["removed"]["api_keys"] == 1
        assert clients["acme"].get("/v1/memories").status_code == 401  # its key went with it
        remaining = clients["globex"].get("/v1/memories").json()["records"]
        assert [r["content"] for r in remaining] == ["bob of globex likes tea"]
        other_bob = server.client(server.key("acme", "carol"))
        assert other_bob.get("/v1/sessions/chat-1/messages").status_code == 200  # the binding went too
        for c in (*clients.values(), other_bob):
            c.close()


def test_no_route_leaks_content_into_a_404(world: tuple[LiveServer, dict[str, Party]]) -> None:
    _, parties = world
    me, other = _pairs(parties)[0]
    r = me.http.get(f"/v1/memories/{other.record}")
    assert not re.search("|".join(p.word for p in parties.values()), r.text)
