"""(internal) How LangGraph items map onto tiermem records: scopes, tags, metadata, indexed text and filters.

No LangGraph import here: the mapping is plain data, so it is tested and typed without the framework.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tiermem.errors import ScopeError, ValidationError
from tiermem.types import MemoryRecord, MetaValue, Scope

__all__ = [
    "MAX_DEPTH",
    "META_CREATED",
    "META_KEY",
    "META_NAMESPACE",
    "META_TTL",
    "META_VALUE",
    "Place",
    "indexed_text",
    "item_fields",
    "key_tag",
    "matches_filter",
    "namespace_matches",
    "namespace_tag",
    "place_of",
    "record_fields",
]

META_NAMESPACE = "lg_namespace"
META_KEY = "lg_key"
META_VALUE = "lg_value"
META_CREATED = "lg_created_at"
META_TTL = "lg_ttl_minutes"
# Tags hold one hashed tag per prefix of the namespace below the scope, and one for the key: 32 tags at most.
MAX_DEPTH = 32
_HASH_CHARS = 24  # 96 bits: collisions are also checked against the stored namespace and key
_SENTENCE_WORDS = 3  # a string leaf of this many words is text; a shorter one is a value its path explains


@dataclass(frozen=True, slots=True)
class Place:
    """Where a namespace lives: the scope its first two labels name, and the labels below it."""

    scope: Scope
    rest: tuple[str, ...]


def place_of(namespace: Sequence[str]) -> Place:
    """``(tenant,)`` is the tenant's shared memory; ``(tenant, user, *rest)`` is that user's memory."""
    if not namespace:
        raise ValidationError("namespace", "must hold at least one label (the tenant)", given=tuple(namespace))
    if len(namespace) > MAX_DEPTH:
        raise ValidationError("namespace", "is too deep", given=f"{len(namespace)} labels", limit=MAX_DEPTH)
    try:
        scope = Scope(namespace[0], namespace[1] if len(namespace) > 1 else None)
    except ScopeError as exc:
        which = "first" if exc.field == "tenant" else "second"
        raise ScopeError(
            "namespace",
            f"its {which} label is the scope's {exc.field} and {exc.problem}",
            given=tuple(namespace),
        ) from None
    return Place(scope, tuple(namespace[2:]))


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest()[:_HASH_CHARS]


def namespace_tag(rest_prefix: Sequence[str]) -> str:
    """The tag of every item whose namespace, below its scope, starts with ``rest_prefix`` (() marks all items)."""
    return f"lgns:{_digest(list(rest_prefix))}"


def key_tag(rest: Sequence[str], key: str) -> str:
    """The tag of the item at ``rest`` / ``key`` within its scope."""
    return f"lgkey:{_digest([list(rest), key])}"


def _leaves(value: Any, path: str) -> Iterator[str]:
    if isinstance(value, Mapping):
        for name, inner in value.items():
            yield from _leaves(inner, f"{path}.{name}" if path else str(name))
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _leaves(inner, path)
    elif isinstance(value, str) and len(value.split()) >= _SENTENCE_WORDS:
        yield value  # a sentence embeds best as it is: a "path:" prefix moves its vector off the question's
    elif value is not None and str(value).strip():
        yield f"{path}: {value}" if path else str(value)


def indexed_text(value: Mapping[str, Any], fields: Sequence[str], at_path: Any) -> str:
    """The text recall searches: ``$`` gives a line per leaf (sentences as they are, short values as
    ``path: value``), other fields the text at that path.

    ``at_path`` is LangGraph's ``get_text_at_path`` (passed in, so this module does not import LangGraph). An
    item with no text at its fields falls back to its JSON, so every record has content.
    """
    parts: list[str] = []
    for field in fields:
        parts.extend(_leaves(value, "") if field == "$" else at_path(value, field))
    text = "\n".join(p for p in parts if p.strip())
    return text or json.dumps(value, ensure_ascii=False, sort_keys=True)


def record_fields(
    namespace: Sequence[str], key: str, value: Mapping[str, Any], created_at: datetime | None, ttl: float | None
) -> tuple[tuple[str, ...], dict[str, MetaValue]]:
    """The tags and metadata of an item: namespace, key, value, TTL and (for a later version) first creation."""
    rest = tuple(namespace[2:])
    tags = (*(namespace_tag(rest[:i]) for i in range(len(rest) + 1)), key_tag(rest, key))
    try:
        value_json = json.dumps(dict(value), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError("value", f"must be JSON-serialisable ({exc})", given=type(value).__name__) from None
    metadata: dict[str, MetaValue] = {
        META_NAMESPACE: json.dumps(list(namespace), ensure_ascii=False),
        META_KEY: key,
        META_VALUE: value_json,
        META_TTL: ttl,
    }
    if created_at is not None:  # a first version's creation is its record's
        metadata[META_CREATED] = created_at.isoformat()
    return tags, metadata


def item_fields(record: MemoryRecord) -> tuple[tuple[str, ...], str, dict[str, Any], datetime] | None:
    """(namespace, key, value, first created) of a record this adapter wrote; None for any other record."""
    meta = record.metadata
    ns, key, value = meta.get(META_NAMESPACE), meta.get(META_KEY), meta.get(META_VALUE)
    if not (isinstance(ns, str) and isinstance(key, str) and isinstance(value, str)):
        return None
    created = meta.get(META_CREATED)
    first = datetime.fromisoformat(created) if isinstance(created, str) else record.created_at
    return tuple(json.loads(ns)), key, json.loads(value), first


def namespace_matches(namespace: Sequence[str], path: Sequence[str], match_type: str) -> bool:
    """LangGraph's prefix/suffix match, with ``*`` matching any one label."""
    if len(namespace) < len(path):
        return False
    if match_type == "prefix":
        pairs = zip(namespace[: len(path)], path, strict=True)
    else:
        pairs = zip(list(namespace)[len(namespace) - len(path) :], path, strict=True)
    return all(p == "*" or n == p for n, p in pairs)


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(actual, op, operand) for op, operand in wanted.items())
        return isinstance(actual, Mapping) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


_ORDER = {"$gt": float.__gt__, "$gte": float.__ge__, "$lt": float.__lt__, "$lte": float.__le__}


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    if op not in _ORDER:
        raise ValidationError("filter", "operators are $eq, $ne, $gt, $gte, $lt and $lte", given=op)
    try:
        return bool(_ORDER[op](float(actual), float(operand)))
    except (TypeError, ValueError):
        return False  # a missing or non-numeric field is not greater or smaller than anything


def matches_filter(value: Mapping[str, Any], filter_: Mapping[str, Any] | None) -> bool:
    """Every condition of a LangGraph search filter holds for ``value``."""
    return not filter_ or all(_compare(value.get(k), v) for k, v in filter_.items())
