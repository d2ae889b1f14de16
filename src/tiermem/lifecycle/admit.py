"""(internal) An export file through the write gate: its records re-sourced and judged again, its rows checked.

A file is text anyone may have edited: its ``source``, ``trust`` and injection verdicts are claims. So, unless an
operator vouches for the file, every record is stored as from ``import:<name>`` with that source's trust, and
every record is judged again as a write from its (new) source would be; a release the file records is kept only
when the file is vouched for. Held writes are records too: each is held as from ``import:<name>``, so approving
one later judges it as that source, whatever source the file gave it. Credentials anywhere (records, their agent
and session ids, core blocks and their history, held writes, audit entries and their actors) refuse the whole
file, and core blocks pass the gate core-block edits pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from tiermem.store.base import Store
from tiermem.trust.injection import REASONS_KEY, RELEASED, SCORE_KEY, VERDICT_KEY
from tiermem.types import MemoryRecord, Scope, Source
from tiermem.write.gate import admit_block, refuse_credentials, refuse_credentials_in
from tiermem.write.scan import ScanPolicy, scan_records

__all__ = ["admit_imported", "admit_rows"]

# The rows besides records and core blocks that carry text a user wrote: history and held writes.
# What a file may claim of a held write's judgement: dropped, as the gate judges it again on approval.
_VERDICT_KEYS = frozenset({VERDICT_KEY, SCORE_KEY, REASONS_KEY, "released_by", "approved_by", "approved_at"})
_HISTORY = {
    "core_block_edits": ("before", "after"),
    "audit": ("actor", "before", "after", "detail"),
    "pending": ("record",),
}


def admit_imported(
    store: Store,
    scope: Scope,
    records: Sequence[MemoryRecord],
    source: Source,
    vouched: bool,
    policy: ScanPolicy,
    now: datetime,
) -> tuple[list[MemoryRecord], list[int]]:
    """The file's records as the gate admits them (see the module docstring), and the positions it judged
    again (the learned signal may raise their verdicts once they are embedded); SecretRefusedError names one."""
    out = [record if vouched else replace(record, source=source, trust=source.trust) for record in records]
    refuse_credentials(store, scope, out, now, label="records")
    judged = [i for i, r in enumerate(out) if not (vouched and r.metadata.get(VERDICT_KEY) == RELEASED)]
    mine = [out[i] for i in judged]
    scan_records(mine, [None] * len(mine), policy, stamp_unscanned=not vouched)
    for i, record in zip(judged, mine, strict=True):
        out[i] = record
    return out, [i for i in judged if policy.for_source(out[i].source.kind).scan]


def admit_rows(
    store: Store,
    scope: Scope,
    rows: Mapping[str, Sequence[Mapping[str, Any]]],
    source: Source,
    vouched: bool,
    policy: ScanPolicy,
    now: datetime,
) -> dict[str, list[dict[str, Any]]]:
    """The file's other rows as the gate admits them: refused when a core block reads like instructions or any
    row holds a credential; held writes re-sourced to ``source`` unless ``vouched``."""
    actor = str(source)
    for row in rows.get("core_blocks", ()):
        block = [str(row.get("value") or ""), str(row.get("description") or "")]
        admit_block(store, scope, str(row.get("name")), block, actor=actor, now=now, policy=policy)
    texts: list[tuple[str, str]] = []
    for section, keys in _HISTORY.items():
        for i, row in enumerate(rows.get(section, ())):
            for key in keys:
                texts += _texts(f"{section}[{i}].{key}", key, row.get(key))
    refuse_credentials_in(store, scope, texts, actor, now)
    out = {section: [dict(row) for row in section_rows] for section, section_rows in rows.items()}
    if not vouched and "pending" in out:
        out["pending"] = [_held_as(row, source) for row in out["pending"]]
    return out


def _held_as(row: dict[str, Any], source: Source) -> dict[str, Any]:
    """A held write's row with its record as from ``source``, at that source's trust, its stored verdict dropped
    (the write gate judges it when it is approved)."""
    record = row.get("record")
    if not isinstance(record, Mapping):
        return row
    metadata = record.get("metadata")
    kept = {k: v for k, v in metadata.items() if k not in _VERDICT_KEYS} if isinstance(metadata, Mapping) else metadata
    held = {**record, "source": str(source), "trust": source.trust, "metadata": kept}
    return {**row, "record": held}


def _texts(where: str, key: str, value: object) -> list[tuple[str, str]]:
    """Every text in a JSON value, named by its path; a scalar under a key is read with its key as a label."""
    if isinstance(value, Mapping):
        return [text for k, v in value.items() for text in _texts(f"{where}.{k}", str(k), v)]
    if isinstance(value, list):
        return [text for i, v in enumerate(value) for text in _texts(f"{where}[{i}]", key, v)]
    if value is None or isinstance(value, bool):
        return []
    return [(where, f"{key}: {value}")]
