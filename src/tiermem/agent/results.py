"""(internal) What a memory tool answers and what its answer quotes (``Message.quoting``), for the agent loop to store.

The user's own notes a result quotes keep the verdicts they were given when written; the rest of the result is
scanned as the tool's words (``write.scan_quoting``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from tiermem.message import JUDGED_IN_PARTS, Quoting
from tiermem.types import MemoryRecord, SourceKind

__all__ = ["ToolResult", "own_words", "quote_text", "quoting"]


def quote_text(text: str) -> str:
    """``text`` as a JSON string, as a result shows a stored text."""
    # JSON quoting: a stored text cannot end its quote or start a line of its own in the result. A lone surrogate
    # (a model's arguments may escape one) is no text a message can hold.
    return json.dumps(text.encode("utf-8", "replace").decode("utf-8"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A memory tool's answer and what it quotes (``Message.quoting``; None: all of it is scanned, e.g. an error)."""

    text: str
    quoting: Quoting | None = None


def own_words(text: str) -> ToolResult:
    """A result that quotes no note: all of it is scanned (the texts it repeats read with their escapes undone)."""
    return ToolResult(text, Quoting((), text, text))


def _own_rule(record: MemoryRecord) -> bool:
    """Whether a quoted note keeps its stored verdict: the user's own words (instructions to begin with), or an
    earlier memory tool's result judged the same way. Other chat members', the agent's and the runtime's words may
    repeat what a page told them, and a tool's or a page's words are scanned again with the result."""
    # A tool's record was scanned under the tool policy when written, so the mark can grant no more than that.
    judged = record.metadata.get(JUDGED_IN_PARTS) is True and record.source.kind is SourceKind.TOOL
    return str(record.source) == "user" or judged


def quoting(header: str, lines: list[tuple[str, MemoryRecord, str]], *, sep: str = "\n") -> ToolResult:
    """``header`` and a line per note (the line's start, the note, the text shown), each ending in the text quoted."""
    text = sep.join([header, *(start + quote_text(shown) for start, _, shown in lines)])
    own = [_own_rule(record) for _, record, _ in lines]
    rest = sep.join([header, *(s + ('""' if o else quote_text(t)) for (s, _, t), o in zip(lines, own, strict=True))])
    notes = tuple(record for (_, record, _), o in zip(lines, own, strict=True) if o)
    return ToolResult(text, Quoting(notes, rest, text))
