"""(internal) Idempotent retries: a ``POST /v1/...`` with an ``Idempotency-Key`` header is answered once per key.

A client that lost an answer (a timeout, a dropped connection, a server restarted mid-request) sends the request
again with the same key and gets the first answer, with ``Idempotent-Replayed: true``, and nothing is written
twice. The answer is kept in the store (``AccessStore.claim_request``), so every worker process and a restarted
server know it, for ``ANSWERS_KEPT`` (a day) after it was first sent; a sweep deletes it then, and forgetting a
record it quotes deletes it at once (a retry then runs again). It is filed under the (tenant, user) the request
acts on, as ``auth.scope_for`` decides it before anything is replayed (a user named with ``?user=`` is the
credential's only if it is an admin's), so erasing that user removes it; and it belongs to the credential and role
that sent it: the same key from another user is another key, and from another credential acting on the same
memory a 422.

- The same key with another method, path, query or body is refused (422): a key names one request. A key
  another credential used is refused alike, whether or not its request matches, so nothing of it is learnt.
- While the first request runs, a retry gets 409 with ``Retry-After``; if it never answered (its process died),
  a retry ``STALE`` later runs it again.
- Only a success (2xx) is kept: after a refusal or a failure the key is released, and a retry runs again. A
  success is never released: if its answer cannot be kept (the database went away meanwhile), its key stays
  claimed and a retry waits ``STALE`` rather than write twice.
- When the key cannot be checked (the database is away), the answer is 503 with ``Retry-After``.

Requests without the header, and every other method and path, pass through untouched.
"""

from __future__ import annotations

import hashlib
import logging
import re
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, QueryParams
from starlette.requests import Request

from tiermem.errors import MemError, ValidationError
from tiermem.server.auth import scope_for
from tiermem.server.limits import ASGIApp, Message, Receive, Scope, Send, replay
from tiermem.server.problems import problem, problem_for
from tiermem.server.runtime import Runtime
from tiermem.store.access_base import ANSWERS_KEPT, ClaimState
from tiermem.types import utcnow

__all__ = ["HEADER", "STALE", "Idempotent"]

HEADER = "idempotency-key"
STALE = timedelta(minutes=5)  # longer than any request runs (a chat turn's model calls included)
_KEY = re.compile(r"[\x21-\x7e]{1,255}")
_log = logging.getLogger("tiermem.server")


class Idempotent:
    """ASGI middleware (inside the body limit): runs a keyed POST once and replays its answer to retries."""

    def __init__(self, app: ASGIApp, owner: FastAPI) -> None:
        self.app = app
        self.owner = owner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope) if scope["type"] == "http" else None
        key = headers.get(HEADER) if headers is not None and scope["method"] == "POST" else None
        if key is None or headers is None or not str(scope["path"]).startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if not _KEY.fullmatch(key):
            detail = "Idempotency-Key: must be 1 to 255 visible ASCII characters"
            await problem(400, detail, request=request, field="Idempotency-Key", given=key[:300])(scope, receive, send)
            return
        body = await _body(receive)
        if body is None:
            return
        runtime: Runtime = self.owner.state.runtime
        client = scope.get("client")
        header = headers.get("authorization")
        query = scope.get("query_string", b"")
        # A run's route admits it (its rate); an answer given here spends a token here. A refusal is answered
        # here, so it counts once against the client; so is a store that could not check the credential (the
        # database is away: 503, retry later), and a user the credential may not name (403, as the route says).
        try:
            principal = await runtime.auth.verified(header, client[0] if client else None)
            acting = scope_for(runtime.access, principal, user=QueryParams(query).get("user") or None)
        except ValidationError:  # a malformed user: the route refuses it, and a refusal keeps nothing
            await self.app(scope, replay(body, receive), send)
            return
        except MemError as exc:
            await (await problem_for(request, exc))(scope, receive, send)
            return
        fingerprint = hashlib.sha256(b"\0".join([b"POST", str(scope["path"]).encode(), query, body])).hexdigest()
        now = utcnow()
        try:
            claim = await run_in_threadpool(
                runtime.access.claim_request,
                acting.tenant,
                acting.user,
                key,
                fingerprint,
                caller=f"{principal.credential} {principal.role.value}",
                at=now,
                stale_before=now - STALE,
                expired_before=now - ANSWERS_KEPT,
            )
            if claim.state is not ClaimState.NEW:
                runtime.auth.admit(principal)
        except MemError as exc:
            await (await problem_for(request, exc))(scope, receive, send)
            return
        if claim.state is ClaimState.MISMATCH:
            detail = (
                "Idempotency-Key: was used for another request (credential, method, path, query or body);"
                " use a new key for this one"
            )
            await problem(422, detail, request=request, field="Idempotency-Key", given=key)(scope, receive, send)
        elif claim.state is ClaimState.RUNNING:
            detail = "Idempotency-Key: the first request with this key is still running; retry in a moment"
            answer = problem(409, detail, request=request, headers={"Retry-After": "1"}, field="Idempotency-Key")
            await answer(scope, receive, send)
        elif claim.state is ClaimState.DONE:
            await _send(send, claim.status or 200, claim.body or b"", claim.media_type)
        else:
            await self._first(scope, body, receive, send, runtime, (acting.tenant, acting.user, key))

    async def _first(
        self, scope: Scope, body: bytes, receive: Receive, send: Send, runtime: Runtime, who: tuple[str, Any, str]
    ) -> None:
        """Run the request, pass its answer on, and keep it if it succeeded (else release the key)."""
        answer: dict[str, Any] = {"status": 0, "media_type": None, "chunks": []}

        async def recording(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = int(message["status"])
                answer["media_type"] = Headers(raw=message.get("headers", [])).get("content-type")
            elif message["type"] == "http.response.body":
                answer["chunks"].append(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, replay(body, receive), recording)
        finally:
            if 200 <= answer["status"] < 300:
                await _keep(runtime, who, answer["status"], b"".join(answer["chunks"]), answer["media_type"])
            else:
                try:
                    await run_in_threadpool(runtime.access.release_request, *who)
                except MemError as exc:  # the database went away: a retry takes the key over ``STALE`` later
                    _log.warning("idempotency key %r not released: %s", who[2], exc)


async def _keep(runtime: Runtime, who: tuple[str, Any, str], status: int, body: bytes, media_type: str | None) -> None:
    """Keep a success's answer; never release its key, since its write is done: a store that fails (a dropped
    connection) is tried once more, then logged, and a retry waits ``STALE`` before running it again."""
    for attempt in range(2):
        try:
            await run_in_threadpool(
                runtime.access.finish_request, *who, status=status, body=body, media_type=media_type
            )
            return
        except MemError as exc:
            if attempt:
                _log.warning("idempotency key %r: its answer was not kept: %s", who[2], exc)


async def _body(receive: Receive) -> bytes | None:
    """The whole request body (the body limit outside has bounded it); None when the client went away."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _send(send: Send, status: int, body: bytes, media_type: str | None) -> None:
    headers = [(b"content-length", str(len(body)).encode()), (b"idempotent-replayed", b"true")]
    if media_type:
        headers.append((b"content-type", media_type.encode("latin-1")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
