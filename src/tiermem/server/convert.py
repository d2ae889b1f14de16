"""(internal) Library values as the JSON bodies of the REST API (the shapes ``server.models`` declares)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tiermem.context.messages import message_from_record
from tiermem.lifecycle.erase import EraseReport
from tiermem.store.base import AuditEntry, PendingWrite
from tiermem.store.context_base import CoreBlock
from tiermem.types import Hit, MemoryRecord

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["audit_out", "block_out", "erase_out", "hit_out", "message_out", "pending_out"]


def hit_out(hit: Hit) -> dict[str, Any]:
    """A hit with its parts in order."""
    return {
        "record": hit.record.to_dict(),
        "score": hit.score,
        "parts": [{"name": p.name, "rank": p.rank, "raw": p.raw, "contribution": p.contribution} for p in hit.parts],
        "flags": list(hit.flags),
    }


def audit_out(entry: AuditEntry) -> dict[str, Any]:
    """An audit entry."""
    return _fields_out(entry)


def pending_out(pending: PendingWrite) -> dict[str, Any]:
    """A held write."""
    return _fields_out(pending)


def block_out(block: CoreBlock) -> dict[str, Any]:
    """A core block."""
    return _fields_out(block)


def message_out(record: MemoryRecord) -> dict[str, Any]:
    """A message of the context window, from its recall record."""
    message = message_from_record(record)
    return {
        "id": message.id,
        "record_id": record.id,
        "role": message.role.value,
        "content": message.content,
        "name": message.name,
        "created_at": message.said_at.isoformat(),
        "tool_call_id": message.tool_call_id,
        "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in message.tool_calls],
    }


def erase_out(report: EraseReport) -> dict[str, Any]:
    """What an erase removed."""
    return _fields_out(report)


def _fields_out(value: DataclassInstance) -> dict[str, Any]:
    """A value whose JSON body is its fields by name: times as ISO 8601 text, mappings as objects."""
    return {f.name: _json_value(getattr(value, f.name)) for f in fields(value)}


def _json_value(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    return dict(value) if isinstance(value, Mapping) else value
