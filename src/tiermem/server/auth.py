"""(internal) Identity: a credential (an API key or a bearer JWT) becomes a Principal, and a Principal a Scope.

Tenant and user always come from the credential, never from a body. A request may narrow its scope with the
``agent`` and ``session`` query parameters; an admin may name a user of its own tenant with ``user``. A
session id is bound to the first user who names it (``AccessStore.bind_session``); another user naming it
gets the same 404 as for anything else that is not theirs.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt

from tiermem.errors import AccessError, ConfigError, NotFoundError, ScopeError
from tiermem.server.keys import check_key, looks_like_key
from tiermem.server.settings import JWTConfig
from tiermem.store.access_base import AccessStore, KeyRole
from tiermem.types import Scope, utcnow

__all__ = ["CredentialCache", "JWTVerifier", "Principal", "authenticate", "scope_for"]


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the tenant and user the credential names, its role, and a loggable credential id."""

    tenant: str
    user: str | None
    role: KeyRole
    credential: str  # "key:<id>" or "jwt:<hash of issuer and subject>": never a secret


class JWTVerifier:
    """Checks bearer JWTs against the operator's issuer, audience and JWKS (a file, or a URL fetched and cached)."""

    def __init__(self, config: JWTConfig) -> None:
        self.config = config
        self._client: jwt.PyJWKClient | None = None
        self._keys: jwt.PyJWKSet | None = None
        if config.jwks_file is not None:
            try:
                self._keys = jwt.PyJWKSet.from_dict(json.loads(Path(config.jwks_file).read_text(encoding="utf-8")))
            except (OSError, ValueError, jwt.PyJWTError) as exc:
                raise ConfigError(f"JWT: cannot read the JWKS file {config.jwks_file}: {exc}") from exc
        elif config.jwks_url is not None:
            self._client = jwt.PyJWKClient(config.jwks_url, cache_keys=True, lifespan=300, timeout=10)
        else:
            raise ConfigError("JWT: give exactly one of a JWKS file and a JWKS URL")

    def _key(self, token: str) -> Any:
        """The issuer's key the token names; InvalidTokenError when it names none."""
        if self._client is not None:
            return self._client.get_signing_key_from_jwt(token).key
        keys = list(self._keys or ())
        kid = jwt.get_unverified_header(token).get("kid")
        match = keys[0] if kid is None and len(keys) == 1 else next((k for k in keys if k.key_id == kid), None)
        if match is None:
            raise jwt.InvalidTokenError("no key with that kid")
        return match.key

    def verify(self, token: str) -> Principal | None:
        """The principal a valid token names; None for any token that does not verify or names no valid scope."""
        c = self.config
        try:
            claims = jwt.decode(
                token,
                self._key(token),
                algorithms=list(c.algorithms),
                audience=c.audience,
                issuer=c.issuer,
                leeway=c.leeway_seconds,
                options={"require": ["exp", "iss", "aud"]},
            )
        except (jwt.PyJWTError, ValueError, TypeError):  # TypeError: a key of one kind given a token of another
            return None
        tenant, user, role = claims.get(c.tenant_claim), claims.get(c.user_claim), claims.get(c.role_claim, "user")
        # Both are required: a token without its user (a service account, a misnamed claim) would otherwise act
        # on the tenant's shared memory, which only an API key made without a user may do.
        if not isinstance(tenant, str) or not isinstance(user, str):
            return None
        try:
            Scope(tenant, user)
            kind = KeyRole(role)
        except (ScopeError, ValueError):
            return None
        subject = f"{claims.get('iss')}\0{claims.get('sub')}".encode()
        return Principal(tenant, user, kind, "jwt:" + hashlib.sha256(subject).hexdigest()[:12])


class CredentialCache:
    """Principals of credentials verified in the last ``seconds``, by a hash of the header (never the secret).

    A request with a credential seen moments ago skips the database and the signature check; so a revoked key
    keeps working for at most ``seconds`` (0 turns the cache off). Only verified credentials are kept.
    """

    def __init__(self, seconds: float, *, size: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.size = size
        self._clock = clock
        self._seen: dict[str, tuple[Principal, float]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _key(header: str) -> str:
        return hashlib.sha256(header.encode("utf-8", "surrogateescape")).hexdigest()

    def get(self, header: str | None) -> Principal | None:
        """The principal of ``header`` if it was verified less than ``seconds`` ago."""
        if self.seconds <= 0 or not header:
            return None
        with self._lock:
            found = self._seen.get(self._key(header))
        if found is None or found[1] < self._clock():
            return None
        return found[0]

    def known(self, header: str | None) -> bool:
        """Whether ``header`` verified before, however long ago (it is verified again all the same)."""
        if self.seconds <= 0 or not header:
            return False
        with self._lock:
            return self._key(header) in self._seen

    def clear(self) -> None:
        """Forget every credential (after an erase removed some keys)."""
        with self._lock:
            self._seen.clear()

    def put(self, header: str | None, principal: Principal) -> None:
        """Remember a verified credential."""
        if self.seconds <= 0 or not header:
            return
        with self._lock:
            if len(self._seen) >= self.size:
                self._seen.clear()  # simpler than LRU, and cheap: the next requests verify once more
            self._seen[self._key(header)] = (principal, self._clock() + self.seconds)


def authenticate(access: AccessStore, verifier: JWTVerifier | None, authorization: str | None) -> Principal:
    """The principal of an ``Authorization: Bearer ...`` header; AccessError (401) for anything else."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise AccessError("a credential is required: Authorization: Bearer <API key or JWT>")
    if looks_like_key(token):
        key = check_key(access, token)
        if key is not None:
            return Principal(key.tenant, key.user, key.role, f"key:{key.id}")
    elif verifier is not None:
        principal = verifier.verify(token)
        if principal is not None:
            return principal
    raise AccessError("the credential is not valid (unknown, revoked, expired or wrongly signed)")


def scope_for(
    access: AccessStore,
    principal: Principal,
    *,
    user: str | None = None,
    agent: str | None = None,
    session: str | None = None,
) -> Scope:
    """The scope a request acts on; ``user`` only from an admin; a session already bound to another user is 404."""
    acting = principal.user
    if user is not None and user != principal.user:
        if principal.role is not KeyRole.ADMIN:
            raise AccessError("only an admin credential may name a user", authenticated=True)
        acting = user
    scope = Scope(principal.tenant, acting, agent, session)
    if session is not None:
        owner = access.bind_session(principal.tenant, session, acting, at=utcnow())
        if owner != acting:
            raise NotFoundError(f"no session {session}")
    return scope


def require_admin(principal: Principal) -> None:
    """AccessError (403) unless the principal is an admin."""
    if principal.role is not KeyRole.ADMIN:
        raise AccessError("this needs an admin credential", authenticated=True)
