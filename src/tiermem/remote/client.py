"""RemoteMemory: the public methods of ``Memory`` over HTTP, returning the same values and raising the same errors.

The server takes tenant and user from the credential; a scope passed in must name that tenant, and that user
(or, with an admin credential, any user of the tenant), or the call is refused here with an AccessError before
anything is sent. Agent and session travel as query parameters. Audit entries record the credential as the
actor, whatever ``actor`` says. Not offered over HTTP: ``sweep``, ``restore``, ``consolidate`` and ``release``
(operator jobs: run them with the command line on the server's database, ``tiermem quarantine release``) and
erasing a whole tenant.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Any
from urllib.parse import quote

import httpx

from tiermem.errors import AccessError, StoreError, ValidationError
from tiermem.lifecycle.erase import EraseReport
from tiermem.memory_api import MemoryAPI
from tiermem.message import Message, ToolCall
from tiermem.recall.related import DEFAULT_LIMIT, Related, check_related
from tiermem.remote import decode
from tiermem.store.base import AuditEntry, Page, PendingWrite
from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, Scope, Source
from tiermem.write.conversation import CONTEXT_TURNS
from tiermem.write.path import NewMemory, WriteResult

__all__ = ["Identity", "RemoteMemory"]


@dataclass(frozen=True, slots=True)
class Identity:
    """What the server says the credential is."""

    tenant: str
    user: str | None
    role: str
    credential: str


def _time(value: datetime | None, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise ValidationError(field, "must be timezone-aware", given=str(value))
    return value.isoformat()


def _seconds(ttl: timedelta | float | None) -> float | None:
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, timedelta | int | float):
        raise ValidationError("ttl", "must be seconds or a timedelta", given=ttl)
    return ttl.total_seconds() if isinstance(ttl, timedelta) else float(ttl)


def _item(item: NewMemory) -> dict[str, Any]:
    return {
        "content": item.content,
        "type": MemoryType.parse(item.type).value,
        "source": str(Source.parse(item.source)),
        "tags": list(item.tags),
        "ttl": _seconds(item.ttl),
        "valid_from": _time(item.valid_from, "valid_from"),
        "metadata": dict(item.metadata),
        "supersedes": item.supersedes,
        "dedupe": item.dedupe,
        "context": item.context,
    }


def _filter(filter_: Filter | None) -> dict[str, Any]:
    f = filter_ or Filter()
    return {
        "types": sorted(t.value for t in f.types),
        "sources": sorted(s.value for s in f.sources),
        "tags": sorted(f.tags),
        "time_from": _time(f.time_from, "time_from"),
        "time_to": _time(f.time_to, "time_to"),
    }


def _id(value: str, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValidationError(field, "must be a non-empty string", given=value)
    return quote(value, safe="")


_MESSAGE_FIELDS = ("role", "content", "name", "created_at", "id", "tool_call_id", "tool_calls", "metadata")


def _message(raw: object, index: int) -> object:
    """A message as JSON: a mapping's keys as given, an object's set attributes; times in ISO 8601."""
    out: dict[str, Any]
    if isinstance(raw, Mapping):
        out = dict(raw)
    elif hasattr(raw, "role") and hasattr(raw, "content"):
        out = {key: getattr(raw, key) for key in _MESSAGE_FIELDS if getattr(raw, key, None) not in (None, (), {})}
    else:
        return raw  # the server names what is wrong with it
    role: Any = out.get("role")
    if isinstance(role, Enum):
        out["role"] = role.value
    calls = out.get("tool_calls")
    if isinstance(calls, list | tuple):  # the server refuses them by name; they must still be JSON to get there
        out["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            if isinstance(c, ToolCall)
            else c
            for c in calls
        ]
    created = out.get("created_at")
    if isinstance(created, datetime):
        out["created_at"] = _time(created, f"messages[{index}].created_at")
    return out


class RemoteMemory(MemoryAPI):
    """A tiermem server's memory, with the methods of the embedded ``Memory``."""

    def __init__(
        self, url: str, *, api_key: str, timeout: float = 30.0, transport: httpx.BaseTransport | None = None
    ) -> None:
        if not isinstance(api_key, str) or not api_key.strip():
            raise AccessError("a remote memory needs api_key: an API key or a JWT the server accepts")
        from tiermem import __version__

        self.url = url.rstrip("/")
        headers = {"Authorization": f"Bearer {api_key.strip()}", "User-Agent": f"tiermem/{__version__}"}
        self._http = httpx.Client(base_url=self.url, headers=headers, timeout=timeout, transport=transport)
        self._identity: Identity | None = None

    # -- plumbing -------------------------------------------------------------------------------------------

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise StoreError(f"cannot reach the tiermem server at {self.url}: {exc}") from exc
        if response.status_code >= 400:
            raise decode.error_from(response)
        return None if response.status_code == 204 or not response.content else response.json()

    @property
    def identity(self) -> Identity:
        """The tenant, user and role of the credential, as the server reads it (asked once)."""
        if self._identity is None:
            data = self._call("GET", "/v1/whoami")
            self._identity = Identity(data["tenant"], data["user"], data["role"], data["credential"])
        return self._identity

    def _tenant(self, tenant: str) -> Identity:
        me = self.identity
        if tenant != me.tenant:
            raise AccessError(f"scope tenant {tenant!r} is not the credential's tenant {me.tenant!r}")
        return me

    def _params(self, scope: Scope, *, session: bool = True) -> dict[str, str]:
        if not isinstance(scope, Scope):
            raise ValidationError("scope", "must be a Scope", given=type(scope).__name__)
        me = self._tenant(scope.tenant)
        params: dict[str, str] = {}
        if scope.user != me.user:
            if me.role != "admin" or scope.user is None:
                raise AccessError(
                    f"scope user {scope.user!r} is not the credential's user {me.user!r}"
                    + ("" if me.role == "admin" else " (only an admin credential may name another user)")
                )
            params["user"] = scope.user
        if scope.agent is not None:
            params["agent"] = scope.agent
        if scope.session is not None and session:
            params["session"] = scope.session
        return params

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    # -- the Memory methods -----------------------------------------------------------------------------------

    def remember_many(self, scope: Scope, items: Iterable[NewMemory]) -> list[WriteResult]:
        """Store many memories in one request, all or nothing (the server may cap the batch size)."""
        body = {"items": [_item(i) for i in items]}
        if not body["items"]:
            return []
        if len(body["items"]) == 1:  # one memory: the route made fast for it
            one = self._call("POST", "/v1/memories", params=self._params(scope), json=body["items"][0])
            return [decode.write_result(one)]
        data = self._call("POST", "/v1/memories/batch", params=self._params(scope), json=body)
        return [decode.write_result(r) for r in data["results"]]

    def remember_messages(
        self,
        scope: Scope,
        messages: Iterable[Mapping[str, Any] | Message],
        *,
        session: str | None = None,
        context_turns: int = CONTEXT_TURNS,
    ) -> builtins.list[WriteResult]:
        """Store a conversation's messages (see ``Memory.remember_messages``); over HTTP a session is required."""
        if isinstance(messages, str | bytes | Mapping) or not hasattr(messages, "__iter__"):
            raise ValidationError("messages", "must be a list of messages", given=type(messages).__name__)
        params = self._params(scope, session=False)
        if session is not None and scope.session is not None and session != scope.session:
            raise ValidationError("session", f"differs from the scope's session '{scope.session}'", given=session)
        session = session if session is not None else scope.session
        if session is None:
            raise ValidationError("session", "a transcript sent to a server names its session", given=None)
        body = {"messages": [_message(m, i) for i, m in enumerate(messages)], "context_turns": context_turns}
        if not body["messages"]:
            return []
        path = f"/v1/sessions/{_id(session, 'session')}/transcript"
        return [decode.write_result(r) for r in self._call("POST", path, params=params, json=body)["results"]]

    def _search(
        self, scope: Scope, query: str, k: int, filter_: Filter, now: datetime | None, include_quarantined: bool
    ) -> list[Hit]:
        body = {
            "query": query,
            "k": k,
            "filter": _filter(filter_),
            "as_of": _time(filter_.as_of, "as_of"),
            "now": _time(now, "now"),
            "include_quarantined": include_quarantined,
        }
        data = self._call("POST", "/v1/memories/search", params=self._params(scope), json=body)
        return [decode.hit(h) for h in data["hits"]]

    def get(self, scope: Scope, record_id: str) -> MemoryRecord:
        """One record; NotFoundError when it is not in the scope."""
        path = f"/v1/memories/{_id(record_id, 'record_id')}"
        return decode.record(self._call("GET", path, params=self._params(scope)))

    def list(self, scope: Scope, *, filter: Filter | None = None, limit: int = 50, cursor: str | None = None) -> Page:
        """A page of live records, newest first."""
        f = filter or Filter()
        params: dict[str, Any] = {**self._params(scope), "limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        params["type"] = sorted(t.value for t in f.types)
        params["source"] = sorted(s.value for s in f.sources)
        params["tag"] = sorted(f.tags)
        for name in ("time_from", "time_to", "as_of"):
            if getattr(f, name) is not None:
                params[name] = _time(getattr(f, name), name)
        return decode.page(self._call("GET", "/v1/memories", params=params))

    def related(self, scope: Scope, entity: str, *, limit: int = DEFAULT_LIMIT) -> Related:
        """The records around a named person, place or thing and how they connect; the names occurring with it."""
        entity = check_related(entity, limit)
        params = {**self._params(scope), "entity": entity, "limit": limit}
        return decode.related(self._call("GET", "/v1/related", params=params))

    def forget(self, scope: Scope, record_id: str, *, scrub_file: bool = False) -> None:
        """Delete one record; NotFoundError if absent."""
        params = {**self._params(scope), "scrub_file": str(scrub_file).lower()}
        self._call("DELETE", f"/v1/memories/{_id(record_id, 'record_id')}", params=params)

    def history(self, scope: Scope, record_id: str) -> builtins.list[MemoryRecord]:
        """The supersession chain through a record, oldest first."""
        data = self._call("GET", f"/v1/memories/{_id(record_id, 'record_id')}/history", params=self._params(scope))
        return [decode.record(r) for r in data["records"]]

    def audit(self, scope: Scope, record_id: str | None = None) -> builtins.list[AuditEntry]:
        """Every recorded change in the scope (or to one record), oldest first."""
        params = self._params(scope)
        if record_id is not None:
            params["record_id"] = record_id
        return [decode.audit_entry(e) for e in self._call("GET", "/v1/audit", params=params)["entries"]]

    def rollback(self, scope: Scope, record_id: str, version: int, *, actor: str = "user") -> MemoryRecord:
        """Restore a record as it was at ``version``; the server records the credential as the actor."""
        path = f"/v1/memories/{_id(record_id, 'record_id')}/rollback"
        return decode.record(self._call("POST", path, params=self._params(scope), json={"version": version}))

    def pending(self, scope: Scope) -> builtins.list[PendingWrite]:
        """Writes held for approval."""
        return [decode.pending(p) for p in self._call("GET", "/v1/pending", params=self._params(scope))["pending"]]

    def approve(self, scope: Scope, pending_id: str, *, actor: str = "operator") -> WriteResult:
        """Store a held write; the server records the credential as its approver."""
        path = f"/v1/pending/{_id(pending_id, 'pending_id')}/approve"
        return decode.write_result(self._call("POST", path, params=self._params(scope)))

    def reject(self, scope: Scope, pending_id: str) -> None:
        """Drop a held write."""
        self._call("POST", f"/v1/pending/{_id(pending_id, 'pending_id')}/reject", params=self._params(scope))

    def export(self, scope: Scope) -> dict[str, Any]:
        """Everything held about the scope's user (needs an admin credential of the tenant)."""
        me = self._tenant(scope.tenant)
        if scope.user is None:
            raise ValidationError("scope.user", "an export over HTTP names a user", given=None)
        if me.role != "admin":
            raise AccessError("export needs an admin credential")
        data: dict[str, Any] = self._call("GET", f"/v1/admin/users/{_id(scope.user, 'user')}/export")
        return data

    def erase(self, tenant: str, user: str | None = None, *, actor: str = "system") -> EraseReport:
        """Remove every trace of a user of the credential's tenant (admin; the server records who erased)."""
        me = self._tenant(tenant)
        if user is None:
            raise AccessError("erasing a whole tenant is not offered over HTTP: run `tiermem erase` on the server")
        if me.role != "admin":
            raise AccessError("erase needs an admin credential")
        return decode.erase_report(self._call("DELETE", f"/v1/admin/users/{_id(user, 'user')}"))
