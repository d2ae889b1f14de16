"""(internal) An export file through the write gate: its records re-sourced and judged again, its rows checked.

A file is text anyone may have edited: its ``source``, ``trust`` and injection verdicts are claims. So, unless an
operator vouches for the file, every record is stored as from ``import:<name>`` with that source's trust, and
every record is judged again as a write from its (new) source would be; a release the file records is kept only
when the file is vouched for. Credentials anywhere (records, core blocks and their history, held writes, audit
snapshots) refuse the whole file, and core blocks pass the gate core-block edits pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from tiermem.store.base import Store
from tiermem.trust.injection import RELEASED, VERDICT_KEY
from tiermem.types import MemoryRecord, Scope, Source
from tiermem.write.gate import admit_block, refuse_credentials, refuse_credentials_in
from tiermem.write.scan import ScanPolicy, scan_records

__all__ = ["admit_imported", "admit_rows"]

# The rows besides records and core blocks that carry text a user wrote: history and held writes.
_HISTORY = {"core_block_edits": ("before", "after"), "audit": ("before", "after", "detail"), "pending": ("record",)}


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
    store: Store, scope: Scope, rows: Mapping[str, Sequence[Mapping[str, Any]]], actor: str, policy: ScanPolicy,
    now: datetime,
) -> None:  # fmt: skip
    """Refuse the file when a core block reads like instructions, or any row holds a credential."""
    for row in rows.get("core_blocks", ()):
        block = [str(row.get("value") or ""), str(row.get("description") or "")]
        admit_block(store, scope, str(row.get("name")), block, actor=actor, now=now, policy=policy)
    texts: list[tuple[str, str]] = []
    for section, keys in _HISTORY.items():
        for i, row in enumerate(rows.get(section, ())):
            for key in keys:
                texts += _texts(f"{section}[{i}].{key}", key, row.get(key))
    refuse_credentials_in(store, scope, texts, actor, now)


def _texts(where: str, key: str, value: object) -> list[tuple[str, str]]:
    """Every text in a JSON value, named by its path; a scalar under a key is read with its key as a label."""
    if isinstance(value, Mapping):
        return [text for k, v in value.items() for text in _texts(f"{where}.{k}", str(k), v)]
    if isinstance(value, list):
        return [text for i, v in enumerate(value) for text in _texts(f"{where}[{i}]", key, v)]
    if value is None or isinstance(value, bool):
        return []
    return [(where, f"{key}: {value}")]
