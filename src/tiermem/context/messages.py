"""Messages of the conversation: the value, its token cost, and its round trip through a recall record.

Token cost of a message (an estimate of OpenAI's chat format that errs high, so a budget built on it holds):

    tokens(content) + MESSAGE_OVERHEAD                       every message (role and delimiters)
    + tokens(name)                                           a named message
    + tokens(tool_call_id)                                   a tool result
    + per call: tokens(name) + tokens(arguments) + TOOL_CALL_OVERHEAD + tokens(call id)

OpenAI documents 3 tokens per message plus 1 for a name and 3 for the reply primer; MESSAGE_OVERHEAD is 4 so
the name's extra token is always covered, and the primer (REPLY_PRIMING) is charged once per prompt.
"""

from __future__ import annotations

import json

from tiermem.errors import ValidationError
from tiermem.message import Message, Role, ToolCall
from tiermem.tokens import TokenCounter
from tiermem.types import MemoryRecord
from tiermem.write.messages import RECALL_TAG, record_fields

__all__ = [
    "MESSAGE_OVERHEAD",
    "RECALL_TAG",
    "REPLY_PRIMING",
    "TOOL_CALL_OVERHEAD",
    "Message",
    "Role",
    "ToolCall",
    "message_from_record",
    "message_tokens",
    "record_fields",
]

MESSAGE_OVERHEAD = 4
TOOL_CALL_OVERHEAD = 8  # the call's JSON frame: {"id", "type": "function", "function": {"name", "arguments"}}
REPLY_PRIMING = 3


def message_tokens(message: Message, counter: TokenCounter) -> int:
    """The tokens ``message`` costs in a prompt (see the module docstring for the model)."""
    total = counter.count(message.content) + MESSAGE_OVERHEAD
    if message.name is not None:
        total += counter.count(message.name)
    if message.tool_call_id is not None:
        total += counter.count(message.tool_call_id)
    for call in message.tool_calls:
        total += counter.count(call.name) + counter.count(call.arguments) + counter.count(call.id)
        total += TOOL_CALL_OVERHEAD
    return total


def message_from_record(record: MemoryRecord) -> Message:
    """The message a recall record stores (whitespace as sent when it was small enough to keep)."""
    meta = record.metadata
    role = meta.get("role")
    if not isinstance(role, str) or role not in Role.__members__.values():
        raise ValidationError("record", "is not a conversation message (no role in its metadata)", given=record.id)
    raw = meta.get("raw")
    calls_json = meta.get("tool_calls")
    calls = tuple(ToolCall(i, n, a) for i, n, a in json.loads(calls_json)) if isinstance(calls_json, str) else ()
    name, call_id, message_id = meta.get("name"), meta.get("tool_call_id"), meta.get("message_id")
    content = raw if isinstance(raw, str) else ("" if meta.get("empty") is True else record.content)
    if not isinstance(raw, str) and meta.get("prefixed") is True and isinstance(name, str):
        content = content.removeprefix(f"{name}: ")  # stored "<name>: <text>" so the speaker is searchable
    return Message(
        Role(role),
        content,
        id=message_id if isinstance(message_id, str) else record.id,
        created_at=record.valid_from,
        name=name if isinstance(name, str) else None,
        tool_call_id=call_id if isinstance(call_id, str) else None,
        tool_calls=calls,
    ).checked()
