"""The hot routes' fast path (`server.fast`): the declared routes' answers, byte for byte, no dependency solving."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import fastapi.routing
import httpx
import pytest

from live_server import LiveServer, live_server, same_problem
from tiermem.server.fast import FastRoutes
from tiermem.server.settings import Limits, RateLimit

PROBLEM = "application/problem+json"
NOW = "2026-03-01T12:00:00+00:00"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("fast") / "fast.db", limits=Limits(max_k=20)) as s:
        yield s


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths FastAPI solved dependencies for (the declared routes' way), as they happen."""
    seen: list[str] = []
    solve = fastapi.routing.solve_dependencies

    async def counted(*, request: Any, **kwargs: Any) -> Any:
        seen.append(request.url.path)
        return await solve(request=request, **kwargs)

    monkeypatch.setattr(fastapi.routing, "solve_dependencies", counted)
    return seen


def _masked(r: httpx.Response, record_id: str) -> tuple[int, dict[str, Any]]:
    """Status and problem with the record id and the request id masked."""
    body = {k: str(v).replace(record_id, "<id>") for k, v in r.json().items() if k != "request_id"}
    return r.status_code, body


@contextmanager
def _declared(server: LiveServer) -> Iterator[None]:
    """Every request goes to the declared routes meanwhile (the fast path steps aside)."""
    answer = FastRoutes._answer

    async def step_aside(*args: Any) -> bool:
        return False

    FastRoutes._answer = step_aside  # type: ignore[method-assign]
    try:
        yield
    finally:
        FastRoutes._answer = answer  # type: ignore[method-assign]


def _both(server: LiveServer, http: httpx.Client, path: str, body: object, **kw: Any) -> tuple[httpx.Response, ...]:
    """The same request answered by the fast path, then by the declared route."""
    http.get("/v1/whoami")  # the credential is verified and cached
    fast = http.post(path, json=body, **kw)
    with _declared(server):
        return fast, http.post(path, json=body, **kw)


def _steady(answer: httpx.Response) -> dict[str, Any]:
    """A write's answer without what a restatement moves each time: the expiry, the version and the reasons."""
    data: dict[str, Any] = answer.json()
    record = {k: v for k, v in data["record"].items() if k not in {"expires_at", "updated_at", "version"}}
    return {**{k: v for k, v in data.items() if k != "reasons"}, "record": record}


def test_search_and_remember_skip_dependency_solving_once_the_credential_is_cached(
    server: LiveServer, solves: list[str]
) -> None:
    with server.client(server.key("acme", "ann")) as http:
        assert http.get("/v1/whoami").status_code == 200
        assert http.post("/v1/memories", json={"content": "the ladder hangs in the shed"}).status_code == 201
        found = http.post("/v1/memories/search", json={"query": "where is the ladder?", "k": 3})
        assert found.status_code == 200 and found.json()["hits"][0]["record"]["content"].startswith("the ladder")
    assert solves == ["/v1/whoami"]


def test_the_fast_answer_is_byte_identical_to_the_declared_routes(server: LiveServer) -> None:
    with server.client(server.key("acme", "bea")) as http:
        http.post("/v1/memories", json={"content": "the bike pump is in the blue box", "tags": ["garage"]})
        http.post("/v1/memories", json={"content": "the tent pegs are in the car"})
        body = {"query": "where is the bike pump?", "k": 5, "now": NOW}
        fast, slow = _both(server, http, "/v1/memories/search", body, params={"agent": "helper"})
        assert fast.status_code == slow.status_code == 200
        assert fast.content == slow.content
        drop = {"x-request-id", "date"}
        assert {k: v for k, v in fast.headers.items() if k not in drop} == {
            k: v for k, v in slow.headers.items() if k not in drop
        }
        same = {"content": "the bike pump is in the blue box", "tags": ["garage"]}  # a duplicate: the stored record
        fast, slow = _both(server, http, "/v1/memories", same)
        assert fast.status_code == slow.status_code == 201
        assert fast.content == slow.content


def test_the_fast_answer_writes_every_record_field_as_the_declared_route_does(server: LiveServer) -> None:
    with server.client(server.key("acme", "fay")) as http:
        old = http.post("/v1/memories", json={"content": "the wifi password is on the fridge"}).json()["record"]["id"]
        note = {
            "content": "the café's wifi password is now taped to the router ✓",
            "tags": ["home", "wifi"],
            "ttl": 86400.5,
            "metadata": {"room": "kitchen", "floor": 2, "weight": 0.125, "checked": True, "owner": None},
            "supersedes": old,
        }
        assert http.post("/v1/memories", json=note).status_code == 201
        fast, slow = _both(server, http, "/v1/memories", note)  # a duplicate each time: the stored record
        assert fast.status_code == slow.status_code == 201
        record = fast.json()["record"]
        assert record["expires_at"] and record["supersedes"] == old and record["metadata"]["weight"] == 0.125
        # Each restatement renews the note's expiry (a new version, its reason naming the moment): all else is equal.
        assert _steady(fast) == _steady(slow) and list(fast.json()["record"]) == list(slow.json()["record"])
        body = {"query": "where is the wifi password?", "k": 5, "now": NOW}
        fast, slow = _both(server, http, "/v1/memories/search", body)
        assert fast.status_code == slow.status_code == 200 and fast.json()["hits"]
        assert fast.content == slow.content


def test_the_fast_path_still_refuses_a_missing_credential_with_401_problem(server: LiveServer) -> None:
    with server.client() as anonymous:
        r = anonymous.post("/v1/memories/search", json={"query": "anything", "k": 3})
        assert r.status_code == 401 and r.headers["content-type"] == PROBLEM
        assert r.headers["www-authenticate"] == 'Bearer realm="tiermem"'
        assert anonymous.post("/v1/memories", json={"content": "a note"}).status_code == 401


def test_the_fast_path_answers_another_tenants_id_exactly_as_a_missing_one(server: LiveServer) -> None:
    with server.client(server.key("other", "olga")) as olga, server.client(server.key("acme", "cat")) as http:
        theirs = olga.post("/v1/memories", json={"content": "the spare key is under the pot"}).json()["record"]["id"]
        body = {"content": "the spare key is now in the drawer", "supersedes": theirs}
        fast, slow = _both(server, http, "/v1/memories", body)
        assert fast.status_code == 422 and fast.headers["content-type"] == PROBLEM
        nobody = "01a233fd-0000-7000-8000-000000000000"
        missing = http.post("/v1/memories", json={**body, "supersedes": nobody})
        same_problem(fast, slow)
        assert _masked(fast, theirs) == _masked(missing, nobody)


def test_another_users_session_on_a_hot_route_is_404(server: LiveServer) -> None:
    with server.client(server.key("acme", "gil")) as gil, server.client(server.key("acme", "hal")) as hal:
        assert gil.post("/v1/memories", params={"session": "s-gil"}, json={"content": "a note"}).status_code == 201
        hal.get("/v1/whoami")  # cached: a session still goes to the declared route, which binds it
        for path, body in (("/v1/memories", {"content": "x"}), ("/v1/memories/search", {"query": "note"})):
            r = hal.post(path, params={"session": "s-gil"}, json=body)
            assert r.status_code == 404 and r.headers["content-type"] == PROBLEM, r.text


def test_the_fast_path_refuses_a_k_over_the_limit_naming_the_field(server: LiveServer) -> None:
    with server.client(server.key("acme", "dan")) as http:
        fast, slow = _both(server, http, "/v1/memories/search", {"query": "tea", "k": 21})
        assert fast.status_code == 422 and fast.headers["content-type"] == PROBLEM
        assert (fast.json()["field"], fast.json()["limit"], fast.json()["given"]) == ("k", 20, 21)
        same_problem(fast, slow)
        schema = http.post("/v1/memories/search", json={"query": "tea", "k": 0})  # refused by the body's schema
        assert schema.status_code == 422 and schema.json()["field"] == "k"


def test_the_fast_path_refuses_a_user_a_plain_key_may_not_name_with_403(server: LiveServer) -> None:
    with server.client(server.key("acme", "eve")) as http:
        fast, slow = _both(server, http, "/v1/memories/search", {"query": "tea"}, params={"user": "ann"})
        assert fast.status_code == 403
        same_problem(fast, slow)


def test_the_fast_path_takes_the_rate_limit_and_logs_the_route(tmp_path: Path) -> None:
    with live_server(tmp_path / "r.db", rate=RateLimit(per_second=0.5, burst=3)) as server:
        with server.client(server.key("acme", "fay")) as http:
            codes = [http.post("/v1/memories/search", json={"query": "tea"}).status_code for _ in range(4)]
            assert codes == [200, 200, 200, 429]
            over = http.post("/v1/memories/search", json={"query": "tea"})
            assert over.headers["content-type"] == PROBLEM and int(over.headers["retry-after"]) >= 1
        lines = [x for x in server.log_lines() if x["route"] == "/v1/memories/search"]
        assert [x["status"] for x in lines] == [200, 200, 200, 429, 429]
        assert all(x["credential"].startswith("key:") for x in lines)


def test_a_hot_request_with_an_unseen_valid_credential_is_verified_by_the_fast_path(
    server: LiveServer, solves: list[str]
) -> None:
    secret = server.key("acme", "ida")
    with server.client(secret) as http:
        assert http.post("/v1/memories", json={"content": "the kettle is descaled"}).status_code == 201
        found = http.post("/v1/memories/search", json={"query": "the kettle", "k": 2})
        assert found.status_code == 200 and found.json()["hits"]
    assert solves == []
    assert server.runtime.credentials.get(f"Bearer {secret}") is not None


def test_a_hot_request_with_a_bad_credential_is_refused_as_the_declared_route_refuses_it(
    server: LiveServer, solves: list[str]
) -> None:
    with server.client("tm_not_a_real_key_at_all") as http:
        r = http.post("/v1/memories/search", json={"query": "anything", "k": 3})
        with _declared(server):
            declared = http.post("/v1/memories/search", json={"query": "anything", "k": 3})
    assert r.status_code == 401 and r.headers["content-type"] == PROBLEM
    assert r.headers["www-authenticate"] == 'Bearer realm="tiermem"'
    same_problem(r, declared)
    assert solves == ["/v1/memories/search"]  # the declared route only when the fast path stood aside


def test_the_fast_path_will_not_start_without_the_routes_it_answers_for(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiermem.server.fast as fast
    from tiermem.errors import ConfigError

    monkeypatch.setitem(fast.HOT_ROUTES, "/v1/nowhere", fast.HOT_ROUTES["/v1/memories"])
    with pytest.raises(ConfigError, match="hot routes not declared: /v1/nowhere"):
        FastRoutes(lambda scope, receive, send: None, owner=None)  # type: ignore[arg-type]
