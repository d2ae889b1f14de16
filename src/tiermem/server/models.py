"""(internal) The REST API's request and response bodies: typed, unknown fields refused, limits in the schema.

Requests take the library's own maxima (a server may set lower limits, checked in the routes); every string is
checked to be encodable as UTF-8 (a lone surrogate in JSON would otherwise fail deep in the store), and every
time must carry an offset and lie in the years 1000-9000, so no date arithmetic downstream can overflow.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints

from tiermem.recall.related import Connection
from tiermem.recall.search import MAX_K, MAX_QUERY_CHARS
from tiermem.store.access_base import KeyRole
from tiermem.types import MAX_SCOPE_PART, MemoryType, SourceKind
from tiermem.write.path import MAX_BATCH, MAX_CONTENT_CHARS, WriteStatus
from tiermem.write.prepare import MAX_TTL

__all__ = [
    "ID_PATTERN",
    "SCOPE_PATTERN",
    "AppendIn",
    "AuditEntryOut",
    "AuditOut",
    "BatchIn",
    "BatchOut",
    "BlockIn",
    "BlockOut",
    "BlocksOut",
    "EraseOut",
    "FilterIn",
    "HitOut",
    "HitsOut",
    "MemoryIn",
    "MessageOut",
    "MessagesOut",
    "PageOut",
    "PendingOut",
    "PendingsOut",
    "Problem",
    "RecallIn",
    "RecordOut",
    "RecordsOut",
    "ReplaceIn",
    "RollbackIn",
    "ScorePartOut",
    "WhoAmI",
    "WriteOut",
]

SCOPE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.@+\-]*$"
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:@+\-]{0,127}$"
TAG_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:@+\-]{0,63}$"
BLOCK_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"
SOURCE_PATTERN = r"^(system|(user|agent)(:.*\S.*)?|(tool|web|import):.*\S.*)$"


def _encodable(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode (no lone surrogates)") from None
    return value


def _moment(value: datetime) -> datetime:
    if not 1000 <= value.year <= 9000:
        raise ValueError("must lie in the years 1000 to 9000")
    return value.astimezone(UTC)


Instant = datetime  # a moment in a response (stored data: no range check on the way out)
Text = Annotated[str, AfterValidator(_encodable)]
Moment = Annotated[AwareDatetime, AfterValidator(_moment)]
Tag = Annotated[str, StringConstraints(pattern=TAG_PATTERN)]
Number = Annotated[float, Field(allow_inf_nan=False)]
MetaKey = Annotated[Text, StringConstraints(min_length=1, max_length=64)]
MetaValue = Annotated[Text, Field(max_length=8192)] | int | Number | bool | None


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MemoryIn(_In):
    """One memory to store."""

    content: Annotated[Text, Field(min_length=1, max_length=MAX_CONTENT_CHARS)]
    type: MemoryType = MemoryType.SEMANTIC
    source: Annotated[Text, Field(min_length=1, max_length=2100, pattern=SOURCE_PATTERN)] = Field(
        "user", description="user[:<name>], agent[:<name>], system, tool:<name>, web:<url>, import:<name>"
    )
    tags: list[Tag] = Field(default_factory=list, max_length=32)
    ttl: Annotated[Number, Field(gt=0, le=MAX_TTL.total_seconds())] | None = Field(None, description="seconds")
    valid_from: Moment | None = None
    metadata: dict[MetaKey, MetaValue] = Field(default_factory=dict, max_length=64)
    supersedes: Annotated[str, StringConstraints(pattern=ID_PATTERN)] | None = None
    dedupe: bool = True
    context: Annotated[Text, Field(max_length=MAX_CONTENT_CHARS)] | None = None


class BatchIn(_In):
    """Memories stored with one embedding batch and one transaction: all or nothing."""

    items: list[MemoryIn] = Field(min_length=1, max_length=MAX_BATCH)


class FilterIn(_In):
    """Conditions every result meets (tags: any of them)."""

    types: list[MemoryType] = Field(default_factory=list, max_length=3)
    sources: list[SourceKind] = Field(default_factory=list, max_length=6)
    tags: list[Tag] = Field(default_factory=list, max_length=32)
    time_from: Moment | None = None
    time_to: Moment | None = None


class RecallIn(_In):
    """A hybrid search."""

    query: Annotated[Text, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
    k: int = Field(10, ge=1, le=MAX_K)
    filter: FilterIn = Field(default_factory=FilterIn)
    as_of: Moment | None = Field(None, description="what was valid at this time")
    now: Moment | None = Field(None, description="the moment recency is measured from (default: now)")
    include_quarantined: bool = Field(False, description="also return notes the write-time scan quarantined")


class RollbackIn(_In):
    """Which recorded version to restore."""

    version: int = Field(ge=1, le=1 << 31)


class BlockIn(_In):
    """A core block's definition (its value is kept when it exists)."""

    limit: int = Field(ge=1, le=100_000, description="tokens")
    description: Annotated[Text, Field(max_length=1000)] = ""
    read_only: bool = False
    value: Annotated[Text, Field(max_length=MAX_CONTENT_CHARS)] = ""


class AppendIn(_In):
    """A line added at the end of a block."""

    text: Annotated[Text, Field(min_length=1, max_length=MAX_CONTENT_CHARS)]


class ReplaceIn(_In):
    """Every occurrence of ``old`` replaced by ``new`` ('' deletes)."""

    old: Annotated[Text, Field(min_length=1, max_length=MAX_CONTENT_CHARS)]
    new: Annotated[Text, Field(max_length=MAX_CONTENT_CHARS)]


class RecordOut(BaseModel):
    """A stored memory with its provenance and lifecycle fields."""

    id: str
    tenant: str
    user: str | None
    agent: str | None
    session: str | None
    type: MemoryType
    content: str
    source: str
    trust: float
    created_at: Instant
    updated_at: Instant | None
    valid_from: Instant
    valid_to: Instant | None
    expires_at: Instant | None
    content_hash: str
    embedding_model: str | None
    tags: list[str]
    supersedes: str | None
    metadata: dict[str, str | int | float | bool | None]
    version: int
    context: str | None


class WriteOut(BaseModel):
    """What one write did."""

    status: WriteStatus
    record: RecordOut
    superseded: list[str]
    reasons: list[str]
    pending_id: str | None


class BatchOut(BaseModel):
    """One result per item, in order."""

    results: list[WriteOut]


class ScorePartOut(BaseModel):
    """How one signal contributed to a hit."""

    name: str
    rank: int | None
    raw: float | None
    contribution: float


class HitOut(BaseModel):
    """A recalled record with its score, the parts that made it and its flags."""

    record: RecordOut
    score: float
    parts: list[ScorePartOut]
    flags: list[str]


class HitsOut(BaseModel):
    """Hits, best first."""

    hits: list[HitOut]


class PageOut(BaseModel):
    """A page of records, newest first; pass ``next_cursor`` back for the next."""

    records: list[RecordOut]
    next_cursor: str | None


class RecordsOut(BaseModel):
    """Records, oldest first."""

    records: list[RecordOut]


class LinkOut(BaseModel):
    """How a record connects to the entity, and through which naming record (null when it names it itself)."""

    how: Connection
    via: str | None


class RelatedRecordOut(BaseModel):
    """A record around the entity."""

    id: str
    text: str
    kind: MemoryType
    session: str | None
    created_at: Instant
    valid_from: Instant
    valid_to: Instant | None
    links: list[LinkOut]


class NeighbourOut(BaseModel):
    """Another name the entity's records hold, with how many of them and which."""

    name: str
    count: int
    record_ids: list[str]


class RelatedOut(BaseModel):
    """What memory holds around a named entity: naming records first, then connected ones; co-occurring names."""

    entity: str
    records: list[RelatedRecordOut]
    neighbours: list[NeighbourOut]


class AuditEntryOut(BaseModel):
    """One recorded change."""

    record_id: str
    at: Instant
    actor: str
    op: str
    version: int
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    detail: str
    seq: int


class AuditOut(BaseModel):
    """Audit entries, oldest first."""

    entries: list[AuditEntryOut]


class PendingOut(BaseModel):
    """A write held for approval."""

    id: str
    created_at: Instant
    record: dict[str, Any]
    reason: str


class PendingsOut(BaseModel):
    """Held writes, oldest first."""

    pending: list[PendingOut]


class BlockOut(BaseModel):
    """A core block; its version is also the response's ETag."""

    name: str
    limit: int
    value: str
    description: str
    read_only: bool
    version: int
    updated_at: Instant | None


class BlocksOut(BaseModel):
    """The core blocks of an agent, by name."""

    blocks: list[BlockOut]


class ToolCallOut(BaseModel):
    """A function call an assistant message made."""

    id: str
    name: str
    arguments: str


class MessageOut(BaseModel):
    """A message of the session's context window."""

    id: str
    record_id: str
    role: str
    content: str
    name: str | None
    created_at: Instant
    tool_call_id: str | None
    tool_calls: list[ToolCallOut]


class MessagesOut(BaseModel):
    """The messages in a session's context window, oldest first."""

    session: str
    messages: list[MessageOut]
    summary_through: str | None


class EraseOut(BaseModel):
    """What an erase removed."""

    tenant: str
    user: str | None
    removed: dict[str, int]
    audit_redacted: int
    scrubbed: bool


class WhoAmI(BaseModel):
    """The identity the credential carries."""

    tenant: str
    user: str | None
    role: KeyRole
    credential: str


class Problem(BaseModel):
    """An RFC 9457 problem: what went wrong, and for bad input the field, the limit and what was given."""

    type: str
    title: str
    status: int
    detail: str
    field: str | None = None
    limit: Any = None
    given: Any = None
    request_id: str | None = None
    errors: list[dict[str, Any]] | None = None


def scope_part_doc() -> dict[str, Any]:
    """The constraints of a scope part as query-parameter keywords."""
    return {"pattern": SCOPE_PATTERN, "max_length": MAX_SCOPE_PART}
