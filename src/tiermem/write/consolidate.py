"""(internal) Consolidation: apply the write path's merge and supersession decisions to facts already stored.

Facts written with detection off, imported, or stored before a better detector existed can hold paraphrases
and stale values side by side. ``consolidate`` walks a scope's current facts from oldest to newest, compares
each with its nearest earlier facts still current (``DetectionPolicy``: as many, and as near, as the write path
compares a new fact with) using the same ``supersede.decide`` as the write path, and:

- *merge*: a later paraphrase is retired into the earlier record (which keeps its id, gains the later
  source in ``merged_sources`` and the retired id in ``consolidated_from``); the paraphrase's validity
  ends now and it points at the record it was folded into (``metadata.consolidated_into``);
- *supersede*: an earlier fact's validity ends where the newer one's begins and the newer one links to it.

Nothing is deleted, every change is audited, and a second run finds nothing to do (only current facts are
compared, and each action leaves one current record per cluster). ``dry_run`` reports without writing.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType

import numpy as np

from tiermem.embed import Embedder
from tiermem.store.base import AuditEntry, Store, StoredItem, scope_writes
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope
from tiermem.write.path import DetectionPolicy, absorb, audit_entry
from tiermem.write.supersede import Verdict, decide

__all__ = ["Action", "ActionKind", "consolidate"]

_PAGE = 1000


class ActionKind(StrEnum):
    """What consolidation does to a cluster."""

    MERGE = "merge"
    SUPERSEDE = "supersede"


@dataclass(frozen=True, slots=True)
class Action:
    """One change: ``keep`` stays current, ``retire`` stops being current."""

    kind: ActionKind
    keep: str
    retire: str
    reason: str


def _current_facts(store: Store, scope: Scope, now: datetime) -> list[MemoryRecord]:
    facts: list[MemoryRecord] = []
    cursor: str | None = None
    only_facts = Filter(types=frozenset({MemoryType.SEMANTIC}))
    while True:
        page = store.list_records(scope, only_facts, now=now, limit=_PAGE, cursor=cursor)
        facts.extend(page.records)
        if page.next_cursor is None:
            return sorted(facts, key=lambda r: (r.valid_from, r.created_at, r.id))
        cursor = page.next_cursor


def consolidate(
    store: Store,
    embedder: Embedder | None,
    scope: Scope,
    *,
    now: datetime,
    dry_run: bool = False,
    policy: DetectionPolicy | None = None,
) -> list[Action]:
    """Merge paraphrases and close superseded facts among the scope's current facts."""
    if embedder is None:
        return []
    # Decided and written with the scope's writers held off, so no decision rests on a version since replaced.
    with scope_writes(store, scope):
        return _consolidate(store, embedder, scope, now, dry_run, policy or DetectionPolicy())


def _consolidate(
    store: Store, embedder: Embedder, scope: Scope, now: datetime, dry_run: bool, policy: DetectionPolicy
) -> list[Action]:
    facts = _current_facts(store, scope, now)
    vectors = store.vectors_of(scope, [f.id for f in facts])
    facts = [f for f in facts if f.id in vectors and f.embedding_model == embedder.fingerprint]
    if len(facts) < 2:
        return []
    matrix = np.stack([vectors[f.id] for f in facts])
    similarity = matrix @ matrix.T
    retired: set[str] = set()
    actions: list[Action] = []
    for j in range(1, len(facts)):
        newer = facts[j]
        # Facts this run retired are no longer current: the write path's store search would not return them.
        current = (i for i in np.argsort(-similarity[j, :j]) if facts[i].id not in retired)
        earlier = list(itertools.islice(current, policy.neighbours))
        for i in earlier:
            cosine = float(similarity[j, i])
            if cosine < policy.min_cosine:
                break
            verdict = decide(newer.content, facts[i].content, cosine)
            if verdict.verdict is Verdict.MERGE:
                actions.append(Action(ActionKind.MERGE, facts[i].id, newer.id, verdict.reason))
                retired.add(newer.id)
                break
            if verdict.verdict is Verdict.SUPERSEDE and facts[i].valid_from <= newer.valid_from:
                actions.append(Action(ActionKind.SUPERSEDE, newer.id, facts[i].id, verdict.reason))
                retired.add(facts[i].id)
    if not dry_run and actions:
        _apply(store, scope, {f.id: f for f in facts}, actions, now)
    return actions


def _apply(store: Store, scope: Scope, facts: dict[str, MemoryRecord], actions: list[Action], now: datetime) -> None:
    changed: dict[str, MemoryRecord] = {}
    audit: list[AuditEntry] = []

    def update(before: MemoryRecord, after: MemoryRecord, detail: str) -> None:
        changed[after.id] = after
        audit.append(audit_entry("consolidate", "consolidate", now, before, after, detail))

    for action in actions:
        keep = changed.get(action.keep, facts[action.keep])
        gone = changed.get(action.retire, facts[action.retire])
        if action.kind is ActionKind.MERGE:
            folded = ", ".join(filter(None, [str(keep.metadata.get("consolidated_from") or ""), gone.id]))
            update(
                keep,
                absorb(keep, gone, now, consolidated_from=folded),
                f"merged {gone.id}: {action.reason}",
            )
            meta_gone = {**gone.metadata, "consolidated_into": keep.id}
            update(
                gone,
                replace(
                    gone, valid_to=now, metadata=MappingProxyType(meta_gone), updated_at=now, version=gone.version + 1
                ),
                f"merged into {keep.id}",
            )
        else:
            update(
                gone,
                replace(gone, valid_to=keep.valid_from, updated_at=now, version=gone.version + 1),
                f"superseded by {keep.id}: {action.reason}",
            )
            if keep.supersedes is None:
                update(
                    keep,
                    replace(keep, supersedes=gone.id, updated_at=now, version=keep.version + 1),
                    f"now supersedes {gone.id}",
                )
    with store.transaction():
        store.put_many([StoredItem(r, None, keep_vector=True) for r in changed.values()])
        store.append_audit(scope, audit)
