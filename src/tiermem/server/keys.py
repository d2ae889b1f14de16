"""(internal) API keys: make one (the secret is returned once), and check a presented secret in constant time.

A key reads ``tmk_<id>_<secret>``: the id (12 hex digits) is public and finds the stored row; the secret is
32 random bytes (256 bits). The store keeps sha256 of the whole key, not the key. A fast hash is enough here,
unlike for passwords: a slow KDF (bcrypt, argon2) protects guessable human secrets, and nobody can search a
2^256 space whatever the hash costs, while a slow hash would add its cost to every request.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from tiermem.errors import ConfigError, ValidationError
from tiermem.store import PoolOptions, Store, open_store
from tiermem.store.access_base import AccessStore, ApiKey, KeyRole
from tiermem.types import Scope, utcnow

__all__ = ["PREFIX", "NewKey", "check_key", "create_key", "hash_key", "looks_like_key", "open_access"]

PREFIX = "tmk_"
_SHAPE = re.compile(r"tmk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})")


@dataclass(frozen=True, slots=True)
class NewKey:
    """A key just made: the stored row, and the full secret to hand to its holder (shown once)."""

    key: ApiKey
    secret: str


def hash_key(secret: str) -> str:
    """The stored form of a key: sha256 hex of the whole ``tmk_...`` string."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def looks_like_key(token: str) -> bool:
    """True when ``token`` has the shape of an API key (anything else may be a JWT)."""
    return token.startswith(PREFIX)


def create_key(
    store: AccessStore, tenant: str, user: str | None, role: KeyRole | str = KeyRole.USER, label: str = ""
) -> NewKey:
    """Make, store and return a new key for (tenant, user)."""
    Scope(tenant, user)  # the same names a scope allows
    try:
        chosen: KeyRole | None = KeyRole(role)
    except ValueError:  # raised below, outside the handler: its error quotes the value and must not be the context
        chosen = None
    if chosen is None:
        raise ValidationError("role", "must be user or admin", given=role)
    role = chosen
    if len(label) > 200:
        raise ValidationError("label", "is too long", given=len(label), limit=200)
    key_id = secrets.token_hex(6)
    secret = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    key = ApiKey(key_id, tenant, user, role, hash_key(secret), utcnow(), label)
    store.add_key(key)
    return NewKey(key, secret)


def check_key(store: AccessStore, token: str) -> ApiKey | None:
    """The active key ``token`` is, or None (unknown id, wrong secret, revoked: the caller cannot tell which)."""
    match = _SHAPE.fullmatch(token)
    if match is None:
        return None
    key = store.find_key(match.group(1))
    # Compared even when no key was found, so a wrong id and a wrong secret take the same time.
    stored = key.secret_hash if key is not None else "0" * 64
    same = hmac.compare_digest(stored, hash_key(token))
    return key if key is not None and same and key.active else None


def _access(store: Store) -> AccessStore:
    needed = ("add_key", "find_key", "list_keys", "revoke_key", "bind_session")
    if not all(callable(getattr(store, name, None)) for name in needed):
        raise ConfigError(f"{type(store).__name__} keeps no API keys or sessions (it is no AccessStore)")
    return store  # type: ignore[return-value]  # checked structurally above


def open_access(
    url: str, *, create: bool = False, pool: PoolOptions | None = None, synchronous: str | None = None
) -> tuple[Store, AccessStore]:
    """The store at ``url`` (an existing one unless ``create``) and the same store as an AccessStore."""
    store = open_store(url, create=create, pool=pool, synchronous=synchronous)
    try:
        return store, _access(store)
    except ConfigError:
        store.close()
        raise
