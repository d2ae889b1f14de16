"""One set of behaviours, run against the embedded Memory and against RemoteMemory over a real server."""

from __future__ import annotations

import inspect
import itertools
import typing
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from live_server import LiveServer, live_server
from tiermem.errors import AccessError, ConfigError, ConflictError, NotFoundError, StoreError, ValidationError
from tiermem.memory import Memory
from tiermem.memory_api import MemoryAPI
from tiermem.remote import RemoteMemory
from tiermem.types import Filter, MemoryType, Scope
from tiermem.write.path import NewMemory, WriteStatus

_users = itertools.count()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("api") / "api.db") as s:
        yield s


@pytest.fixture(params=["embedded", "remote"])
def api(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Any, Scope]]:
    """A memory and a fresh user's scope in it; remote memories act through an admin key of the tenant."""
    scope = Scope("acme", f"user{next(_users)}")
    if request.param == "embedded":
        memory: Any = Memory.open(tmp_path / "e.db", embedder="hash")
    else:
        server: LiveServer = request.getfixturevalue("server")
        memory = Memory.open(server.url, api_key=server.key("acme", None, "admin"))
        assert isinstance(memory, RemoteMemory)
    with memory:
        yield memory, scope


def test_remember_then_get_round_trips_and_duplicates_are_unchanged(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    when = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    made = mem.remember(scope, "I keep my bike in the shed", tags=["home"], valid_from=when, metadata={"n": 1})
    assert made.status is WriteStatus.ADDED
    got = mem.get(scope, made.record.id)
    assert got == made.record
    assert (got.content, got.tags, got.valid_from, dict(got.metadata)) == (
        "I keep my bike in the shed",
        ("home",),
        when,
        {"n": 1, "injection_verdict": "clean", "injection_score": 0.0},  # judged once, when written
    )
    again = mem.remember(scope, "I keep my bike in the shed")
    assert again.status is WriteStatus.UNCHANGED and again.record.id == made.record.id


def test_a_batch_is_all_or_nothing(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    with pytest.raises(ValidationError) as caught:
        mem.remember_many(scope, [NewMemory("fine note"), NewMemory("bad source", source="satellite")])
    assert caught.value.field.endswith("source")
    assert mem.list(scope).records == ()
    results = mem.remember_many(scope, [NewMemory("first note"), NewMemory("second note", ttl=3600)])
    assert [r.status for r in results] == [WriteStatus.ADDED, WriteStatus.ADDED]
    assert results[1].record.expires_at is not None


def test_recall_returns_hits_with_parts_and_honours_filters(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    mem.remember(scope, "The office wifi password rotates monthly", type="semantic")
    mem.remember(scope, "Yesterday the wifi in the office dropped twice", type="episodic")
    hits = mem.recall(scope, "office wifi", k=5)
    assert len(hits) == 2 and hits[0].score >= hits[1].score
    assert {p.name for p in hits[0].parts} >= {"keyword"}
    only = mem.recall(scope, "office wifi", filter=Filter(types=frozenset({MemoryType.EPISODIC})))
    assert [h.record.type for h in only] == [MemoryType.EPISODIC]


def test_as_of_sees_what_was_valid_then(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    old = mem.remember(scope, "My desk is on floor 3", valid_from=t0)
    mem.remember(scope, "My desk is on floor 5", valid_from=t0 + timedelta(days=30), supersedes=old.record.id)
    now = [h.record.content for h in mem.recall(scope, "desk floor", k=5)]
    then = [h.record.content for h in mem.recall(scope, "desk floor", k=5, as_of=t0 + timedelta(days=1))]
    assert now[0] == "My desk is on floor 5"
    assert then[0] == "My desk is on floor 3"


def test_list_pages_with_a_cursor_newest_first(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    for i in range(5):
        mem.remember(scope, f"numbered note {i}")
    first = mem.list(scope, limit=2)
    assert [r.content for r in first.records] == ["numbered note 4", "numbered note 3"]
    seen = list(first.records)
    cursor = first.next_cursor
    while cursor is not None:
        page = mem.list(scope, limit=2, cursor=cursor)
        seen += page.records
        cursor = page.next_cursor
    assert [r.content for r in seen] == [f"numbered note {i}" for i in (4, 3, 2, 1, 0)]
    with pytest.raises(ValidationError, match="limit"):
        mem.list(scope, limit=0)


def test_forget_then_get_is_not_found(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    made = mem.remember(scope, "a note to forget")
    mem.forget(scope, made.record.id)
    with pytest.raises(NotFoundError):
        mem.get(scope, made.record.id)
    with pytest.raises(NotFoundError):
        mem.forget(scope, made.record.id)


def test_history_audit_and_rollback(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    first = mem.remember(scope, "The team meets on Mondays")
    second = mem.remember(scope, "The team meets on Tuesdays", supersedes=first.record.id)
    assert [r.id for r in mem.history(scope, second.record.id)] == [first.record.id, second.record.id]
    ops = [e.op for e in mem.audit(scope)]
    assert ops.count("add") == 2 and "supersede" in ops
    assert [e.version for e in mem.audit(scope, first.record.id)] == [1, 2]
    with pytest.raises(ConflictError, match=second.record.id):  # the successor is current: no second version
        mem.rollback(scope, first.record.id, 1)
    mem.forget(scope, second.record.id)
    restored = mem.rollback(scope, first.record.id, 1)
    assert restored.valid_to is None and restored.version == 3
    with pytest.raises(ValidationError, match="version"):
        mem.rollback(scope, first.record.id, 9)


def test_held_writes_are_listed_approved_and_rejected(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    one = mem.remember(scope, "Always answer in French", type="procedural", source="tool:crawler")
    two = mem.remember(scope, "Never answer in French", type="procedural", source="web:https://x.test/p")
    assert one.status is WriteStatus.PENDING and one.pending_id is not None
    assert [p.id for p in mem.pending(scope)] == [one.pending_id, two.pending_id]
    approved = mem.approve(scope, one.pending_id)
    assert approved.status is WriteStatus.ADDED and str(approved.record.source) == "tool:crawler"
    assert approved.record.metadata["approved_by"]  # the operator, or the server's credential id
    assert two.pending_id is not None
    mem.reject(scope, two.pending_id)
    assert mem.pending(scope) == []
    with pytest.raises(NotFoundError):
        mem.reject(scope, two.pending_id)


def test_export_and_erase_a_user(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    mem.remember(scope, "my locker code is in the drawer")
    data = mem.export(scope)
    assert data["user"] == scope.user and [r["content"] for r in data["records"]] == ["my locker code is in the drawer"]
    report = mem.erase(scope.tenant, scope.user)
    assert report.removed["records"] == 1
    assert mem.list(scope).records == ()


def test_bad_input_raises_the_same_errors(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    with pytest.raises(ValidationError) as k:
        mem.recall(scope, "anything", k=0)
    assert k.value.field == "k"
    with pytest.raises(ValidationError) as source:
        mem.remember(scope, "x", source="satellite")
    assert source.value.field == "source" and source.value.given == "satellite"
    with pytest.raises(NotFoundError):
        mem.get(scope, "01a00000-0000-7000-8000-000000000000")


def test_related_returns_the_same_records_links_and_neighbours(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    day = datetime(2026, 3, 2, 9, tzinfo=UTC)
    old = mem.remember(scope, "Ann works at Acme in Oslo.", valid_from=day).record
    new = mem.remember(scope, "Ann works at Globex.", valid_from=day + timedelta(days=9), supersedes=old.id).record
    mem.remember(scope, "The annual fee rose.", valid_from=day + timedelta(days=20))
    found = mem.related(scope, "ann", limit=5)
    assert found.entity == "ann"
    assert [(r.id, r.text, r.kind) for r in found.records] == [
        (new.id, "Ann works at Globex.", "semantic"),
        (old.id, "Ann works at Acme in Oslo.", "semantic"),
    ]
    assert [(link.how.value, link.via) for link in found.records[1].links] == [
        ("mentions", None),
        ("superseded_by", new.id),
    ]
    assert found.records[1].valid_to is not None and found.records[0].created_at.tzinfo is not None
    assert [(n.name, n.count, n.record_ids) for n in found.neighbours] == [
        ("acme", 1, (old.id,)),
        ("globex", 1, (new.id,)),
        ("oslo", 1, (old.id,)),
    ]
    with pytest.raises(ValidationError) as bad:
        mem.related(scope, "ann", limit=0)
    assert bad.value.field == "limit" and bad.value.given == 0


def test_the_related_route_answers_bad_input_with_a_4xx(server: LiveServer) -> None:
    with server.client(server.key("acme", "alice")) as http:
        assert http.get("/v1/related", params={"entity": "Ann"}).status_code == 200
        for params in (
            {},
            {"entity": ""},
            {"entity": "?!"},
            {"entity": "x" * 5000},
            {"entity": "Ann", "limit": 0},
            {"entity": "Ann", "limit": "many"},
            {"entity": "Ann", "limit": 10**30},
        ):
            answer = http.get("/v1/related", params=params)
            assert 400 <= answer.status_code < 500, (params, answer.status_code, answer.text)


def test_a_remote_scope_must_match_the_credential(server: LiveServer) -> None:
    with Memory.open(server.url, api_key=server.key("acme", "alice")) as mem:
        mem.remember(Scope("acme", "alice"), "my own note")
        for scope in (Scope("globex", "alice"), Scope("acme", "bob"), Scope("acme", None)):
            with pytest.raises(AccessError, match="credential"):
                mem.remember(scope, "not mine")
        with pytest.raises(AccessError, match="admin"):
            mem.export(Scope("acme", "alice"))
        assert [r.content for r in mem.list(Scope("acme", "alice", agent="helper")).records] == []
    with Memory.open(server.url, api_key="tmk_000000000000_" + "A" * 43) as bad, pytest.raises(AccessError):
        bad.recall(Scope("acme", "alice"), "anything")


def test_open_needs_a_key_for_a_server_and_none_for_a_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="api_key"):
        Memory.open("http://127.0.0.1:9")  # type: ignore[call-overload]
    with pytest.raises(ConfigError, match="api_key"):
        Memory.open(tmp_path / "x.db", api_key="tmk_x")  # type: ignore[call-overload]


def test_an_unreachable_server_is_a_store_error() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nobody listens there
    with Memory.open(f"http://127.0.0.1:{port}", api_key="tmk_x", timeout=2) as mem, pytest.raises(StoreError):
        mem.get(Scope("acme", "alice"), "01a00000-0000-7000-8000-000000000000")


def test_remember_messages_then_recall_finds_a_turn_with_its_speaker_and_a_resend_adds_nothing(
    api: tuple[Any, Scope],
) -> None:
    from tiermem.context.messages import Message

    mem, scope = api
    said = datetime(2026, 2, 3, 18, 30, tzinfo=UTC)
    transcript: list[Any] = [
        {"role": "user", "name": "Ann", "content": "I repainted the garden fence green", "created_at": said},
        Message("assistant", "Green suits a garden fence.", id="m-2", created_at=said + timedelta(minutes=1)),
    ]
    results = mem.remember_messages(scope, transcript, session="chat-7")
    assert [r.status for r in results] == [WriteStatus.ADDED, WriteStatus.ADDED]
    first = results[0].record
    assert (first.scope.session, str(first.source), first.valid_from) == ("chat-7", "user:Ann", said)
    (hit, *_) = mem.recall(Scope(scope.tenant, scope.user, session="chat-7"), "garden fence colour", k=2)
    assert hit.record.content == "Ann: I repainted the garden fence green"
    again = mem.remember_messages(scope, transcript, session="chat-7")
    assert [r.status for r in again] == [WriteStatus.UNCHANGED] * 2
    assert [r.record.id for r in again] == [r.record.id for r in results]
    assert len(mem.list(scope).records) == 2


def test_a_bad_message_names_its_index_and_field_and_stores_nothing(api: tuple[Any, Scope]) -> None:
    mem, scope = api
    bad = [{"role": "user", "content": "a fine first turn"}, {"role": "narrator", "content": "a bad second turn"}]
    with pytest.raises(ValidationError) as caught:
        mem.remember_messages(scope, bad, session="chat-8")
    assert caught.value.field == "messages[1].role"
    assert mem.list(scope).records == ()


def test_a_transcript_for_another_users_session_is_404_and_writes_nothing(server: LiveServer) -> None:
    body = {"messages": [{"role": "user", "content": "the spare key is under the blue pot"}]}
    with server.client(server.key("acme", "tx-owner")) as owner, server.client(server.key("acme", "tx-other")) as other:
        made = owner.post("/v1/sessions/tx-chat/transcript", json=body)
        assert made.status_code == 201, made.text
        assert (made.json()["written"], made.json()["skipped"], len(made.json()["record_ids"])) == (1, 0, 1)
        theirs = other.post("/v1/sessions/tx-chat/transcript", json=body)
        assert theirs.status_code == 404 and theirs.json()["detail"] == "no session tx-chat"
        assert other.get("/v1/memories").json()["records"] == []
        resent = owner.post("/v1/sessions/tx-chat/transcript", json=body).json()
        assert (resent["written"], resent["skipped"]) == (0, 1)


def test_a_transcript_over_http_refuses_unknown_fields_by_index_with_problem_json(server: LiveServer) -> None:
    with server.client(server.key("acme", "tx-strict")) as http:
        messages = [
            {"role": "user", "content": "a fine turn"},
            {"role": "user", "content": "when", "created_at": "yesterday"},
        ]
        r = http.post("/v1/sessions/tx-strict-chat/transcript", json={"messages": messages})
        assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["field"] == "messages[1].created_at"
        extra = http.post(
            "/v1/sessions/tx-strict-chat/transcript", json={"messages": [{"role": "user", "content": "x", "mood": 1}]}
        )
        assert extra.status_code == 422 and extra.json()["field"] == "messages[0].mood"
        assert http.get("/v1/memories").json()["records"] == []


# Memory's methods that RemoteMemory leaves out on purpose (operator jobs on the server's database; see its docstring).
# flush: a write-behind queue is the server's own (it flushes when it stops); a client has none to wait for.
# with_embedder builds another local facade on the same store; refresh_ttl serves the LangGraph adapter, which
# runs on a local store. remember_keyed derives record ids from its keys, which the service's routes do not take.
NOT_REMOTE = {
    "open",
    "sweep",
    "restore",
    "consolidate",
    "release",
    "flush",
    "with_embedder",
    "refresh_ttl",
    "remember_keyed",
}


def _public(cls: type) -> set[str]:
    return {n for n in dir(cls) if not n.startswith("_") and callable(getattr(cls, n))}


def _shape(method: Any) -> tuple[list[tuple[str, Any, Any]], dict[str, Any]]:
    """A method's parameters (name, kind, default) and its resolved type hints."""
    parameters = [(p.name, p.kind, p.default) for p in inspect.signature(method).parameters.values()]
    return parameters, typing.get_type_hints(method)


def test_every_public_method_of_memory_is_in_memory_api_unless_it_is_left_out_of_remote_on_purpose() -> None:
    missing = _public(Memory) - NOT_REMOTE - _public(MemoryAPI)
    assert not missing, f"add {sorted(missing)} to MemoryAPI (and RemoteMemory), or to NOT_REMOTE with a reason"
    assert not NOT_REMOTE & _public(MemoryAPI)


@pytest.mark.parametrize("cls", [Memory, RemoteMemory], ids=lambda c: c.__name__)
def test_memory_and_remote_memory_offer_every_method_of_memory_api_with_its_signature(cls: type) -> None:
    for name in sorted(_public(MemoryAPI) | {"__enter__", "__exit__"}):
        assert _shape(getattr(cls, name)) == _shape(getattr(MemoryAPI, name)), f"{cls.__name__}.{name}"
