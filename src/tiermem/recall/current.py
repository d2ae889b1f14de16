"""(internal) A closed record's current version: the live record that replaced it, through ``supersedes`` links."""

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
    # Every chain advances one link per query, so a shortlist with several closed facts costs one query per
    # link depth, not one per fact.
    head = {rid: r for rid, r in records.items() if r.valid_to is not None and r.valid_to <= now}
    seen = {rid: {rid} for rid in head}
    out: dict[str, MemoryRecord] = {}
    while head:
        later = store.successors(scope, sorted({r.id for r in head.values()}))
        following: dict[str, MemoryRecord] = {}
        for rid, record in head.items():
            # Usually one successor; when several closed it, the latest is the one that holds now.
            options = [s for s in later.get(record.id, []) if s.id not in seen[rid]]
            current = max(options, key=lambda s: s.valid_from, default=None)
            if current is None:
                continue
            seen[rid].add(current.id)
            if not current.is_live(now):
                following[rid] = current
            elif filter_.admits(current):
                out[rid] = current
        head = following
    return out
