"""(internal) Rich renderings shared by the command line and the demo (edge layer: the only place that formats)."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from datetime import datetime

    from rich.table import Table
    from rich.text import Text

    from tiermem.recall.related import Neighbour, RelatedRecord
    from tiermem.store import PendingWrite
    from tiermem.types import Hit, MemoryRecord, ScorePart
    from tiermem.write.path import WriteResult

__all__ = [
    "cell",
    "emit_json",
    "hits_table",
    "neighbours_table",
    "pending_table",
    "records_table",
    "related_table",
    "report_done",
    "say",
    "visible",
    "write_lines",
]

# Characters that reorder the text shown around them (bidi embeddings, overrides, isolates and marks): stored
# text could make a line read other than it is.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _control(ch: str) -> bool:
    """Whether a terminal would act on ``ch`` or reorder text around it, rather than show it (tab and newline show)."""
    return (unicodedata.category(ch) == "Cc" and ch not in "\t\n") or ch in _BIDI


def _escape(ch: str) -> str:
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def visible(text: str) -> str:
    """``text`` with control characters (C0 but tab and newline, DEL, C1) and bidi controls as escapes (``\\x1b``)."""
    if not any(_control(ch) for ch in text):
        return text
    return "".join(_escape(ch) if _control(ch) else ch for ch in text)


def _json_safe(text: str) -> str:
    """JSON text with the control characters json.dumps leaves raw (DEL, C1, bidi) as ``\\uXXXX``: the same value."""
    if not any(_control(ch) for ch in text):
        return text
    return "".join(f"\\u{ord(ch):04x}" if _control(ch) else ch for ch in text)


def say(line: str, *, err: bool = False) -> None:
    """A line of output that may hold stored text, printed through ``visible``."""
    click.echo(visible(line), err=err)


def cell(text: object) -> Text:
    """A table cell through ``visible``, shown as written (never read as rich markup)."""
    from rich.text import Text

    return Text(visible(str(text)))


def emit_json(data: Any) -> None:
    """``data`` printed as indented JSON, non-ASCII text as it is."""
    click.echo(_json_safe(json.dumps(data, ensure_ascii=False, indent=2)))


def report_done(as_json: bool, verb: str, subject: str) -> None:
    """What a command did to one thing: ``{verb: subject}`` as JSON, else the line ``verb subject``."""
    if as_json:
        emit_json({verb: subject})
    else:
        say(f"{verb} {subject}")


def _table(title: str, *columns: str) -> Table:
    """An empty table titled at the left whose columns fold long text rather than cut it."""
    from rich.table import Table

    table = Table(title=cell(title), title_justify="left")
    for col in columns:
        table.add_column(col, overflow="fold")
    return table


def _row(table: Table, *cells: object) -> None:
    """One row, every cell through ``cell``: the only way stored text enters a table."""
    from rich.text import Text

    table.add_row(*(c if isinstance(c, Text) else cell(c) for c in cells))


def _minute(at: datetime) -> str:
    """A moment as the tables show it, to the minute."""
    return at.strftime("%Y-%m-%d %H:%M")


def _rank(part: ScorePart | None) -> str:
    return "-" if part is None or part.rank is None else f"#{part.rank}"


def hits_table(hits: Iterable[Hit], title: str, *, show_ids: bool = False) -> Table:
    """Hits with their score, relevance, the rank each signal gave them, the source (flagged if untrusted), text."""
    columns = ("score", "relevance", "keyword", "vector", "source", "content", *(["id"] if show_ids else []))
    table = _table(title, *columns)
    for h in hits:
        source = cell(h.record.source)
        if "untrusted" in h.flags:
            source.append(" (untrusted)", style="red")
        relevance = "-" if h.relevance is None else f"{h.relevance:.2f}"
        row = [f"{h.score:.3f}", relevance, _rank(h.part("keyword")), _rank(h.part("vector")), source]
        _row(table, *row, h.record.content, *([h.record.id] if show_ids else []))
    return table


def records_table(records: Iterable[MemoryRecord], title: str) -> Table:
    """Records with id, type, source, validity start and text."""
    table = _table(title, "id", "type", "source", "valid from", "content")
    for r in records:
        _row(table, r.id, r.type.value, r.source, _minute(r.valid_from), r.content)
    return table


def related_table(records: Iterable[RelatedRecord], title: str) -> Table:
    """Records around an entity with id, kind, session, validity start, how each connects, and text."""
    table = _table(title, "id", "kind", "session", "valid from", "connects", "text")
    for r in records:
        how = ", ".join(link.how.value + (f" {link.via[:8]}" if link.via else "") for link in r.links)
        _row(table, r.id, r.kind, r.session or "-", _minute(r.valid_from), how, r.text)
    return table


def neighbours_table(neighbours: Iterable[Neighbour], title: str) -> Table:
    """Names occurring with an entity, with how many of its records hold each."""
    table = _table(title, "name", "records")
    for n in neighbours:
        _row(table, n.name, n.count)
    return table


def pending_table(pending: Iterable[PendingWrite], title: str) -> Table:
    """Held writes with their id, when they were made, the record's type and source, why held, and text."""
    table = _table(title, "id", "held at", "type", "source", "why held", "content")
    for p in pending:
        rec = p.record
        held_at = _minute(p.created_at)
        _row(table, p.id, held_at, rec.get("type"), rec.get("source"), p.reason, rec.get("content"))
    return table


def write_lines(result: WriteResult) -> list[str]:
    """What a write did, one line, then why: the ids it superseded and the reasons (held writes: the pending id)."""
    shown = result.pending_id if result.pending_id is not None else result.record.id
    lines = [f"{result.status.value} {shown}"]
    level, score = result.record.metadata.get("injection_verdict"), result.record.metadata.get("injection_score")
    if level in ("quarantine", "suspicious"):
        effect = "recall leaves it out" if level == "quarantine" else "recall flags and down-ranks it"
        lines.append(
            f"  {level}: injection score {score} ({result.record.metadata.get('injection_reasons')}); {effect}"
        )
    lines += [f"  {reason}" for reason in result.reasons]
    lines += [f"  supersedes {rid}" for rid in result.superseded if not any(rid in r for r in result.reasons)]
    return lines
