"""(internal) Statement keys that name an existing record: a keyed write that matched one remembers it.

``Memory.remember_keyed`` gives each item a record id derived from its key, so a replayed source finds its
statements by id, UNCHANGED even once closed or expired. An item that matched another record instead (the same
text stored earlier, or a near-duplicate merged into it) stores nothing under its own id; the match is kept as an
``alias`` entry of the audit log under the derived id, naming the record. A replay then finds that record, and a
fact the user has since changed is not stated anew (nor the newer one closed). The entry holds no text, and a
forget of the record leaves the key naming nothing, so the statement is written again, as any forgotten key's is.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from tiermem.store.base import AuditEntry, Store
from tiermem.types import MemoryRecord, Scope
from tiermem.write.actor import actor_for

__all__ = ["ALIAS_OP", "alias_entries", "aliased"]

ALIAS_OP = "alias"
_PREFIX = "recorded as "


def aliased(store: Store, scope: Scope, statement_ids: Sequence[str]) -> dict[str, MemoryRecord]:
    """The stored records that statements of ``statement_ids`` matched when first written (newest match each)."""
    targets: dict[str, str] = {}
    for statement in statement_ids:
        entries = [e for e in store.audit(scope, statement) if e.op == ALIAS_OP and e.detail.startswith(_PREFIX)]
        if entries:
            targets[statement] = entries[-1].detail.removeprefix(_PREFIX)
    found = store.get_many(scope, list(set(targets.values()))) if targets else {}
    return {statement: found[target] for statement, target in targets.items() if target in found}


def alias_entries(
    prepared: Sequence[MemoryRecord], found: Sequence[MemoryRecord | None], named: Collection[int], now: datetime
) -> list[AuditEntry]:
    """The entries that make each keyed item's id (``prepared``) name the other record it matched (``found``),
    but for the items whose key already named one (``named``)."""
    return [
        AuditEntry(item.id, now, actor_for(item.source), ALIAS_OP, match.version, None, None, f"{_PREFIX}{match.id}")
        for i, (item, match) in enumerate(zip(prepared, found, strict=True))
        if match is not None and match.id != item.id and i not in named
    ]
