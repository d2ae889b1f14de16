"""(internal) The one auth path: how a request's credential becomes a Principal, whatever the door.

The declared routes (``deps.caller``), the hot routes' fast path (``fast``), MCP (``mcp_mount``) and the
inspector (sign-in and every page after it) all ask ``AuthPath``, so they agree on everything a credential is
checked for:

- a credential verified less than a second ago is taken from the cache (``auth.CredentialCache``); otherwise it
  is checked against the keys table or the JWT issuer, so a revoked key, or a token past its expiry, is refused
  within that second everywhere, an inspector session signed in with it included;
- a client that keeps giving credentials that do not verify gets 429 (``failed_per_second``, ``failed_burst``)
  before any new one is checked again, so keys cannot be guessed at speed (one that verified before is still
  checked, so its owner is not locked out with the guesser);
- a verified caller spends a token of its credential's rate (``limits.RateLimiter``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tiermem.errors import AccessError
from tiermem.server.auth import CredentialCache, JWTVerifier, Principal, authenticate
from tiermem.server.limits import RateLimiter
from tiermem.store.access_base import AccessStore
from tiermem.write.actor import act_as

__all__ = ["FAILED_BURST", "FAILED_PER_SECOND", "AuthPath"]

FAILED_BURST = 20  # credentials that do not verify, from one client, before it must slow down
FAILED_PER_SECOND = 1.0  # and how fast it may try again after that


@dataclass(slots=True)
class AuthPath:
    """Credentials to principals for every door of one server process."""

    access: AccessStore
    jwt: JWTVerifier | None
    cache: CredentialCache
    limiter: RateLimiter
    failures: RateLimiter  # per client address: credentials that did not verify

    def cached(self, header: str | None) -> Principal | None:
        """The principal of a credential verified moments ago (no I/O: callable on an event loop)."""
        return self.cache.get(header)

    def verify(self, header: str | None, client: str | None) -> Principal:
        """The principal of ``header``; AccessError (401) when it does not verify, RateLimitError (429) when
        ``client`` gave too many that did not. Blocking: the keys table or the issuer's keys may be read."""
        principal = self.cache.get(header)
        if principal is not None:
            return principal
        who = client or "unknown client"
        # A credential that verified before is checked again whatever the client's failures: a guesser sharing
        # its owner's address (a proxy, a NAT) must not lock the owner out, and guesses never verified.
        if header and not self.cache.known(header):
            self.failures.check(who, what="credentials that did not verify from this client")
        try:
            principal = authenticate(self.access, self.jwt, header)
        except AccessError:
            if header:
                self.failures.spend(who)
            raise
        self.cache.put(header, principal)
        return principal

    def admit(self, principal: Principal) -> Principal:
        """Spend a token of the principal's rate (RateLimitError over it), and make it the author of the request's
        writes: their audit entries name its credential id, not the source a client sent (``write.actor``)."""
        self.limiter.take(principal.credential)
        act_as(principal.credential)
        return principal
