"""The conformance suite of AccessStore (API keys, session bindings): subclass AccessContract, give ``make_store``.

The store must also be a Store: erasing a user has to take that user's keys and session bindings with it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tiermem.errors import ConflictError
from tiermem.store.access_base import ApiKey, ClaimState, KeyRole
from tiermem.types import Scope

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def key(key_id: str, tenant: str = "acme", user: str | None = "alice", **changes: Any) -> ApiKey:
    fields: dict[str, Any] = {
        "id": key_id,
        "tenant": tenant,
        "user": user,
        "role": KeyRole.USER,
        "secret_hash": "0" * 64,
        "created_at": T0,
        "label": "",
        "revoked_at": None,
    }
    fields.update(changes)
    return ApiKey(**fields)


class AccessContract:
    """Behaviour every AccessStore shares."""

    def make_store(self) -> Any:
        raise NotImplementedError

    @pytest.fixture
    def access(self) -> Iterator[Any]:
        store = self.make_store()
        yield store
        store.close()

    def test_added_key_is_found_with_every_field(self, access: Any) -> None:
        stored = key("k1", user=None, role=KeyRole.ADMIN, secret_hash="ab" * 32, label="ops laptop")
        access.add_key(stored)
        assert access.find_key("k1") == stored
        assert access.find_key("k2") is None

    def test_key_id_is_unique(self, access: Any) -> None:
        access.add_key(key("k1"))
        with pytest.raises(ConflictError, match="k1"):
            access.add_key(key("k1", user="bob"))
        assert access.find_key("k1").user == "alice"

    def test_list_keys_of_one_tenant_oldest_first(self, access: Any) -> None:
        access.add_key(key("k2", created_at=T0 + timedelta(seconds=2)))
        access.add_key(key("k1", created_at=T0 + timedelta(seconds=1)))
        access.add_key(key("k3", tenant="globex"))
        assert [k.id for k in access.list_keys("acme")] == ["k1", "k2"]
        assert {k.id for k in access.list_keys()} == {"k1", "k2", "k3"}
        assert access.list_keys("nobody") == []

    def test_revoke_keeps_the_first_time_and_says_whether_the_key_exists(self, access: Any) -> None:
        access.add_key(key("k1"))
        assert access.revoke_key("k1", at=T0 + timedelta(hours=1))
        assert access.revoke_key("k1", at=T0 + timedelta(hours=2))
        found = access.find_key("k1")
        assert found.revoked_at == T0 + timedelta(hours=1)
        assert not found.active
        assert not access.revoke_key("missing", at=T0)

    def test_session_belongs_to_its_first_user(self, access: Any) -> None:
        assert access.bind_session("acme", "s1", "alice", at=T0) == "alice"
        assert access.bind_session("acme", "s1", "bob", at=T0) == "alice"
        assert access.bind_session("acme", "s1", "alice", at=T0) == "alice"
        assert access.bind_session("globex", "s1", "bob", at=T0) == "bob"  # another tenant, another namespace
        assert access.bind_session("acme", "s2", None, at=T0) is None
        assert access.bind_session("acme", "s2", "alice", at=T0) is None

    def test_racing_binds_agree_on_one_owner(self, access: Any) -> None:
        owners: list[str | None] = []
        users = [f"u{i}" for i in range(8)]

        def bind(user: str) -> None:
            owners.append(access.bind_session("acme", "race", user, at=T0))

        threads = [threading.Thread(target=bind, args=(u,)) for u in users]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(set(owners)) == 1 and owners[0] in users

    def test_erasing_a_user_removes_its_keys_and_sessions_only(self, access: Any) -> None:
        access.add_key(key("ka", user="alice"))
        access.add_key(key("kb", user="bob"))
        access.add_key(key("kt", user=None, role=KeyRole.ADMIN))
        access.bind_session("acme", "sa", "alice", at=T0)
        access.bind_session("acme", "sb", "bob", at=T0)
        access.erase_scope("acme", "alice", audit_detail="erased")
        assert access.find_key("ka") is None
        assert access.find_key("kb") is not None and access.find_key("kt") is not None
        assert access.bind_session("acme", "sa", "bob", at=T0) == "bob"  # free again
        assert access.bind_session("acme", "sb", "carol", at=T0) == "bob"

    # -- idempotency keys ------------------------------------------------------------------------------------------

    def _claim(self, access: Any, key_: str = "k1", fingerprint: str = "f1", at: datetime = T0, **who: Any) -> Any:
        return access.claim_request(
            who.get("tenant", "acme"),
            who.get("user", "alice"),
            key_,
            fingerprint,
            caller=who.get("caller", "key:ka user"),
            at=at,
            stale_before=at - timedelta(minutes=5),
            expired_before=at - timedelta(hours=24),
        )

    def test_an_answered_key_replays_its_answer_and_refuses_another_request(self, access: Any) -> None:
        assert self._claim(access).state is ClaimState.NEW
        assert self._claim(access, at=T0 + timedelta(seconds=1)).state is ClaimState.RUNNING
        access.finish_request("acme", "alice", "k1", status=201, body=b'{"ok": 1}', media_type="application/json")
        done = self._claim(access, at=T0 + timedelta(seconds=2))
        assert (done.state, done.status, done.body, done.media_type) == (
            ClaimState.DONE, 201, b'{"ok": 1}', "application/json"
        )  # fmt: skip
        assert self._claim(access, fingerprint="f2").state is ClaimState.MISMATCH

    def test_a_kept_answer_is_given_to_the_caller_that_made_it_only(self, access: Any) -> None:
        assert self._claim(access, caller="key:ka admin").state is ClaimState.NEW
        running = self._claim(access, caller="key:kb admin", at=T0 + timedelta(seconds=1))
        assert running.state is ClaimState.MISMATCH  # not even whether the first still runs
        access.finish_request("acme", "alice", "k1", status=200, body=b"alice's words", media_type=None)
        for caller in ("key:kb admin", "key:ka user", "jwt:0123 admin"):
            for fingerprint in ("f1", "f2"):
                other = self._claim(access, fingerprint=fingerprint, caller=caller, at=T0 + timedelta(seconds=2))
                assert (other.state, other.body) == (ClaimState.MISMATCH, None)
        assert self._claim(access, caller="key:ka admin", at=T0 + timedelta(seconds=3)).body == b"alice's words"

    def test_another_caller_never_takes_over_an_abandoned_key(self, access: Any) -> None:
        assert self._claim(access, caller="key:ka user").state is ClaimState.NEW
        late = T0 + timedelta(minutes=6)
        assert self._claim(access, caller="key:kb user", at=late).state is ClaimState.MISMATCH
        assert self._claim(access, caller="key:ka user", at=late).state is ClaimState.NEW

    def test_a_key_belongs_to_its_user_and_tenant(self, access: Any) -> None:
        assert self._claim(access).state is ClaimState.NEW
        assert self._claim(access, user="bob").state is ClaimState.NEW
        assert self._claim(access, tenant="globex").state is ClaimState.NEW
        assert self._claim(access, user=None).state is ClaimState.NEW

    def test_a_released_or_abandoned_key_is_claimed_again(self, access: Any) -> None:
        assert self._claim(access).state is ClaimState.NEW
        access.release_request("acme", "alice", "k1")
        assert self._claim(access).state is ClaimState.NEW
        assert self._claim(access, at=T0 + timedelta(minutes=1)).state is ClaimState.RUNNING
        assert self._claim(access, at=T0 + timedelta(minutes=6)).state is ClaimState.NEW  # its request died

    def test_keys_older_than_a_day_are_forgotten(self, access: Any) -> None:
        self._claim(access)
        access.finish_request("acme", "alice", "k1", status=200, body=b"x", media_type=None)
        later = self._claim(access, fingerprint="f2", at=T0 + timedelta(hours=25))
        assert later.state is ClaimState.NEW

    def test_racing_claims_of_one_key_let_exactly_one_run(self, access: Any) -> None:
        states: list[ClaimState] = []

        def claim() -> None:
            states.append(self._claim(access).state)

        threads = [threading.Thread(target=claim) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(states) == sorted([ClaimState.NEW] + [ClaimState.RUNNING] * 7)

    def test_erasing_a_user_removes_its_kept_answers(self, access: Any) -> None:
        self._claim(access)
        access.finish_request("acme", "alice", "k1", status=201, body=b"alice's words", media_type=None)
        access.erase_scope("acme", "alice", audit_detail="erased")
        assert self._claim(access).state is ClaimState.NEW

    def test_dropping_answers_takes_only_the_users_answers_that_quote_a_needle(self, access: Any) -> None:
        answers = {
            ("alice", "k1"): b'{"record": {"id": "rec-7", "content": "the spare key is under the mat"}}',
            ("alice", "k2"): b'{"hits": [{"record": {"id": "rec-8", "content": "rec-7 in passing"}}]}',
            ("alice", "k3"): b'{"record": {"id": "rec-9", "content": "lunch at noon"}}',
            ("bob", "k1"): b'{"record": {"id": "rec-7", "content": "the spare key is under the mat"}}',
        }
        for (user, key_), body in answers.items():
            self._claim(access, key_, user=user)
            access.finish_request("acme", user, key_, status=201, body=body, media_type="application/json")
        self._claim(access, "k4")  # still running: no answer to quote anything

        assert access.drop_answers(Scope("acme", "alice", "bot"), [b"rec-7", b""]) == 2

        later = T0 + timedelta(seconds=1)
        assert self._claim(access, "k1", at=later).state is ClaimState.NEW  # a retry runs again
        assert self._claim(access, "k2", at=later).state is ClaimState.NEW
        assert self._claim(access, "k3", at=later).body == answers[("alice", "k3")]
        assert self._claim(access, "k4", at=later).state is ClaimState.RUNNING
        assert self._claim(access, "k1", user="bob", at=later).body == answers[("bob", "k1")]  # another user's
        assert access.drop_answers(Scope("acme", "alice"), [b"under the mat", b"lunch at noon"]) == 1
        assert access.drop_answers(Scope("acme", "alice"), []) == 0

    def test_answers_made_before_a_moment_are_dropped_for_every_tenant_and_user(self, access: Any) -> None:
        made = [("acme", "alice", T0), ("acme", "bob", T0), ("globex", None, T0), ("acme", "alice", T0)]
        for n, (tenant, user, at) in enumerate(made):
            self._claim(access, f"k{n}", at=at + timedelta(minutes=n), tenant=tenant, user=user)
            access.finish_request(tenant, user, f"k{n}", status=200, body=b"old words", media_type=None)
        self._claim(access, "unanswered", at=T0, user="carol")

        assert access.drop_answers_before(T0 + timedelta(minutes=3)) == 4

        later = T0 + timedelta(hours=1)
        for n, (tenant, user, _) in enumerate(made[:3]):
            assert self._claim(access, f"k{n}", at=later, tenant=tenant, user=user).state is ClaimState.NEW
        assert self._claim(access, "k3", at=later).body == b"old words"
        assert access.drop_answers_before(T0) == 0
