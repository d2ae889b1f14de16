"""The REST service over real HTTP: credentials, problem+json errors, limits, ETags, logs, metrics, OpenAPI, faults."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from jsonschema import Draft202012Validator

from live_server import LiveServer, live_server
from tiermem.errors import MemError
from tiermem.server.auth import CredentialCache, Principal
from tiermem.server.keys import create_key
from tiermem.server.settings import Limits, RateLimit
from tiermem.store.access_base import KeyRole
from tiermem.store.sqlite import SQLiteStore

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    limits = Limits(max_batch=5, max_k=20, max_text_chars=500)
    with live_server(tmp_path_factory.mktemp("http") / "http.db", limits=limits) as s:
        yield s


@pytest.fixture(scope="module")
def alice(server: LiveServer) -> Iterator[httpx.Client]:
    with server.client(server.key("acme", "alice")) as client:
        yield client


def _problem(r: httpx.Response, status: int) -> dict[str, object]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == PROBLEM
    body: dict[str, object] = r.json()
    assert {"type", "title", "status", "detail"} <= body.keys() and body["status"] == status
    return body


@pytest.mark.parametrize(
    "header",
    [None, "Bearer", "Basic YWxpY2U6c2VjcmV0", "Bearer tmk_000000000000_" + "A" * 43, "Bearer not-a-jwt"],
)
def test_missing_or_wrong_credential_is_401_with_www_authenticate(server: LiveServer, header: str | None) -> None:
    headers = {"Authorization": header} if header else {}
    r = httpx.get(f"{server.url}/v1/memories", headers=headers)
    _problem(r, 401)
    assert r.headers["www-authenticate"] == 'Bearer realm="tiermem"'


def test_a_key_with_a_wrong_secret_or_revoked_is_401(server: LiveServer) -> None:
    secret = server.key("acme", "dave")
    assert httpx.get(f"{server.url}/v1/whoami", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
    tampered = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    assert httpx.get(f"{server.url}/v1/whoami", headers={"Authorization": f"Bearer {tampered}"}).status_code == 401
    key_id = secret.split("_")[1]
    assert server.runtime.access.revoke_key(key_id, at=server.runtime.access.find_key(key_id).created_at)
    time.sleep(server.settings.credential_cache_seconds + 0.05)  # a verified key is trusted this long
    assert httpx.get(f"{server.url}/v1/whoami", headers={"Authorization": f"Bearer {secret}"}).status_code == 401


def test_a_verified_credential_is_remembered_only_for_its_window() -> None:
    now = [100.0]
    cache = CredentialCache(1.0, clock=lambda: now[0])
    alice = Principal("acme", "alice", KeyRole.USER, "key:abc")
    cache.put("Bearer s3cret", alice)
    assert cache.get("Bearer s3cret") == alice and cache.get("Bearer other") is None
    assert "s3cret" not in repr(cache._seen)  # kept by hash
    now[0] += 1.01
    assert cache.get("Bearer s3cret") is None
    off = CredentialCache(0)
    off.put("Bearer s3cret", alice)
    assert off.get("Bearer s3cret") is None


def test_whoami_names_the_credentials_scope(alice: httpx.Client) -> None:
    me = alice.get("/v1/whoami").json()
    assert (me["tenant"], me["user"], me["role"]) == ("acme", "alice", "user")
    assert me["credential"].startswith("key:")


def test_rest_writes_are_audited_as_the_key_not_the_source_the_client_sent(alice: httpx.Client) -> None:
    key = alice.get("/v1/whoami").json()["credential"]
    one = alice.post("/v1/memories", json={"content": "Alice's locker is number 12", "source": "web:example.org"})
    fast = alice.post("/v1/memories", json={"content": "Alice's desk is by the window"})  # the hot path
    batch = alice.post("/v1/memories/batch", json={"items": [{"content": "Alice's badge is blue", "source": "user"}]})
    said = alice.post("/v1/sessions/audit-s1/transcript", json={"messages": [{"role": "user", "content": "hi there"}]})
    assert {r.status_code for r in (one, fast, batch, said)} == {201}, [one.text, fast.text, batch.text, said.text]
    ids = [one.json()["record"]["id"], fast.json()["record"]["id"], batch.json()["results"][0]["record"]["id"]]
    entries = alice.get("/v1/audit").json()["entries"]
    added = {e["record_id"]: e["actor"] for e in entries if e["op"] == "add"}
    assert [added[i] for i in ids] == [key, key, key]
    assert key in {e["actor"] for e in entries if e["record_id"] not in ids}  # the transcript's message too


def test_rolling_back_a_superseded_version_is_409_naming_the_current_one(alice: httpx.Client) -> None:
    old = alice.post("/v1/memories", json={"content": "Alice's bike is green"}).json()["record"]["id"]
    new = alice.post("/v1/memories", json={"content": "Alice's bike is black", "supersedes": old}).json()["record"]
    body = _problem(alice.post(f"/v1/memories/{old}/rollback", json={"version": 1}), 409)
    assert new["id"] in str(body["detail"])
    assert alice.get(f"/v1/memories/{old}").json()["valid_to"] is not None  # still closed: one live fact


def test_malformed_json_is_400_problem(alice: httpx.Client) -> None:
    r = alice.post("/v1/memories", content=b'{"content": "tea', headers={"content-type": "application/json"})
    assert _problem(r, 400)["field"] == "body"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"content": 5}, "content"),
        ({"content": "x", "colour": "red"}, "colour"),
        ({}, "content"),
        ({"content": "x", "ttl": -1}, "ttl"),
        ({"content": "x", "type": "dream"}, "type"),
        ({"content": "x", "valid_from": "2026-01-01T00:00:00"}, "valid_from"),
        ({"content": "x", "valid_from": "0001-01-01T00:00:00+05:00"}, "valid_from"),
        ({"content": "x", "tags": ["no spaces"]}, "tags[0]"),
        ({"content": "x", "metadata": {"n": {"nested": 1}}}, "metadata.n"),
        ({"content": "\ud800"}, "content"),
        ([1, 2], "body"),
    ],
)
def test_wrong_types_and_unknown_fields_are_422_naming_the_field(alice: httpx.Client, body: object, field: str) -> None:
    raw = json.dumps(body).encode()  # ASCII escapes: a lone surrogate travels as \ud800
    problem = _problem(alice.post("/v1/memories", content=raw, headers={"content-type": "application/json"}), 422)
    assert str(problem["field"]).startswith(field), problem


@pytest.mark.parametrize("value", [{"nested": 1}, [1, 2]])
def test_a_metadata_value_of_no_allowed_type_names_the_field_plainly(alice: httpx.Client, value: object) -> None:
    problem = _problem(alice.post("/v1/memories", json={"content": "x", "metadata": {"room": value}}), 422)
    assert problem["field"] == "metadata.room", problem
    assert "a string" in str(problem["detail"]) and not re.search(r"function|0x[0-9a-f]", json.dumps(problem))


def test_library_validation_errors_keep_field_limit_and_given(alice: httpx.Client) -> None:
    problem = _problem(alice.post("/v1/memories", json={"content": "x", "source": "satellite"}), 422)
    assert problem["field"] == "source" and problem["given"] == "satellite"


def test_a_malformed_field_holding_a_credential_is_422_without_repeating_it(alice: httpx.Client) -> None:
    key = "AKIAZ3MPLQ7TR4XW9BNC"  # the shape of an AWS access key id, made up
    word = "Larkspur!Kettle42"  # a password: found only beside its field's name
    bodies = (
        {"content": "x", "tags": [f"deploy key {key}"]},
        {"content": "x", "source": f"satellite {key}"},
        {"content": "x", "password": word},
        {"content": "x", key: 1},
        {"content": "x", "metadata": {key: [1]}},
        {"content": "x", "metadata": {"password": word + " " * 9000}},
    )
    for body in bodies:
        r = alice.post("/v1/memories", json=body)
        assert r.status_code == 422 and key not in r.text and word not in r.text, r.text


def test_an_idempotency_key_holding_a_credential_is_refused_without_repeating_it(alice: httpx.Client) -> None:
    token = "ghp_" + "Qm7Xp2LkTzR8vN3kYt6aZbC1dEfGh2IjKlMn"  # the shape of a GitHub token, made up
    r = alice.post("/v1/memories", json={"content": "x"}, headers={"Idempotency-Key": f"x {token}"})
    assert r.status_code == 400 and token not in r.text, r.text


def test_k_and_batch_over_the_servers_limits_are_422_with_the_limit(alice: httpx.Client) -> None:
    k = _problem(alice.post("/v1/memories/search", json={"query": "tea", "k": 21}), 422)
    assert (k["field"], k["limit"], k["given"]) == ("k", 20, 21)
    items = [{"content": f"note {i}"} for i in range(6)]
    batch = _problem(alice.post("/v1/memories/batch", json={"items": items}), 422)
    assert (batch["field"], batch["limit"], batch["given"]) == ("items", 5, 6)


def test_text_over_the_servers_limit_is_422_naming_the_item(alice: httpx.Client) -> None:
    one = _problem(alice.post("/v1/memories", json={"content": "w" * 501}), 422)
    assert (one["field"], one["limit"], one["given"]) == ("content", 500, 501)
    items = [{"content": "short"}, {"content": "fine", "context": "c" * 600}]
    batch = _problem(alice.post("/v1/memories/batch", json={"items": items}), 422)
    assert (batch["field"], batch["limit"]) == ("items[1].context", 500)


def test_body_over_the_limit_is_413_by_length_and_by_stream(tmp_path: Path) -> None:
    with live_server(tmp_path / "b.db", limits=Limits(max_body_bytes=2048)) as server:
        secret = server.key("acme", "alice")
        with server.client(secret) as c:
            declared = c.post("/v1/memories", json={"content": "x" * 5000})
            assert _problem(declared, 413)["limit"] == 2048

            def chunks() -> Iterator[bytes]:  # no Content-Length: the body is counted as it comes
                yield b'{"content": "'
                for _ in range(10):
                    yield b"y" * 500
                yield b'"}'

            streamed = c.post("/v1/memories", content=chunks(), headers={"content-type": "application/json"})
            assert "streamed" in str(_problem(streamed, 413)["given"])
            assert c.post("/v1/memories", json={"content": "small"}).status_code == 201


def test_over_the_rate_is_429_with_retry_after(tmp_path: Path) -> None:
    with live_server(tmp_path / "r.db", rate=RateLimit(per_second=0.5, burst=3)) as server:
        c, other = server.client(server.key("acme", "alice")), server.client(server.key("acme", "bob"))
        codes = [c.get("/v1/whoami").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = c.get("/v1/whoami")
        _problem(r, 429)
        assert int(r.headers["retry-after"]) >= 1
        assert other.get("/v1/whoami").status_code == 200  # per credential
        c.close()
        other.close()


def test_unknown_route_and_method_are_problems(alice: httpx.Client) -> None:
    _problem(alice.get("/v1/nowhere"), 404)
    _problem(alice.patch("/v1/memories"), 405)


def test_core_replace_needs_the_current_etag(alice: httpx.Client) -> None:
    made = alice.put("/v1/core/notes", json={"limit": 100, "value": "likes tea"})
    assert made.headers["etag"] == '"1"'
    read = alice.get("/v1/core/notes")
    etag = read.headers["etag"]
    _problem(alice.post("/v1/core/notes/replace", json={"old": "tea", "new": "coffee"}), 428)
    ok = alice.post("/v1/core/notes/replace", json={"old": "tea", "new": "coffee"}, headers={"If-Match": etag})
    assert ok.status_code == 200 and ok.json()["value"] == "likes coffee" and ok.headers["etag"] == '"2"'
    stale = alice.post("/v1/core/notes/replace", json={"old": "coffee", "new": "milk"}, headers={"If-Match": etag})
    assert _problem(stale, 412)["limit"] == 2
    appended = alice.post("/v1/core/notes/append", json={"text": "and cake"}, headers={"If-Match": '"2"'})
    assert appended.json()["value"] == "likes coffee\nand cake"
    _problem(alice.get("/v1/core/missing"), 404)


def test_request_id_is_echoed_and_each_request_logs_one_line_without_content_or_secret(
    server: LiveServer, alice: httpx.Client
) -> None:
    secret = alice.headers["authorization"].split()[1]
    r = alice.post("/v1/memories", json={"content": "my passport number is hidden"}, headers={"X-Request-ID": "req-42"})
    assert r.headers["x-request-id"] == "req-42"
    generated = alice.get("/v1/whoami").headers["x-request-id"]
    assert len(generated) == 32
    lines = server.log_lines()
    (line,) = [x for x in lines if x["request_id"] == "req-42"]
    assert line["route"] == "/v1/memories" and line["status"] == 201 and line["credential"].startswith("key:")
    assert set(line) == {"ts", "request_id", "credential", "method", "route", "status", "latency_ms"}
    text = json.dumps(lines)
    assert "passport" not in text and secret not in text


def test_metrics_count_requests_by_route_template(server: LiveServer, alice: httpx.Client) -> None:
    record = alice.post("/v1/memories", json={"content": "metrics note"}).json()["record"]["id"]
    alice.get(f"/v1/memories/{record}")
    text = httpx.get(f"{server.url}/metrics").text
    assert 'tiermem_http_requests_total{method="GET",route="/v1/memories/{record_id}",status="200"}' in text
    assert record not in text
    assert 'tiermem_http_request_duration_seconds_bucket{route="/v1/memories",le="+Inf"}' in text
    expected = ("tiermem_records ", "tiermem_store_bytes ", "tiermem_model_seconds_total ", "tiermem_model_loaded 1")
    for name in (*expected, 'tiermem_pii_masked_total{kind="email"} '):
        assert name in text


def test_health_and_readiness(server: LiveServer) -> None:
    assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
    assert httpx.get(f"{server.url}/readyz").json() == {"status": "ready", "store": True, "model": True}


def test_openapi_is_generated_and_its_schemas_are_valid(server: LiveServer) -> None:
    spec = httpx.get(f"{server.url}/openapi.json").json()
    assert spec["openapi"].startswith("3.1")
    for schema in spec["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    refs = set(__import__("re").findall(r'"#/components/schemas/([^"]+)"', json.dumps(spec)))
    assert refs <= set(spec["components"]["schemas"])
    operations = [op for path in spec["paths"].values() for op in path.values()]
    ids = [op["operationId"] for op in operations]
    assert len(ids) == len(set(ids))
    assert "/v1/memories/{record_id}" in spec["paths"] and "/v1/core/{name}/replace" in spec["paths"]
    body = spec["components"]["schemas"]["MemoryIn"]
    assert body["additionalProperties"] is False


def test_a_full_disk_is_507_and_the_server_recovers(tmp_path: Path) -> None:
    with live_server(tmp_path / "full.db") as server, server.client(server.key("acme", "alice")) as c:
        assert c.post("/v1/memories", json={"content": "before the disk filled"}).status_code == 201
        store = server.runtime.memory.store
        (pages,) = store.execute("PRAGMA page_count")[0]
        store.execute(f"PRAGMA max_page_count = {pages}")  # what a full disk looks like to SQLite
        full = c.post("/v1/memories/batch", json={"items": [{"content": f"{i} " + "z" * 3000} for i in range(5)]})
        _problem(full, 507)
        assert c.get("/v1/memories").json()["records"][0]["content"] == "before the disk filled"
        store.execute("PRAGMA max_page_count = 1073741823")
        assert c.post("/v1/memories", json={"content": "after space returned"}).status_code == 201


def test_concurrent_writers_and_readers_never_see_a_locked_database(server: LiveServer) -> None:
    secrets = [server.key("acme", f"w{i}") for i in range(4)]
    failures: list[str] = []
    written: dict[int, list[str]] = {}

    def work(i: int) -> None:
        with server.client(secrets[i]) as c:
            ids = []
            for n in range(15):
                r = c.post("/v1/memories", json={"content": f"worker {i} note {n} about tea and maps"})
                if r.status_code != 201:
                    failures.append(r.text)
                    continue
                ids.append(r.json()["record"]["id"])
                s = c.post("/v1/memories/search", json={"query": "tea maps", "k": 5})
                if s.status_code != 200:
                    failures.append(s.text)
            written[i] = ids

    def other_process_writes() -> None:  # another connection on the same file, as `tiermem keys create` is
        other = SQLiteStore(server.runtime.memory.store.path)
        try:
            for _ in range(20):
                create_key(other, "acme", "side")
        except MemError as exc:
            failures.append(str(exc))
        finally:
            other.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    threads.append(threading.Thread(target=other_process_writes))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    for i, ids in written.items():
        with server.client(secrets[i]) as c:
            listed = {r["id"] for r in c.get("/v1/memories", params={"limit": 100}).json()["records"]}
        assert listed == set(ids)


def test_the_server_binds_loopback_by_default() -> None:
    from tiermem.server.settings import ServerSettings

    assert ServerSettings(db_url="sqlite:///x.db").host == "127.0.0.1"
    assert socket.gethostbyname("localhost").startswith("127.")
