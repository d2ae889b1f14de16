"""The isolation proofs through the REST API, on SQLite and on PostgreSQL: one live server per store and module.

``TestHttpIsolation`` runs the whole ``IsolationContract`` with a ``RemoteParties`` target (each call made with
the credential of the scope it names, fresh tenants per example). The properties below it cover what only the
service has: another party's id must answer exactly like a made-up one on every route that takes an id, and
core blocks, session messages and held writes never cross.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from isolation_contract import IsolationContract, IsolationTarget, with_examples
from live_server import STORES, LiveServer, database_url, live_server, same_problem
from remote_parties import Names, Party, RemoteParties, held, make_party, plans
from tiermem.memory import Memory
from tiermem.server.settings import RateLimit
from tiermem.types import new_id, utcnow

CONTRACT_EXAMPLES = 5  # per property: an example is some fifty requests (about 0.6 s on a loaded 2-core machine)
ROUTE_EXAMPLES = 5  # per store: an example is four parties and some 150 requests


def _serve(request: pytest.FixtureRequest, folder: Path, store: str) -> AbstractContextManager[LiveServer]:
    return live_server(database_url(request, folder, store), rate=RateLimit(per_second=0), synchronous="NORMAL")


@pytest.fixture(scope="module")
def sqlite_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server on SQLite for the module; every example makes its own tenants on it."""
    with _serve(request, tmp_path_factory.mktemp("isohttp"), "sqlite") as running:
        yield running


@pytest.fixture(scope="module", params=STORES)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The SQLite server, then one on a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield request.getfixturevalue("sqlite_server")
        return
    with _serve(request, tmp_path_factory.mktemp("isohttp"), request.param) as running:
        yield running


@with_examples(CONTRACT_EXAMPLES)
class TestHttpIsolation(IsolationContract):
    """The contract over HTTP on SQLite (the store-level contract runs on PostgreSQL in test_isolation_postgres)."""

    live: LiveServer

    @pytest.fixture(autouse=True, scope="class")
    @classmethod
    def _live(cls, sqlite_server: LiveServer) -> None:
        cls.live = sqlite_server

    def make_target(self) -> IsolationTarget:
        return IsolationTarget(cast(Memory, RemoteParties(self.live)))


# -- what only the service has: every route that takes an id, core blocks, sessions, held writes --------------


rest_filters = st.fixed_dictionaries(
    {
        "types": st.lists(st.sampled_from(["semantic", "episodic", "procedural"]), max_size=2, unique=True),
        "tags": st.lists(st.sampled_from(["home", "work"]), max_size=1),
    }
)


def _probe(me: Party, other: Party, filter_: dict[str, Any], as_of: str | None) -> None:
    """``me`` tries ``other``'s ids, block names, session, words and cursor: nothing of ``other`` answers."""
    missing = new_id()
    for theirs in [*other.records[:1], *other.pending[:1]]:
        routes = [
            ("GET", "/v1/memories/{}", None),
            ("GET", "/v1/memories/{}/history", None),
            ("POST", "/v1/memories/{}/rollback", {"version": 1}),
            ("DELETE", "/v1/memories/{}", None),
            ("POST", "/v1/pending/{}/approve", None),
            ("POST", "/v1/pending/{}/reject", None),
        ]
        for method, route, body in routes:
            answer = me.http.request(method, route.format(theirs), json=body)
            assert answer.status_code == 404, (method, route, answer.text)
            same_problem(answer, me.http.request(method, route.format(missing), json=body), theirs, missing)
        assert me.http.get("/v1/audit", params={"record_id": theirs}).json() == {"entries": []}
    for agent, names in other.blocks.items():
        params = {"agent": agent} if agent else {}
        mine = me.blocks.get(agent, set())
        for name in names - mine:
            read = me.http.get(f"/v1/core/{name}", params=params)
            same_problem(read, me.http.get("/v1/core/nosuchblock", params=params), name, "nosuchblock")
            wrote = me.http.post(f"/v1/core/{name}/append", params=params, json={"text": "sneaky"})
            same_problem(
                wrote,
                me.http.post("/v1/core/nosuchblock/append", params=params, json={"text": "x"}),
                name,
                "nosuchblock",
            )
    body = {"query": f"{other.marker} chat", "k": 50, "filter": filter_, "as_of": as_of}
    searches = [me.http.post("/v1/memories/search", json=body)]
    searches.append(me.http.post("/v1/memories/search", params={"session": other.session}, json=body))
    listed = [me.http.get("/v1/memories", params={"limit": 1000, "tag": filter_["tags"]})]
    cursor = other.http.get("/v1/memories", params={"limit": 1}).json()["next_cursor"]
    if cursor is not None:
        listed.append(me.http.get("/v1/memories", params={"limit": 1000, "cursor": cursor}))
    messages = me.http.get(f"/v1/sessions/{other.session}/messages")
    around = [me.http.get("/v1/related", params={"entity": other.marker, "limit": 200})]
    around.append(me.http.get("/v1/related", params={"entity": other.marker, "session": other.session}))
    assert around[0].status_code == 200 and {a.status_code for a in around} <= {200, 404}
    if me.tenant == other.tenant:  # a session is bound to the first user of the tenant who names it
        assert searches[1].status_code == messages.status_code == 404
    # In another tenant the same name is another session: mine, or (404) bound to another user of my tenant.
    assert {s.status_code for s in searches[1:]} | {messages.status_code} <= {200, 404}
    found = [h["record"] for s in searches if s.status_code == 200 for h in s.json()["hits"]]
    found += [r for page in listed if page.status_code == 200 for r in page.json()["records"]]
    found += messages.json().get("messages", []) if messages.status_code == 200 else []
    found += [{"content": r["text"]} for a in around if a.status_code == 200 for r in a.json()["records"]]
    for record in found:
        assert other.marker not in record["content"], (me.tenant, me.user, record)
        assert record.get("tenant", me.tenant) == me.tenant and record.get("user", me.user) == me.user


@settings(max_examples=ROUTE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plans=st.lists(plans, min_size=4, max_size=4),
    filter_=rest_filters,
    as_of=st.one_of(st.none(), st.integers(0, 3)),
    prober=st.integers(0, 3),
    erased=st.integers(0, 3),
)
def test_no_route_answers_with_or_about_another_partys_data(
    server: LiveServer,
    plans: list[dict[str, Any]],
    filter_: dict[str, Any],
    as_of: int | None,
    prober: int,
    erased: int,
) -> None:
    names = Names()
    keys = [(names.tenant(t), u) for t in ("t1", "t2") for u in ("u1", "u2")]
    parties = [make_party(server, tenant, user, plan) for (tenant, user), plan in zip(keys, plans, strict=True)]
    try:
        before = [held(p) for p in parties]
        when = None if as_of is None else (utcnow() - timedelta(days=as_of)).isoformat()
        me = parties[prober]  # one prober per example (each probe is some twenty requests) against all the others
        for other in parties:
            if other is not me:
                _probe(me, other, filter_, when)
        assert [held(p) for p in parties] == before  # no probe changed anything of anyone
        gone = parties[erased]
        with server.client(server.key(gone.tenant, None, "admin")) as admin:
            for user in ("u1", "u2"):
                exported = admin.get(f"/v1/admin/users/{user}/export").json()
                assert all(r["tenant"] == gone.tenant and r["user"] == user for r in exported["records"])
                assert all(p.marker not in str(exported) for p in parties if (p.tenant, p.user) != (gone.tenant, user))
            assert admin.delete(f"/v1/admin/users/{gone.user}").status_code == 200
        assert [held(p) for p in parties if p is not gone] == [
            b for p, b in zip(parties, before, strict=True) if p is not gone
        ]
    finally:
        for p in parties:
            p.http.close()
