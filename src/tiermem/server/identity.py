"""(internal) The one auth path: how a request's credential becomes a Principal, whatever the door.

Every door takes the same two steps, ``verify`` then ``admit``: the declared routes (``deps.caller``) and MCP
(``mcp_mount``) through ``caller``; the hot routes' fast path (``fast``) and the inspector's pages, already off
the event loop, call the two themselves; the idempotency check and the inspector's sign-in only ``verified``
(the route that follows admits). A door that refuses a credential answers at once, in the app's problem+json, so
a credential that does not verify counts once against its client, whichever door it knocks on. What is checked:

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

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

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

    async def verified(self, header: str | None, client: str | None) -> Principal:
        """``verify`` from the event loop: a cached credential costs no thread hop, another is checked in the pool."""
        principal = self.cache.get(header)
        return principal if principal is not None else await run_in_threadpool(self.verify, header, client)

    async def caller(self, request: Request) -> Principal:
        """Both steps for a request on the event loop; the credential id is kept for the request's log line.

        Admitted here, on the loop, so the audit author (``write.actor``) is in the context the route runs in.
        """
        client = request.client.host if request.client else None
        principal = await self.verified(request.headers.get("authorization"), client)
        request.state.credential = principal.credential
        return self.admit(principal)
