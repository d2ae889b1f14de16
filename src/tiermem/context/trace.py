"""What recall put in the prompt a reply answered, stored with the reply's record (metadata ``recalled``).

The agent loop compiles each prompt from the window, the core blocks and the memories recall found for the
turn; the memories are not messages of the window, so without a trace nobody could later see what the model
was shown. Each reply the model makes in a turn carries, as JSON, the recalled records in rank order with their
flags and whether each was shown whole, cut to fit the retrieval reserve, or left out for want of room. The
texts themselves are not copied: the record ids point at them, so forgetting a record takes its text away
from every trace too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tiermem.context.compile import CompiledPrompt
from tiermem.types import Hit, MetaValue

__all__ = ["MAX_TRACED", "RECALLED_KEY", "Recalled", "Shown", "recalled_of", "trace_metadata"]

RECALLED_KEY = "recalled"
MAX_TRACED = 40  # more than any prompt's reserve holds; keeps a reply's metadata far below its 8 KiB cap


class Shown(StrEnum):
    """How a recalled memory appeared in the prompt."""

    WHOLE = "whole"
    CUT = "cut"  # truncated to fit the retrieval reserve
    LEFT_OUT = "left out"  # no room left in the reserve


@dataclass(frozen=True, slots=True)
class Recalled:
    """One memory recall brought to a prompt: its record, its flags at the time, how it was shown."""

    record_id: str
    flags: tuple[str, ...]
    shown: Shown


def trace_metadata(hits: Sequence[Hit], prompt: CompiledPrompt) -> dict[str, MetaValue]:
    """The metadata a reply to ``prompt`` carries (an empty list when recall added nothing)."""
    cut, left_out = set(prompt.truncated_ids), set(prompt.dropped_ids)
    rows = []
    for hit in hits[:MAX_TRACED]:
        rid = hit.record.id
        shown = Shown.CUT if rid in cut else Shown.LEFT_OUT if rid in left_out else Shown.WHOLE
        flags = list(hit.flags)
        if hit.record.source.untrusted and "untrusted" not in flags:
            flags.append("untrusted")
        rows.append({"id": rid, "flags": flags, "shown": shown.value})
    return {RECALLED_KEY: json.dumps(rows, separators=(",", ":"))}


def recalled_of(metadata: Mapping[str, MetaValue]) -> tuple[Recalled, ...] | None:
    """The trace a reply's record carries; None when it has none (a message not written by the agent loop)."""
    text = metadata.get(RECALLED_KEY)
    if not isinstance(text, str):
        return None
    try:
        rows = json.loads(text)
    except ValueError:
        return None
    out = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            continue
        flags = row.get("flags")
        try:
            shown = Shown(str(row.get("shown")))
        except ValueError:
            continue
        names = tuple(f for f in flags if isinstance(f, str)) if isinstance(flags, list) else ()
        out.append(Recalled(row["id"], names, shown))
    return tuple(out)
