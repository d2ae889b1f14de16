"""(internal) The inspector's server-side sessions: a signed random id in an HttpOnly cookie, a CSRF token each.

The cookie holds only ``<id>.<hmac>``; the principal lives in this process. A session starts anonymous (so the
sign-in form has a CSRF token too) and is replaced by a fresh id at sign-in, so an id planted before sign-in is
worthless afterwards. Sessions end at sign-out, after ``idle_seconds`` without a request, when their user is
erased, or when their credential no longer verifies (checked on every page through ``identity.AuthPath``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tiermem.server.auth import Principal

__all__ = ["COOKIE", "UISession", "UISessions"]

COOKIE = "tiermem_ui"


@dataclass(slots=True)
class UISession:
    """One browser's session: who signed in (None before sign-in) and the token every form must echo."""

    id: str
    csrf: str
    principal: Principal | None = None
    seen: float = field(default=0.0)
    # The credential signed in with, as an Authorization header: every page checks it again (a revoked key ends
    # the session within the credential cache's second). It stays in this process; the cookie holds only the id.
    credential: str | None = field(default=None, repr=False)

    def csrf_ok(self, given: str | None) -> bool:
        """The form's token is this session's (compared in constant time)."""
        return given is not None and hmac.compare_digest(given.encode(), self.csrf.encode())


class UISessions:
    """The sessions of this process, by id; cookies are signed with a per-process random key."""

    def __init__(self, *, idle_seconds: float = 8 * 3600, clock: Callable[[], float] = time.monotonic) -> None:
        self.idle_seconds = idle_seconds
        self._clock = clock
        self._key = secrets.token_bytes(32)
        self._sessions: dict[str, UISession] = {}
        self._lock = threading.Lock()

    def _sign(self, sid: str) -> str:
        return hmac.new(self._key, sid.encode(), hashlib.sha256).hexdigest()

    def cookie_value(self, session: UISession) -> str:
        """What the cookie carries: the id and its signature."""
        return f"{session.id}.{self._sign(session.id)}"

    def new(self, principal: Principal | None = None, credential: str | None = None) -> UISession:
        """A fresh session with its own CSRF token (signed in when ``principal`` and its ``credential`` are given)."""
        session = UISession(secrets.token_urlsafe(32), secrets.token_urlsafe(32), principal, self._clock(), credential)
        with self._lock:
            self._expire()
            self._sessions[session.id] = session
        return session

    def get(self, cookie: str | None) -> UISession | None:
        """The live session a cookie names; None for a missing, forged or expired one."""
        sid, _, signature = (cookie or "").partition(".")
        if not sid or not hmac.compare_digest(signature.encode(), self._sign(sid).encode()):
            return None
        with self._lock:
            session = self._sessions.get(sid)
            now = self._clock()
            if session is None or now - session.seen > self.idle_seconds:
                self._sessions.pop(sid, None)
                return None
            session.seen = now
            return session

    def end(self, session: UISession) -> None:
        """Sign out."""
        with self._lock:
            self._sessions.pop(session.id, None)

    def end_user(self, tenant: str, user: str | None) -> int:
        """End every session of a user (after an erase removed its keys); how many ended."""
        with self._lock:
            gone = [
                sid
                for sid, s in self._sessions.items()
                if s.principal is not None
                and s.principal.tenant == tenant
                and (user is None or s.principal.user == user)
            ]
            for sid in gone:
                del self._sessions[sid]
        return len(gone)

    def _expire(self) -> None:
        now = self._clock()
        for sid in [sid for sid, s in self._sessions.items() if now - s.seen > self.idle_seconds]:
            del self._sessions[sid]
