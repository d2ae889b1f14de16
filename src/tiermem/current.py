"""A closed record's current version: the live record that replaced it, found through ``supersedes`` links."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from tiermem.store.base import Store
from tiermem.types import Filter, MemoryRecord, Scope

__all__ = ["current_versions"]


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
        if current is not None and filter_.admits(current):
            out[rid] = current
    return out
