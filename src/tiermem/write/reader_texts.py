"""(internal) The texts a record hands its readers, each named by its field: what the write gate judges for injection.

A reader is handed more than the content. Metadata comes back whole with every record (the library, the REST
API); a LangGraph item's value is its metadata ``lg_value``, given to the graph as it is whichever fields are
indexed; a message's raw text and tool calls (metadata ``raw``, ``tool_calls``) rebuild the message a context
window sends to the model. So the gate judges the content and every metadata name and string value, a value
holding a JSON object or list by each string inside it (names and values), and the record takes the worst verdict.

Not read here: the gate's own verdict keys (its output, which quotes what it judged); tags (labels without
spaces); the search context, which quotes the turns around a message, each judged as its own record, and which
no prompt shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from tiermem.trust.injection import REASONS_KEY, SCORE_KEY, VERDICT_KEY
from tiermem.types import MemoryRecord

__all__ = ["CONTENT", "GATE_KEYS", "judged_note", "model_texts", "reader_texts"]

CONTENT = "content"
# The verdict the gate stores, and who released it: written by tiermem about the texts, never read as one.
GATE_KEYS = frozenset({VERDICT_KEY, SCORE_KEY, REASONS_KEY, "released_by"})
# A text a model reads for the scan (the classifier, the harm judge) has at least this many words: a directive is
# a sentence; a label, an id or a key name is noise to a classifier trained on sentences, and the rules read it.
_SENTENCE_WORDS = 3
# The shortest single token the scanner could decode into words (a base64 or hex payload of a few words).
_SHORTEST_PAYLOAD = 16


def reader_texts(record: MemoryRecord) -> list[tuple[str, str]]:
    """(field, text) for the content and each other text ``record`` hands a reader, the content first; a text the
    same as one before it (spacing aside) is left out."""
    out = [(CONTENT, record.content)]
    seen = {_spacing(record.content)}
    for field, text in _metadata_texts(record.metadata):
        key = _spacing(text)
        if key and key not in seen and _may_hold_words(text):
            seen.add(key)
            out.append((field, text))
    return out


def _may_hold_words(text: str) -> bool:
    """Whether ``text`` can hold an order at all: a label or an id (one short ASCII token: "user", "D1:3") cannot,
    and the rules would read it for nothing on every write; a payload hidden in one token is longer than this."""
    return len(text) >= _SHORTEST_PAYLOAD or not text.isascii() or len(text.split()) > 1


def model_texts(record: MemoryRecord) -> list[tuple[str, str]]:
    """The texts of ``reader_texts`` beyond the content that are sentences (see ``_SENTENCE_WORDS``)."""
    return [(f, t) for f, t in reader_texts(record)[1:] if len(t.split()) >= _SENTENCE_WORDS]


def _metadata_texts(metadata: Mapping[str, object]) -> Iterator[tuple[str, str]]:
    for name, value in metadata.items():
        if name in GATE_KEYS:
            continue
        yield f"metadata.{name} (its name)", name
        if isinstance(value, str):
            inner = _json_container(value)
            yield from [(f"metadata.{name}", value)] if inner is None else _strings(inner, f"metadata.{name}")


def _json_container(text: str) -> dict[str, Any] | list[Any] | None:
    """The object or list ``text`` holds as JSON; None for any other text."""
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def _strings(value: object, path: str) -> Iterator[tuple[str, str]]:
    """Every string inside a JSON value, a name and a string value alike, with its path."""
    if isinstance(value, dict):
        for name, inner in value.items():
            yield f"{path}.{name} (its name)", str(name)
            yield from _strings(inner, f"{path}.{name}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _strings(inner, f"{path}[{i}]")
    elif isinstance(value, str):
        yield path, value


def _spacing(text: str) -> str:
    return " ".join(text.split())


def judged_note(record: MemoryRecord) -> str:
    """What a model judges (the harm judge): the content and, a line each, the sentences elsewhere in ``record``
    that the content does not already hold."""
    held = _spacing(record.content)
    return "\n".join([record.content, *(t for _, t in model_texts(record) if _spacing(t) not in held)])
