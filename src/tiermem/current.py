"""A closed record's current version: the live record that replaced it, found through ``supersedes`` links."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from tiermem.store.base import Store
from tiermem.types import Filter, MemoryRecord, Scope

__all__ = ["admits", "current_versions"]


def admits(filter_: Filter, record: MemoryRecord) -> bool:
    """``record`` meets the filter's type, source, tag and time conditions (validity is the caller's)."""
    return (
        (not filter_.types or record.type in filter_.types)
        and (not filter_.sources or record.source.kind in filter_.sources)
        and (not filter_.tags or bool(filter_.tags.intersection(record.tags)))
        and (filter_.time_from is None or record.valid_from >= filter_.time_from)
        and (filter_.time_to is None or record.valid_from <= filter_.time_to)
    )


def current_versions(
    store: Store, scope: Scope, records: Mapping[str, MemoryRecord], filter_: Filter, now: datetime
) -> dict[str, MemoryRecord]:
    """For each record closed by ``now``, the live record that replaced it (the latest, down the chain)."""
    out: dict[str, MemoryRecord] = {}
    for rid, record in records.items():
        if record.valid_to is None or record.valid_to > now:
            continue
        seen = {rid}
        current: MemoryRecord | None = record
        while current is not None and not current.is_live(now):
            # Usually one successor; when several closed it, the latest is the one that holds now.
            later = [s for s in store.successors(scope, current.id) if s.id not in seen]
            current = max(later, key=lambda s: s.valid_from, default=None)
            if current is not None:
                seen.add(current.id)
        if current is not None and admits(filter_, current):
            out[rid] = current
    return out
