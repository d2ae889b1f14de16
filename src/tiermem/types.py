"""Pure values: scopes, memory types, sources, records, hits and filters."""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from tiermem.errors import ScopeError, ValidationError

__all__ = [
    "MAX_SCOPE_PART",
    "Filter",
    "Hit",
    "MemoryRecord",
    "MemoryType",
    "Scope",
    "ScorePart",
    "Source",
    "SourceKind",
    "content_hash",
    "new_id",
    "normalise_text",
    "utcnow",
]

MAX_SCOPE_PART = 128
# Letters and digits of any script (a user may be "jürgen" or "李明") and a few safe punctuation marks; no '/',
# ':' or whitespace so a joined key cannot collide. NFC only: a letter and its accent as two code points would
# let two spellings of one name be two scopes.
_SCOPE_PART = re.compile(r"[^\W_][\w.@+\-]*")
_TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@+\-]{0,63}")
MetaValue = str | int | float | bool | None


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def iso_time(field: str, value: str, problem: str) -> datetime:
    """``value`` read as an ISO 8601 time (naive or aware); a ValidationError naming ``field`` with ``problem``."""
    try:
        parsed: datetime | None = datetime.fromisoformat(value)
    except ValueError:  # raised below, outside the handler: its error quotes the value and must not be the context
        parsed = None
    if parsed is None:
        raise ValidationError(field, problem, given=value)
    return parsed


def aware_time(field: str, value: str) -> datetime:
    """``value`` read as an ISO 8601 time with a UTC offset; a ValidationError naming ``field`` otherwise."""
    parsed = iso_time(field, value, "must be an ISO 8601 time, e.g. 2026-01-31T09:00:00+00:00")
    if parsed.tzinfo is None:
        raise ValidationError(field, "must include a timezone offset (e.g. +00:00 or Z)", given=value)
    return parsed


def new_id() -> str:
    """A new record id: time-ordered (UUIDv7 layout) so ids sort by creation."""
    ms = int(utcnow().timestamp() * 1000)
    rand = uuid.uuid4().int & ((1 << 74) - 1)
    value = (ms << 80) | (0x7 << 76) | ((rand >> 62) << 64) | (0b10 << 62) | (rand & ((1 << 62) - 1))
    return str(uuid.UUID(int=value))


def normalise_text(text: str) -> str:
    """NFC, unified whitespace, stripped: the form that is stored and hashed."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def content_hash(text: str) -> str:
    """sha256 of the case-folded normalised text: equal for re-ingests of the same note."""
    return hashlib.sha256(normalise_text(text).casefold().encode("utf-8")).hexdigest()


def _check_part(name: str, value: str | None, *, required: bool) -> None:
    if value is None:
        if required:
            raise ScopeError(name, "is required", given=value)
        return
    if not isinstance(value, str):
        raise ScopeError(name, "must be a string", given=value)
    if not value:
        raise ScopeError(name, "must not be empty", given=value)
    if len(value) > MAX_SCOPE_PART:
        raise ScopeError(name, "is too long", given=f"{len(value)} characters", limit=MAX_SCOPE_PART)
    if not _SCOPE_PART.fullmatch(value) or not unicodedata.is_normalized("NFC", value):
        raise ScopeError(
            name,
            "may hold only letters and digits (of any script, NFC-normalised) and _ . @ + - (and must start with"
            " a letter or digit)",
            given=value,
        )


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose memory a record is: tenant, user (None = shared by the tenant), optional agent and session."""

    tenant: str
    user: str | None
    agent: str | None = None
    session: str | None = None

    def __post_init__(self) -> None:
        _check_part("tenant", self.tenant, required=True)
        _check_part("user", self.user, required=False)
        _check_part("agent", self.agent, required=False)
        _check_part("session", self.session, required=False)

    @property
    def key(self) -> str:
        """A collision-free string key ('/' cannot occur inside a part)."""
        return "/".join(p or "" for p in (self.tenant, self.user, self.agent, self.session))

    def __str__(self) -> str:
        return self.key


class MemoryType(StrEnum):
    """What kind of memory a record is; each has its own lifecycle."""

    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"

    @classmethod
    def parse(cls, value: str | MemoryType) -> MemoryType:
        """The type named by ``value``, or a ValidationError listing the choices."""
        try:
            return cls(value)
        except ValueError:  # raised below, outside the handler: its error quotes the value and must not be the context
            pass
        raise ValidationError("type", f"must be one of {', '.join(m.value for m in cls)}", given=value)


class SourceKind(StrEnum):
    """Where a note came from; decides its trust."""

    SYSTEM = "system"
    USER = "user"
    AGENT = "agent"
    IMPORT = "import"
    TOOL = "tool"
    WEB = "web"


# Trust in [0, 1]: first-party speech outranks what a tool or a web page said.
_TRUST = {
    SourceKind.SYSTEM: 1.0,
    SourceKind.USER: 0.9,
    SourceKind.AGENT: 0.7,
    SourceKind.IMPORT: 0.6,
    SourceKind.TOOL: 0.4,
    SourceKind.WEB: 0.3,
}
_NEEDS_DETAIL = {SourceKind.TOOL, SourceKind.WEB, SourceKind.IMPORT}
# A person may be named: in a group chat or a transcript, ``user:Ann`` is what Ann said (OpenAI's message ``name``).
_MAY_NAME = {SourceKind.USER, SourceKind.AGENT}
MAX_SOURCE_DETAIL = 2048
_NAME_PART = {k: ":<name>" for k in _NEEDS_DETAIL} | {k: "[:<name>]" for k in _MAY_NAME}


@dataclass(frozen=True, slots=True)
class Source:
    """Provenance: ``user[:<name>]``, ``agent[:<name>]``, ``system``, ``tool:<name>``, ``web:<url>``, ``import:<n>``."""

    kind: SourceKind
    detail: str | None = None

    def __post_init__(self) -> None:
        if self.kind in _NEEDS_DETAIL and not self.detail:
            raise ValidationError("source", f"'{self.kind.value}' needs a name: '{self.kind.value}:<name>'")
        if self.kind not in _NEEDS_DETAIL | _MAY_NAME and self.detail:
            raise ValidationError("source", f"'{self.kind.value}' takes no ':<name>' part", given=str(self))
        if self.detail is not None and not self.detail.strip():
            raise ValidationError("source", "the name after ':' is empty", given=str(self))
        if self.detail is not None and len(self.detail) > MAX_SOURCE_DETAIL:
            raise ValidationError("source", "name is too long", given=len(self.detail), limit=MAX_SOURCE_DETAIL)

    @classmethod
    def parse(cls, text: str | Source) -> Source:
        """Parse ``kind[:detail]``; unknown kinds are a ValidationError listing the choices."""
        if isinstance(text, Source):
            return text
        if not isinstance(text, str) or not text:
            raise ValidationError("source", "must be a non-empty string", given=text)
        kind_text, sep, detail = text.partition(":")
        try:
            kind: SourceKind | None = SourceKind(kind_text)
        except ValueError:  # raised below, outside the handler: its error quotes the value and must not be the context
            kind = None
        if kind is not None:
            return cls(kind, detail if sep else None)
        choices = ", ".join(k.value + _NAME_PART.get(k, "") for k in SourceKind)
        raise ValidationError("source", f"must be one of {choices}", given=text)

    @property
    def trust(self) -> float:
        """Trust level in [0, 1] derived from the kind."""
        return _TRUST[self.kind]

    @property
    def speaker(self) -> str | None:
        """The named person who said it (``user:Ann`` → ``Ann``), if any."""
        return self.detail if self.kind in _MAY_NAME else None

    @property
    def untrusted(self) -> bool:
        """True for third-party text (tools, web pages)."""
        return self.kind in (SourceKind.TOOL, SourceKind.WEB)

    def __str__(self) -> str:
        return self.kind.value if self.detail is None else f"{self.kind.value}:{self.detail}"


def check_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Validated, de-duplicated, sorted tags."""
    out = set()
    for tag in tags:
        if not isinstance(tag, str) or not _TAG.fullmatch(tag):
            raise ValidationError(
                "tags", "each tag is 1-64 letters, digits or _ . : @ + - starting with a letter or digit", given=tag
            )
        out.add(tag)
    if len(out) > 32:
        raise ValidationError("tags", "too many tags", given=len(out), limit=32)
    return tuple(sorted(out))


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One stored memory with its full provenance and lifecycle metadata."""

    id: str
    scope: Scope
    type: MemoryType
    content: str
    source: Source
    trust: float
    created_at: datetime
    valid_from: datetime
    content_hash: str
    updated_at: datetime | None = None
    valid_to: datetime | None = None
    expires_at: datetime | None = None
    embedding_model: str | None = None
    tags: tuple[str, ...] = ()
    supersedes: str | None = None
    metadata: Mapping[str, MetaValue] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    version: int = 1
    context: str | None = None  # helps find the record (full-text indexed), never returned as its content

    def is_live(self, at: datetime) -> bool:
        """Valid and not expired at ``at``."""
        if self.valid_from > at:
            return False
        if self.valid_to is not None and self.valid_to <= at:
            return False
        return self.expires_at is None or self.expires_at > at

    def to_dict(self) -> dict[str, Any]:
        """The fields ``to_json`` gives, times still datetimes (for a serialiser that writes them itself)."""
        scope = self.scope
        return {
            "id": self.id,
            "tenant": scope.tenant,
            "user": scope.user,
            "agent": scope.agent,
            "session": scope.session,
            "type": self.type.value,
            "content": self.content,
            "source": str(self.source),
            "trust": self.trust,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "expires_at": self.expires_at,
            "content_hash": self.content_hash,
            "embedding_model": self.embedding_model,
            "tags": list(self.tags),
            "supersedes": self.supersedes,
            "metadata": dict(self.metadata),
            "version": self.version,
            "context": self.context,
        }

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (times as ISO 8601)."""
        fields = self.to_dict()
        for name in _TIME_FIELDS:
            moment = fields[name]
            if moment is not None:
                fields[name] = moment.isoformat()
        return fields


_TIME_FIELDS = ("created_at", "updated_at", "valid_from", "valid_to", "expires_at")


@dataclass(frozen=True, slots=True)
class ScorePart:
    """How one retrieval signal contributed to a hit."""

    name: str
    rank: int | None
    raw: float | None
    contribution: float


@dataclass(frozen=True, slots=True)
class Hit:
    """A recalled record, its final score and the parts that made it.

    ``score`` orders the hits of one search; ``relevance`` (0-1, see ``recall.relevance``) says whether a hit
    answers the query at all, on a scale that means the same across searches (None: not computed).
    """

    record: MemoryRecord
    score: float
    parts: tuple[ScorePart, ...]
    flags: tuple[str, ...] = ()
    relevance: float | None = None

    def part(self, name: str) -> ScorePart | None:
        """The named score part, if present."""
        return next((p for p in self.parts if p.name == name), None)


@dataclass(frozen=True, slots=True)
class Filter:
    """Narrows recall and list: all given conditions must hold (tags: any of them)."""

    types: frozenset[MemoryType] = frozenset()
    sources: frozenset[SourceKind] = frozenset()
    tags: frozenset[str] = frozenset()
    time_from: datetime | None = None
    time_to: datetime | None = None
    as_of: datetime | None = None
    # Internal, set only by ``including_closed``: also records whose validity a newer record closed (recall
    # credits their match to that record). Not a constructor argument, and ``replace`` resets it.
    with_closed: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("time_from", "time_to", "as_of"):
            value = getattr(self, name)
            if value is not None and value.tzinfo is None:
                raise ValidationError(name, "must be timezone-aware", given=value.isoformat())
        if self.time_from and self.time_to and self.time_from > self.time_to:
            raise ValidationError("time_from", "must not be after time_to", given=f"{self.time_from} > {self.time_to}")

    def admits(self, record: MemoryRecord) -> bool:
        """``record`` meets the type, source, tag and time conditions (validity: the caller's, by ``as_of``)."""
        # The reference meaning of a filter; stores translate it to SQL and to index masks.
        return (
            (not self.types or record.type in self.types)
            and (not self.sources or record.source.kind in self.sources)
            and (not self.tags or bool(self.tags.intersection(record.tags)))
            and (self.time_from is None or record.valid_from >= self.time_from)
            and (self.time_to is None or record.valid_from <= self.time_to)
        )


def including_closed(filter_: Filter) -> Filter:
    """``filter_`` that also admits records a newer one closed (internal: for recall and store tests)."""
    out = replace(filter_)
    object.__setattr__(out, "with_closed", True)  # frozen, and deliberately not an __init__ argument
    return out
