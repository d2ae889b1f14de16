"""The AccessStore protocol: API keys and session bindings, kept in the store's database beside the memories.

The service turns a credential into a scope. An API key is stored as its id (public, shown in listings and
logs) and a hash of its secret; the secret itself is shown once when the key is made and never stored. A
session binding records the user who first used a session id of a tenant, so another user of that tenant
cannot read or write that session. Both tables are scoped by (tenant, user), so erasing a user removes that
user's keys and sessions with the rest of its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

__all__ = ["AccessStore", "ApiKey", "KeyRole"]


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
