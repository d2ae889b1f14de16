"""(internal) Library values as the JSON bodies of the REST API (the shapes ``server.models`` declares)."""

from __future__ import annotations

from typing import Any

from tiermem.context.messages import message_from_record
from tiermem.lifecycle.erase import EraseReport
from tiermem.store.base import AuditEntry, PendingWrite
from tiermem.store.context_base import CoreBlock
from tiermem.types import Hit, MemoryRecord

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
    return {
        "record_id": entry.record_id,
        "at": entry.at.isoformat(),
        "actor": entry.actor,
        "op": entry.op,
        "version": entry.version,
        "before": entry.before,
        "after": entry.after,
        "detail": entry.detail,
        "seq": entry.seq,
    }


def pending_out(pending: PendingWrite) -> dict[str, Any]:
    """A held write."""
    return {
        "id": pending.id,
        "created_at": pending.created_at.isoformat(),
        "record": pending.record,
        "reason": pending.reason,
    }


def block_out(block: CoreBlock) -> dict[str, Any]:
    """A core block."""
    return {
        "name": block.name,
        "limit": block.limit,
        "value": block.value,
        "description": block.description,
        "read_only": block.read_only,
        "version": block.version,
        "updated_at": None if block.updated_at is None else block.updated_at.isoformat(),
    }


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
    return {
        "tenant": report.tenant,
        "user": report.user,
        "removed": dict(report.removed),
        "audit_redacted": report.audit_redacted,
        "scrubbed": report.scrubbed,
    }
