"""Chat messages as records: read OpenAI / Mem0-style messages, and the record format a message is stored in.

A message is ``{"role": "user" | "assistant" | "tool" | "system", "content": ..., "name"?: ..., "created_at"?:
..., "id"?: ..., "tool_call_id"?: ..., "tool_calls"?: [...], "metadata"?: {...}}`` or an object with those
attributes (``tiermem.message.Message``, ``tiermem.llm.ChatMessage``), and is read as a ``Message``.
``content`` may also be a list of OpenAI content parts; their text parts are joined. Errors name the message by
its index: ``messages[3].created_at``.

Its record (see ``record_fields``): the text, written ``"Ann: ..."`` when a user or assistant has a name so the
speaker is found by full text and by vector; the source ``user[:name]``, ``agent[:name]``, ``system`` or
``tool:<name>`` (which sets its trust); tags ``recall`` and ``role:<role>``; metadata that rebuilds the message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

from tiermem.errors import ValidationError
from tiermem.message import JUDGED_IN_PARTS, Message, Quoting, Role, ToolCall
from tiermem.text_rules import check_encodable, check_name, check_visible, visible
from tiermem.types import MetaValue, aware_time, normalise_text
from tiermem.write.path import MAX_CONTENT_CHARS

__all__ = [
    "RECALL_TAG",
    "RESERVED_METADATA",
    "ROLES",
    "parse_message",
    "record_fields",
    "split_content",
    "visible",
]

ROLES = ("user", "assistant", "tool", "system")
RECALL_TAG = "recall"
# Keys of a message record's metadata that rebuild the message: a caller's own metadata may not use them.
RESERVED_METADATA = frozenset(
    {"role", "name", "message_id", "tool_call_id", "tool_calls", "empty", "raw", "prefixed", "part", "parts"}
    | {JUDGED_IN_PARTS}
)
# Raw text is kept beside the normalised record content only while the record's metadata stays this small.
_RAW_LIMIT_BYTES = 6000


def parse_message(raw: object, index: int) -> Message:
    """Validate one message (a mapping or an object with ``role`` and ``content``); errors name ``messages[i]``."""
    where = f"messages[{index}]"
    if isinstance(raw, Mapping):
        get = raw.get
    elif hasattr(raw, "role") and hasattr(raw, "content"):

        def get(key: str, default: Any = None) -> Any:
            return getattr(raw, key, default)

    else:
        raise ValidationError(where, "must be a mapping with 'role' and 'content' (or a Message)", given=type(raw))
    role = get("role")
    if role is None:
        raise ValidationError(f"{where}.role", f"is missing; one of {', '.join(ROLES)}")
    role = role.value if hasattr(role, "value") else role
    if role not in ROLES:
        raise ValidationError(f"{where}.role", f"must be one of {', '.join(ROLES)}", given=role)
    name = _optional_text(get("name"), f"{where}.name")
    calls = _tool_calls(get("tool_calls") or (), f"{where}.tool_calls")
    if calls and role != "assistant":
        raise ValidationError(f"{where}.tool_calls", "only an assistant message makes tool calls", given=role)
    content = check_encodable(f"{where}.content", _content(get("content"), f"{where}.content"))
    if not calls:
        check_visible(f"{where}.content", content)
    return Message(
        role=Role(role),
        content=content,
        name=name,
        created_at=_time(get("created_at"), f"{where}.created_at"),
        id=_optional_text(get("id"), f"{where}.id"),
        tool_call_id=_optional_text(get("tool_call_id"), f"{where}.tool_call_id"),
        tool_calls=calls,
        metadata=_metadata(get("metadata"), f"{where}.metadata"),
        author=_optional_text(get("source"), f"{where}.source"),
        quoting=_quoting(raw),
    )


def _quoting(raw: object) -> Quoting | None:
    """What a message made by the runtime in this process says it quotes, if its content is that result's text."""
    if not isinstance(raw, Message) or raw.quoting is None or raw.role is not Role.TOOL:
        return None
    return raw.quoting if raw.content == raw.quoting.text else None


def _optional_text(value: object, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(where, "must be a non-empty string", given=value)
    return check_name(where, value)


def _content(value: object, where: str) -> str:
    if value is None:
        return ""  # an assistant message that only calls tools has null content
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # OpenAI content parts: the text parts are the message
        texts = []
        for j, part in enumerate(value):
            if not isinstance(part, Mapping) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise ValidationError(f"{where}[{j}]", "only text parts ({'type': 'text', 'text': ...}) are read")
            texts.append(part["text"])
        return "\n".join(texts)
    raise ValidationError(where, "must be a string (or a list of text parts)", given=type(value).__name__)


def _time(value: object, where: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValidationError(where, "must be timezone-aware", given=value.isoformat())
        return value
    if isinstance(value, str):
        return aware_time(where, value)
    raise ValidationError(where, "must be an ISO 8601 time or a datetime", given=type(value).__name__)


def _tool_calls(value: object, where: str) -> tuple[ToolCall, ...]:
    if not isinstance(value, list | tuple):
        raise ValidationError(where, "must be a list", given=type(value).__name__)
    calls: list[ToolCall] = []
    for j, call in enumerate(value):
        if isinstance(call, ToolCall):
            calls.append(call)
            continue
        function = call.get("function") if isinstance(call, Mapping) else None
        if not isinstance(call, Mapping) or not isinstance(function, Mapping):
            raise ValidationError(f"{where}[{j}]", "must be {'id', 'type': 'function', 'function': {...}}")
        arguments = function.get("arguments", "{}")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        calls.append(ToolCall(str(call.get("id") or ""), str(function.get("name") or ""), arguments))
    return tuple(calls)


def _metadata(value: object, where: str) -> Mapping[str, MetaValue]:
    if value is None:
        return MappingProxyType({})
    if not isinstance(value, Mapping):
        raise ValidationError(where, "must be a mapping of names to scalars", given=type(value).__name__)
    for key, item in value.items():
        if key in RESERVED_METADATA:
            raise ValidationError(where, f"'{key}' is set from the message itself", given=key)
        if item is not None and not isinstance(item, str | int | float | bool):
            raise ValidationError(f"{where}.{key}", "must be a string, number, boolean or null", given=item)
        if isinstance(key, str):
            check_name(f"{where} key", key)
        if isinstance(item, str):
            check_encodable(f"{where}.{key}", item)
    return MappingProxyType(dict(value))


def _searchable_text(message: Message) -> str:
    """The message, or a line per call when it has no text."""
    if message.content.strip():
        return message.content
    return "\n".join(f"[tool call {call.name}({_read_arguments(call.arguments)})]" for call in message.tool_calls)


def _read_arguments(arguments: str) -> str:
    """A call's JSON arguments as ``name=value`` pairs of their values, every key kept: a scan and a search read the
    characters the escapes stand for (a line break as a break, not as ``\\n``); the raw text if it cannot be read."""
    try:
        text = _plain(json.loads(arguments, object_pairs_hook=list))
        text.encode("utf-8")  # a lone surrogate escaped in the JSON is no text
    except (ValueError, UnicodeEncodeError):
        return arguments
    return text


def _plain(value: object) -> str:
    if isinstance(value, list) and all(isinstance(p, tuple) and len(p) == 2 for p in value) and value:
        return ", ".join(f"{key}={_plain(item)}" for key, item in value)
    if isinstance(value, list):
        return "[" + ", ".join(_plain(item) for item in value) + "]"
    return value if isinstance(value, str) else json.dumps(value)


def record_fields(message: Message) -> tuple[str, dict[str, MetaValue]]:
    """The record text and metadata that store ``message`` so it can be rebuilt exactly."""
    text = _searchable_text(message)
    if message.speaker_prefixed:
        text = f"{message.name}: {text}"
    metadata: dict[str, MetaValue] = {**message.metadata, "role": message.role.value}
    if message.id is not None:
        metadata["message_id"] = message.id
    if message.name is not None:
        metadata["name"] = message.name
    if message.speaker_prefixed:
        metadata["prefixed"] = True  # the text starts "<name>: "; rebuilding the message strips it
    if message.tool_call_id is not None:
        metadata["tool_call_id"] = message.tool_call_id
    if message.tool_calls:
        metadata["tool_calls"] = json.dumps([[c.id, c.name, c.arguments] for c in message.tool_calls])
    if not message.content.strip():
        metadata["empty"] = True  # the content stored is the calls' text, for search only
    # The write path normalises whitespace (newlines become spaces); code and lists need the original back.
    elif message.content != normalise_text(text):
        raw = {**metadata, "raw": message.content}
        if len(json.dumps(raw).encode()) <= _RAW_LIMIT_BYTES:
            metadata = raw
    return text, metadata


def split_content(text: str, limit: int = MAX_CONTENT_CHARS) -> list[str]:
    """A text as storable pieces: none for an empty text, over-long ones cut at whitespace."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = rest.rfind(" ", limit // 2, limit)
        cut = cut if cut > 0 else limit
        pieces.append(rest[:cut])
        rest = rest[cut:].strip()
    return [*pieces, rest] if rest else pieces


def as_sequence(messages: object) -> Sequence[object]:
    """``messages`` as a list; a single mapping or a string is refused (a common slip)."""
    if isinstance(messages, str | bytes | Mapping) or not hasattr(messages, "__iter__"):
        raise ValidationError("messages", "must be a list of messages", given=type(messages).__name__)
    return list(messages)
