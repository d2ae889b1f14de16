"""The AccessStore protocol: API keys and session bindings, kept in the store's database beside the memories.

The service turns a credential into a scope. An API key is stored as its id (public, shown in listings and
logs) and a hash of its secret; the secret itself is shown once when the key is made and never stored. A
session binding records the user who first used a session id of a tenant, so another user of that tenant
cannot read or write that session. Both tables are scoped by (tenant, user), so erasing a user removes that
user's keys and sessions with the rest of its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

__all__ = [
    "ANSWERS_KEPT",
    "KEY_COLUMNS",
    "AccessStore",
    "ApiKey",
    "Claim",
    "ClaimState",
    "KeyRole",
    "key_of",
    "key_row",
]

# How long the service keeps a keyed request's answer for its retries: the middleware replays it that long, and a
# sweep deletes every answer older than that, of users who never send another keyed request too.
ANSWERS_KEPT = timedelta(hours=24)
KEY_COLUMNS = "id, tenant, user_key, role, secret_hash, label, created_at, revoked_at"  # of the api_keys table


class KeyRole(StrEnum):
    """What a credential may do: ``user`` acts on its own memory; ``admin`` also on any user of its tenant."""

    USER = "user"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored API key: its public id, whose it is, its role and the hash of its secret (never the secret)."""

    id: str
    tenant: str
    user: str | None  # None: the tenant's shared memory (and, for an admin, no user of its own)
    role: KeyRole
    secret_hash: str
    created_at: datetime
    label: str = ""
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        """Not revoked."""
        return self.revoked_at is None


def key_row(key: ApiKey, stored: Callable[[datetime], Any]) -> list[Any]:
    """``key`` as an api_keys row in ``KEY_COLUMNS`` order, its times as ``stored`` gives them."""
    revoked = None if key.revoked_at is None else stored(key.revoked_at)
    role = key.role.value
    return [key.id, key.tenant, key.user or "", role, key.secret_hash, key.label, stored(key.created_at), revoked]


def key_of(row: Sequence[Any], moment: Callable[[Any], datetime]) -> ApiKey:
    """An api_keys row read in ``KEY_COLUMNS`` order as a key; ``moment`` reads a stored time."""
    key_id, tenant, user_key, role, secret_hash, label, created_at, revoked_at = row
    revoked = None if revoked_at is None else moment(revoked_at)
    return ApiKey(key_id, tenant, user_key or None, KeyRole(role), secret_hash, moment(created_at), label, revoked)


class ClaimState(StrEnum):
    """What a retried request's key says: run it, replay the first answer, wait for it, or refuse a reuse."""

    NEW = "new"  # the first request with this key (or one whose first run was abandoned): run it
    DONE = "done"  # answered before: replay that answer
    RUNNING = "running"  # the first request is still running
    MISMATCH = "mismatch"  # the key was used for another request


@dataclass(frozen=True, slots=True)
class Claim:
    """The state of an idempotency key and, once answered, the answer."""

    state: ClaimState
    status: int | None = None
    body: bytes | None = None
    media_type: str | None = None


class AccessStore(Protocol):
    """Keys and session bindings; every method is its own transaction (or joins the caller's)."""

    def add_key(self, key: ApiKey) -> None:
        """Store a new key; ConflictError if its id exists."""
        ...

    def find_key(self, key_id: str) -> ApiKey | None:
        """The key with this id, revoked or not; None if there is none."""
        ...

    def list_keys(self, tenant: str | None = None) -> list[ApiKey]:
        """Every key (of one tenant), oldest first."""
        ...

    def revoke_key(self, key_id: str, *, at: datetime) -> bool:
        """Mark the key revoked at ``at``; False if there is no such key (revoking twice keeps the first time)."""
        ...

    def bind_session(self, tenant: str, session: str, user: str | None, *, at: datetime) -> str | None:
        """Bind the tenant's ``session`` to ``user`` unless it is bound already; returns the user it is bound to.

        Atomic: of two users racing for a new session id exactly one wins, and both learn who. ``user`` None
        is the tenant's shared memory, and is returned as None.
        """
        ...

    def claim_request(
        self,
        tenant: str,
        user: str | None,
        key: str,
        fingerprint: str,
        *,
        caller: str,
        at: datetime,
        stale_before: datetime,
        expired_before: datetime,
    ) -> Claim:
        """Claim an idempotency key for a request with this fingerprint, atomically across processes.

        ``user`` is the user whose memory the request acts on (None: the tenant's shared memory), so erasing that
        user removes the answers that hold its data; ``caller`` names the credential and role that sent it. A
        new key (or one claimed before ``stale_before`` and never answered: its request died) is claimed at
        ``at``; a key answered before gives its answer, to the same caller only: another caller, like another
        fingerprint, gets MISMATCH. The user's keys claimed before ``expired_before`` are forgotten first.
        """
        ...

    def finish_request(
        self, tenant: str, user: str | None, key: str, *, status: int, body: bytes, media_type: str | None
    ) -> None:
        """Keep the answer of a claimed key."""
        ...

    def release_request(self, tenant: str, user: str | None, key: str) -> None:
        """Forget a claimed, unanswered key (the request failed: a retry runs it again)."""
        ...
