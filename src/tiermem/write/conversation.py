"""Write a conversation: each message an episodic record with its speaker, time, session and search context.

``write_messages`` is what ``Memory.remember_messages`` runs, and what the context runtime and the benchmark
harnesses use, so every caller gets the same records:

- **speaker**: the source ``user:Ann`` / ``agent`` / ``tool:<name>`` (tool results get tool trust), and a named
  speaker's text starts ``"Ann: "`` (see ``write.messages``);
- **time**: ``valid_from`` is the message's ``created_at`` (the write time when it has none), so named days
  ("what did Ann say on Tuesday?", asked with ``recall(..., now=...)``) and validity count from when it was said;
- **session**: the records' scope gets the session (``Scope.session``); a scope without one sees every session;
- **context**: each message is full-text indexed with the end of the ``context_turns`` messages before it in
  its session (default 1, the window the benchmark harnesses were fitted with on the LoCoMo and LongMemEval
  dev sets); a batch that only continues a stored session (none of its messages stored yet) takes its first
  turns' context from the session's newest stored messages;
- **idempotent**: a record's id is derived from the scope, the session and the message (its ``id`` if it has
  one, else role, name, time, text and how many identical messages precede it in the batch), so the ids of a
  batch are checked in one query and a re-sent transcript, or one with turns appended, adds only the new
  turns. Messages are events: the same text said twice is two records (no duplicate merging).

One embedding batch and one transaction (``write.path.write_many``); every message is validated first, so a
bad one leaves the store unchanged. An over-long message is stored as several records (``parts``).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from tiermem.embed import Embedder
from tiermem.errors import ValidationError
from tiermem.message import Message
from tiermem.store.base import Store
from tiermem.types import Filter, MemoryRecord, MemoryType, MetaValue, Scope, normalise_text
from tiermem.write.messages import (
    RECALL_TAG,
    as_sequence,
    parse_message,
    record_fields,
    split_content,
)
from tiermem.write.neighbours import neighbour_context
from tiermem.write.path import MAX_BATCH, NewMemory, WritePolicy, WriteResult, WriteStatus, prepare, write_many

__all__ = [
    "CONTEXT_TURNS",
    "MAX_CONTEXT_TURNS",
    "distinct_keys",
    "message_record_id",
    "statement_ids",
    "write_messages",
]

CONTEXT_TURNS = 1
MAX_CONTEXT_TURNS = 10


@dataclass(frozen=True, slots=True)
class _Piece:
    """One record to write: a message, or a part of an over-long one."""

    message: int  # index in the batch
    record_id: str
    item: NewMemory


def message_record_id(scope: Scope, key: str, part: int = 0) -> str:
    """The record id of a message (``key``) in ``scope``: a UUID (version 8) from a sha256 of the three."""
    digest = bytearray(hashlib.sha256(f"{scope.key}\0{key}\0{part}".encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x80  # version 8: derived, not random or time-ordered
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    return str(uuid.UUID(bytes=bytes(digest)))


def distinct_keys(keys: Sequence[str]) -> list[str]:
    """``keys`` with each repeat told apart by how many came before it (a file holding one text twice)."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for key in keys:
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(key if n == 0 else f"{key}\0{n}")
    return out


def statement_ids(scope: Scope, keys: Sequence[str], count: int) -> list[str]:
    """The record ids of ``count`` items named by ``keys`` (``Memory.remember_many``), derived like a message's."""
    if isinstance(keys, str) or not isinstance(keys, Sequence) or len(keys) != count:
        given = len(keys) if isinstance(keys, Sequence) and not isinstance(keys, str) else type(keys).__name__
        raise ValidationError("keys", "must give one key per item", given=given, limit=count)
    for i, key in enumerate(keys):
        if not isinstance(key, str) or not key:
            raise ValidationError(f"keys[{i}]", "must be a non-empty string", given=key)
    if len(set(keys)) != len(keys):
        raise ValidationError("keys", "must not repeat a key within one batch", given=len(keys) - len(set(keys)))
    return [message_record_id(scope, f"statement\0{key}") for key in keys]


def _keys(messages: list[Message], texts: list[str]) -> list[str]:
    """Each message's identity: its id, else its fields and how many identical messages came before it."""
    seen: dict[str, int] = {}
    ids: dict[str, int] = {}
    keys: list[str] = []
    for i, (message, text) in enumerate(zip(messages, texts, strict=True)):
        if message.id is not None:
            if message.id in ids:
                raise ValidationError(
                    f"messages[{i}].id", f"repeats the id of messages[{ids[message.id]}]", given=message.id
                )
            ids[message.id] = i
            keys.append(f"id\0{message.id}")
            continue
        # The instant, not its spelling: 10:00+00:00 and 11:00+01:00 are the same message.
        when = message.created_at.astimezone(UTC).isoformat() if message.created_at is not None else ""
        base = "\0".join(("msg", message.role.value, message.name or "", when, message.tool_call_id or "", text))
        seen[base] = seen.get(base, -1) + 1
        keys.append(f"{base}\0{seen[base]}")
    return keys


def _session_scope(scope: Scope, session: str | None) -> Scope:
    if not isinstance(scope, Scope):
        raise ValidationError("scope", "must be a Scope", given=type(scope).__name__)
    if session is None:
        return scope
    if scope.session is not None and scope.session != session:
        raise ValidationError("session", f"differs from the scope's session '{scope.session}'", given=session)
    return replace(scope, session=session)


def _context_turns(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CONTEXT_TURNS:
        raise ValidationError(
            "context_turns", f"must be an integer from 0 to {MAX_CONTEXT_TURNS}", given=value, limit=MAX_CONTEXT_TURNS
        )
    return value


def _stored_tail(store: Store, scope: Scope, count: int, now: datetime) -> list[str]:
    """The texts of the newest ``count`` messages stored in the scope, oldest first."""
    only_messages = Filter(types=frozenset({MemoryType.EPISODIC}), tags=frozenset({RECALL_TAG}))
    page = store.list_records(scope, only_messages, now=now, limit=count, cursor=None)
    return [record.content for record in reversed(page.records)]


def write_messages(
    store: Store,
    embedder: Embedder | None,
    scope: Scope,
    messages: object,
    *,
    now: datetime,
    session: str | None = None,
    context_turns: int = CONTEXT_TURNS,
    policy: WritePolicy | None = None,
    default_ttl: Mapping[MemoryType, timedelta | None] | None = None,
    defer_vectors: bool = False,
) -> list[WriteResult]:
    """Write ``messages`` (see the module docstring); one result per record, in order: ADDED or UNCHANGED.

    ``defer_vectors``: store them without vectors, for a write-behind worker to embed (``write.behind``).
    """
    scope = _session_scope(scope, session)
    context_turns = _context_turns(context_turns)
    parsed = [parse_message(raw, i) for i, raw in enumerate(as_sequence(messages))]
    fields = [record_fields(message) for message in parsed]
    texts = [text for text, _ in fields]
    keys = _keys(parsed, [normalise_text(text) for text in texts])
    pieces: list[_Piece] = []
    for i, (message, (text, metadata)) in enumerate(zip(parsed, fields, strict=True)):
        parts = split_content(text)
        for part, content in enumerate(parts):
            meta: dict[str, MetaValue] = {**metadata, "part": part, "parts": len(parts)} if len(parts) > 1 else metadata
            item = NewMemory(
                content=content,
                type=MemoryType.EPISODIC,
                source=message.source,
                tags=(RECALL_TAG, f"role:{message.role.value}"),
                valid_from=message.created_at,
                metadata=meta,
                dedupe=False,  # messages are events: "ok" said twice is two records
                quoting=message.quoting,
            )
            _check(scope, item, now, i)
            pieces.append(_Piece(i, message_record_id(scope, keys[i], part), item))
    if len(pieces) > MAX_BATCH:
        raise ValidationError("messages", "batch is too large", given=f"{len(pieces)} records", limit=MAX_BATCH)
    stored = store.get_many(scope, [p.record_id for p in pieces])
    new = [p for p in pieces if p.record_id not in stored]
    first_new = min((p.message for p in new), default=len(parsed))
    # A batch that continues a stored session: its first turns follow the session's newest stored messages.
    # Only a pure continuation: when part of the batch is stored, it carries its own earlier turns.
    reach = context_turns - first_new
    earlier = _stored_tail(store, scope, reach, now) if new and reach > 0 and not stored else []
    every = [*earlier, *texts]
    todo = [
        replace(p.item, context=neighbour_context(every, len(earlier) + p.message, before=context_turns))
        if context_turns
        else p.item
        for p in new
    ]
    written = write_many(
        store,
        embedder,
        scope,
        todo,
        now,
        policy or WritePolicy(),
        default_ttl,
        ids=[p.record_id for p in new],
        defer_vectors=defer_vectors,
    )
    by_id: dict[str, WriteResult] = {r.record.id: r for r in written}
    return [by_id.get(p.record_id) or _unchanged(stored[p.record_id]) for p in pieces]


def _check(scope: Scope, item: NewMemory, now: datetime, index: int) -> None:
    """The write path's own checks (source name, metadata size...), with the message's index in the error."""
    try:
        prepare(scope, item, now, None)
    except ValidationError as exc:
        raise ValidationError(f"messages[{index}].{exc.field}", exc.problem, given=exc.given, limit=exc.limit) from None


def _unchanged(record: MemoryRecord) -> WriteResult:
    return WriteResult(WriteStatus.UNCHANGED, record)
