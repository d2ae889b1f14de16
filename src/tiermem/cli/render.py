"""Rich renderings shared by the command line and the demo (edge layer: the only place that formats)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table

    from tiermem.types import Hit, MemoryRecord, ScorePart

__all__ = ["hits_table", "records_table"]


def _rank(part: ScorePart | None) -> str:
    return "-" if part is None or part.rank is None else f"#{part.rank}"


def hits_table(hits: Iterable[Hit], title: str, *, show_ids: bool = False) -> Table:
    """Hits with their score, the rank each signal gave them, the source (flagged if untrusted) and text."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for col in ("score", "keyword", "vector", "source", "content", *(["id"] if show_ids else [])):
        table.add_column(col, overflow="fold")
    for h in hits:
        flag = " [red](untrusted)[/red]" if "untrusted" in h.flags else ""
        row = [f"{h.score:.3f}", _rank(h.part("keyword")), _rank(h.part("vector")), str(h.record.source) + flag]
        table.add_row(*row, h.record.content, *([h.record.id] if show_ids else []))
    return table


def records_table(records: Iterable[MemoryRecord], title: str) -> Table:
    """Records with id, type, source, validity start and text."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for col in ("id", "type", "source", "valid from", "content"):
        table.add_column(col, overflow="fold")
    for r in records:
        table.add_row(r.id, r.type.value, str(r.source), r.valid_from.strftime("%Y-%m-%d %H:%M"), r.content)
    return table
