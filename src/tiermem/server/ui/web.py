"""(internal) What every inspector page shares: templates, security headers, the session, CSRF and errors.

Every page is rendered by Jinja2 with autoescaping on, so a memory's text is always data. Every response under
``/ui`` carries a Content-Security-Policy without 'unsafe-inline' (scripts and styles come from /ui/static
only), and refuses framing. Every POST goes through ``Form`` and ``checked``: a form without this session's
CSRF token is a 403 before the route runs. A status message after a change comes from ``NOTICES`` by the code
the route redirects with (``?done=saved``): text in a URL is never shown, so nobody can make the inspector say
something by sending a link.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tiermem.errors import AccessError, MemError, NotFoundError
from tiermem.server.auth import Principal
from tiermem.server.problems import public_detail, status_for
from tiermem.server.runtime import Runtime
from tiermem.server.ui.session import COOKIE, LOGIN_COOKIE, UISession, UISessions
from tiermem.server.ui.text import clip, hidden_characters, visible
from tiermem.store.access_base import KeyRole
from tiermem.types import Scope as MemScope

__all__ = [
    "CSP",
    "NOTICES",
    "Form",
    "LoginForm",
    "Page",
    "Posted",
    "SecurityHeaders",
    "UIRoute",
    "Viewer",
    "error_page",
    "render",
]

HERE = Path(__file__).parent
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'"
)
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]

templates = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
templates.globals.update(visible=visible, clip=clip, hidden_characters=hidden_characters)

NOTICES = {
    "saved": "Saved as a new version.",
    "rolled-back": "Rolled back: the version you chose is restored as the newest version.",
    "released": "Released.",
    "deleted": "Deleted.",
    "approved": "Approved and stored.",
    "rejected": "Rejected.",
    "block-saved": "Core block saved as a new version.",
    "nothing-chosen": "Nothing was chosen: tick at least one item first.",
}
"""What ``?done=<code>`` shows; any other code shows nothing."""


class SecurityHeaders:
    """ASGI middleware: the CSP and friends on every response under /ui."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith("/ui"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def sessions(request: Request) -> UISessions:
    """The process's inspector sessions."""
    found: UISessions = request.app.state.ui_sessions
    return found


def runtime(request: Request) -> Runtime:
    """The process's runtime."""
    found: Runtime = request.app.state.runtime
    return found


def set_cookie(request: Request, response: Response, session: UISession) -> None:
    """The session cookie: HttpOnly, SameSite=Strict, Secure over https, scoped to /ui."""
    response.set_cookie(
        COOKIE,
        sessions(request).cookie_value(session),
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/ui",
    )


def set_login_cookie(request: Request, response: Response, value: str) -> None:
    """The sign-in form's cookie: like the session's, but sent to /ui/login only."""
    response.set_cookie(
        LOGIN_COOKIE, value, httponly=True, samesite="strict", secure=request.url.scheme == "https", path="/ui/login"
    )


class SignInRequired(Exception):
    """No signed-in session: the route answers with a redirect to the sign-in page."""


class CSRFRefused(Exception):
    """A POST without this session's CSRF token."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """The signed-in caller of a page, the session and the user it is looking at."""

    session: UISession
    principal: Principal
    user: str | None  # whose memory the page shows

    @property
    def admin(self) -> bool:
        """An admin of its tenant."""
        return self.principal.role is KeyRole.ADMIN

    @property
    def scope(self) -> MemScope:
        """The (tenant, user) the page acts on."""
        return MemScope(self.principal.tenant, self.user)

    @property
    def csrf(self) -> str:
        """The token forms echo."""
        return self.session.csrf


def viewer(request: Request) -> Viewer:
    """The signed-in viewer; ``user`` from the query or form is honoured for admins only (others: 404)."""
    session = sessions(request).get(request.cookies.get(COOKIE))
    if session is None:
        raise SignInRequired()
    auth = runtime(request).auth
    try:  # the credential is checked again, as the API checks it on every request: revoked means signed out
        principal = auth.verify(session.credential, request.client.host if request.client else None)
    except AccessError:
        sessions(request).end(session)
        raise SignInRequired() from None
    session.principal = principal
    request.state.credential = principal.credential  # for the request's log line, as the API's routes do
    auth.admit(principal)  # the credential's rate covers its browser session too
    wanted = request.query_params.get("user") or None
    if wanted is not None and wanted != principal.user and principal.role is not KeyRole.ADMIN:
        raise NotFoundError(f"no user {wanted}")  # a user never learns whether another user exists
    return Viewer(session, principal, wanted if wanted is not None else principal.user)


Page = Annotated[Viewer, Depends(viewer)]


class Posted(dict[str, str]):
    """A POSTed form: the last value of each field, and ``every`` value of a field that repeats (checkboxes)."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        super().__init__(pairs)
        self._pairs = pairs

    def every(self, name: str) -> list[str]:
        """Each value given for ``name``, in order."""
        return [v for k, v in self._pairs if k == name]


async def checked(request: Request) -> Posted:
    """The POSTed form, after its CSRF token matched the session's (CSRFRefused otherwise)."""
    form = await request.form()
    session = sessions(request).get(request.cookies.get(COOKIE))
    token = form.get("csrf")
    if session is None or not session.csrf_ok(token if isinstance(token, str) else None):
        raise CSRFRefused()
    return Posted([(k, v) for k, v in form.multi_items() if isinstance(v, str)])


Form = Annotated[Posted, Depends(checked)]


async def login_checked(request: Request) -> dict[str, str]:
    """The POSTed sign-in form, after its CSRF token matched its sign-in cookie (CSRFRefused otherwise)."""
    form = await request.form()
    token = form.get("csrf")
    if not sessions(request).login_ok(request.cookies.get(LOGIN_COOKIE), token if isinstance(token, str) else None):
        raise CSRFRefused()
    return {k: v for k, v in form.items() if isinstance(v, str)}


LoginForm = Annotated[dict[str, str], Depends(login_checked)]


def render(request: Request, template: str, status: int = 200, /, **context: Any) -> HTMLResponse:
    """A page; ``view`` (if any) gives the navigation its user and the forms their token; ``?done=`` a notice."""
    notice = NOTICES.get(request.query_params.get("done") or "")
    html = templates.get_template(template).render(request=request, notice=notice, **context)
    return HTMLResponse(html, status_code=status)


def error_page(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    """An error page: the message once, and the navigation when the browser is signed in."""
    session = sessions(request).get(request.cookies.get(COOKIE))
    view = Viewer(session, session.principal, session.principal.user) if session is not None else None
    return render(request, "error.html", status, title=title, error=message, view=view, users=[], path="")


class UIRoute(APIRoute):
    """A route that answers errors with an HTML page (and sign-in with a redirect) instead of problem+json."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        inner = super().get_route_handler()

        async def handler(request: Request) -> Response:
            try:
                return await inner(request)
            except SignInRequired:
                return RedirectResponse("/ui/login", status_code=303)
            except CSRFRefused:
                message = "The form's CSRF token is missing or not this session's. Reload the page and try again."
                return error_page(request, 403, "Refused", message)
            except MemError as exc:
                status = status_for(exc)
                message = "Not found." if status == 404 else public_detail(request, exc, status)
                return error_page(request, status, f"Error {status}", message)

        return handler
