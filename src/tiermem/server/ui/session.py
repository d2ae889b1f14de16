"""(internal) The inspector's server-side sessions: a signed random id in an HttpOnly cookie, a CSRF token each.

The cookie holds only ``<id>.<hmac>``; the principal lives in this process. Only a signed-in browser has a
session here: the sign-in form's CSRF token is derived from a random nonce in a cookie of its own (signed, sent
only to /ui/login), so loading the sign-in page stores nothing, however often it is loaded, and it never
replaces the cookie of a session already signed in (a link from another site lands there without that cookie,
SameSite=Strict). Signing in starts a fresh session id, so an id planted before is worthless. Sessions end at
sign-out, after ``idle_seconds`` without a request, when their user is erased, when their credential no longer
verifies (checked on every page through ``identity.AuthPath``), or, past ``max_sessions``, the one idle longest
first.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from tiermem.server.auth import Principal

__all__ = ["COOKIE", "LOGIN_COOKIE", "MAX_SESSIONS", "UISession", "UISessions"]

COOKIE = "tiermem_ui"
LOGIN_COOKIE = "tiermem_ui_login"
MAX_SESSIONS = 10_000


@dataclass(slots=True)
class UISession:
    """One signed-in browser's session: who signed in and the token every form must echo."""

    id: str
    csrf: str
    principal: Principal
    seen: float = field(default=0.0)
    # The credential signed in with, as an Authorization header: every page checks it again (a revoked key ends
    # the session within the credential cache's second). It stays in this process; the cookie holds only the id.
    credential: str | None = field(default=None, repr=False)

    def csrf_ok(self, given: str | None) -> bool:
        """The form's token is this session's (compared in constant time)."""
        return given is not None and hmac.compare_digest(given.encode(), self.csrf.encode())


class UISessions:
    """The sessions of this process, by id; cookies are signed with a per-process random key."""

    def __init__(
        self,
        *,
        idle_seconds: float = 8 * 3600,
        max_sessions: int = MAX_SESSIONS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.idle_seconds = idle_seconds
        self.max_sessions = max_sessions
        self._clock = clock
        self._key = secrets.token_bytes(32)
        self._sessions: OrderedDict[str, UISession] = OrderedDict()  # least recently seen first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def _sign(self, text: str) -> str:
        return hmac.new(self._key, text.encode(), hashlib.sha256).hexdigest()

    def _signed(self, cookie: str | None, kind: str) -> str | None:
        """The value a cookie of ``kind`` carries when its signature is ours; None otherwise."""
        value, _, signature = (cookie or "").partition(".")
        if not value or not hmac.compare_digest(signature.encode(), self._sign(f"{kind}\0{value}").encode()):
            return None
        return value

    def cookie_value(self, session: UISession) -> str:
        """What the session cookie carries: the id and its signature."""
        return f"{session.id}.{self._sign('session' + chr(0) + session.id)}"

    def new(self, principal: Principal, credential: str | None = None) -> UISession:
        """A fresh signed-in session with its own CSRF token, and the credential every page checks again."""
        session = UISession(secrets.token_urlsafe(32), secrets.token_urlsafe(32), principal, self._clock(), credential)
        with self._lock:
            self._expire()
            self._sessions[session.id] = session
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
        return session

    def get(self, cookie: str | None) -> UISession | None:
        """The live session a cookie names; None for a missing, forged or expired one."""
        sid = self._signed(cookie, "session")
        if sid is None:
            return None
        with self._lock:
            session = self._sessions.get(sid)
            now = self._clock()
            if session is None or now - session.seen > self.idle_seconds:
                self._sessions.pop(sid, None)
                return None
            session.seen = now
            self._sessions.move_to_end(sid)
            return session

    def login_form(self, cookie: str | None) -> tuple[str, str]:
        """The sign-in cookie (the one given, if ours) and the CSRF token its form carries; nothing is stored."""
        nonce = self._signed(cookie, "login") or secrets.token_urlsafe(24)
        return f"{nonce}.{self._sign('login' + chr(0) + nonce)}", self._sign("csrf" + chr(0) + nonce)

    def login_ok(self, cookie: str | None, given: str | None) -> bool:
        """The sign-in form's token belongs to its cookie (compared in constant time)."""
        nonce = self._signed(cookie, "login")
        if nonce is None or given is None:
            return False
        return hmac.compare_digest(given.encode(), self._sign("csrf" + chr(0) + nonce).encode())

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
                if s.principal.tenant == tenant and (user is None or s.principal.user == user)
            ]
            for sid in gone:
                del self._sessions[sid]
        return len(gone)

    def _expire(self) -> None:
        now = self._clock()  # least recently seen first: the idle ones are at the front
        while self._sessions and now - next(iter(self._sessions.values())).seen > self.idle_seconds:
            self._sessions.popitem(last=False)
