"""(internal) How LangGraph items map onto tiermem records: scopes, tags, metadata and indexed text.

No LangGraph import here: the mapping is plain data, so it is tested and typed without the framework.

Labels and scope parts. The first two labels of a namespace name its scope's tenant and user. A label that is a
valid scope part (letters and digits of any script, ``_ @ + -``) is used as it is; any other (``a%b``, ``star*``,
``alice\n``, ``Ann Smith``) is encoded: ``lg.`` and the label with every other character written as ``.`` and
its UTF-8 bytes in hex (``a%b`` is ``lg.a.25b``), or, when that is longer than a scope part may be, ``lgh.`` and
a hash of the label. LangGraph labels never hold a ``.``, so no plain label is ever taken for an encoded one.
The namespace itself is kept exactly in the record's metadata, so items come back with the labels they were put
with; the encoded form is what tiermem's own commands show as the scope.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tiermem.errors import ValidationError
from tiermem.types import MAX_SCOPE_PART, MemoryRecord, MetaValue, Scope

__all__ = [
    "MAX_DEPTH",
    "META_CREATED",
    "META_FIELDS",
    "META_KEY",
    "META_NAMESPACE",
    "META_TTL",
    "META_VALUE",
    "Place",
    "indexed_by",
    "indexed_text",
    "item_fields",
    "key_tag",
    "namespace_matches",
    "namespace_tag",
    "place_of",
    "record_fields",
    "scope_label",
    "texts_of",
]

META_NAMESPACE = "lg_namespace"
META_KEY = "lg_key"
META_VALUE = "lg_value"
META_CREATED = "lg_created_at"
META_TTL = "lg_ttl_minutes"
META_FIELDS = "lg_fields"
# Tags hold one hashed tag per prefix of the namespace below the scope, and one for the key: 32 tags at most.
MAX_DEPTH = 32
_HASH_CHARS = 24  # 96 bits: collisions are also checked against the stored namespace and key
_SENTENCE_WORDS = 3  # a string leaf of this many words is text; a shorter one is a value its path explains
_PLAIN = re.compile(r"[^\W_][\w@+\-]*")  # a scope part without "."; NFC is checked apart
_KEPT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@+-")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a namespace lives: the scope its first two labels name, and the labels below it."""

    scope: Scope
    rest: tuple[str, ...]


def scope_label(label: str) -> str:
    """The scope part a namespace label names (see the module docstring): the label, or its encoded form."""
    if len(label) <= MAX_SCOPE_PART and _PLAIN.fullmatch(label) and unicodedata.is_normalized("NFC", label):
        return label
    escaped = "".join(c if c in _KEPT else "".join(f".{b:02x}" for b in c.encode()) for c in label)
    if len(escaped) + 3 <= MAX_SCOPE_PART:
        return f"lg.{escaped}"
    return f"lgh.{hashlib.sha256(label.encode()).hexdigest()[:40]}"


def place_of(namespace: Sequence[str]) -> Place:
    """``(tenant,)`` is the tenant's shared memory; ``(tenant, user, *rest)`` is that user's memory."""
    if not namespace:
        raise ValidationError("namespace", "must hold at least one label (the tenant)", given=tuple(namespace))
    if len(namespace) > MAX_DEPTH:
        raise ValidationError("namespace", "is too deep", given=f"{len(namespace)} labels", limit=MAX_DEPTH)
    user = scope_label(namespace[1]) if len(namespace) > 1 else None
    return Place(Scope(scope_label(namespace[0]), user), tuple(namespace[2:]))


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest()[:_HASH_CHARS]


def namespace_tag(rest_prefix: Sequence[str]) -> str:
    """The tag of every item whose namespace, below its scope, starts with ``rest_prefix`` (() marks all items)."""
    return _namespace_tag(tuple(rest_prefix))


@functools.lru_cache(maxsize=1024)  # every search and put of a namespace hashes the same labels
def _namespace_tag(rest_prefix: tuple[str, ...]) -> str:
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


def texts_of(value: Mapping[str, Any], fields: Sequence[str], at_path: Any) -> list[str]:
    """The texts an item is indexed by, one per match of each field as LangGraph reads them: ``$`` is the
    whole value as one text, a line per leaf (sentences as they are, short values as ``path: value``), not
    JSON; any other field is the text at that path (``at_path``, LangGraph's ``get_text_at_path``, passed in so
    this module does not import LangGraph)."""
    parts: list[str] = []
    for field in fields:
        parts.extend(["\n".join(_leaves(value, ""))] if field == "$" else at_path(value, field))
    return [p for p in parts if p.strip()]


def indexed_text(value: Mapping[str, Any], fields: Sequence[str], at_path: Any) -> str:
    """The record's content, which recall searches: the item's texts, a line each. An item with no text at its
    fields falls back to its JSON, so every record has content."""
    return "\n".join(texts_of(value, fields, at_path)) or json.dumps(value, ensure_ascii=False, sort_keys=True)


def record_fields(
    namespace: Sequence[str],
    key: str,
    value: Mapping[str, Any],
    created_at: datetime | None,
    ttl: float | None,
    fields: Sequence[str] | None,
) -> tuple[tuple[str, ...], dict[str, MetaValue]]:
    """The tags and metadata of an item: namespace, key, value, TTL, the fields it is indexed by (None: not
    indexed) and (for a later version) first creation."""
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
    if fields is not None:
        metadata[META_FIELDS] = json.dumps(list(fields), ensure_ascii=False)
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
    return _labels_of(ns), key, json.loads(value), first


@functools.lru_cache(maxsize=1024)  # a search reads many items of one namespace and fields; values are parsed afresh
def _labels_of(stored: str) -> tuple[str, ...]:
    """A stored JSON list of strings (a namespace, index fields) as a tuple."""
    return tuple(json.loads(stored))


def indexed_by(record: MemoryRecord) -> tuple[str, ...] | None:
    """The fields an item's record was indexed by (None: not recorded, as before fields were kept)."""
    fields = record.metadata.get(META_FIELDS)
    return _labels_of(fields) if isinstance(fields, str) else None


def namespace_matches(namespace: Sequence[str], path: Sequence[str], match_type: str) -> bool:
    """LangGraph's prefix/suffix match, with ``*`` matching any one label."""
    if len(namespace) < len(path):
        return False
    if match_type == "prefix":
        pairs = zip(namespace[: len(path)], path, strict=True)
    else:
        pairs = zip(list(namespace)[len(namespace) - len(path) :], path, strict=True)
    return all(p == "*" or n == p for n, p in pairs)
