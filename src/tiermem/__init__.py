"""tiermem: long-term memory for LLM agents, embedded in one SQLite file.

Every type a caller of ``Memory`` meets is importable from here. Ranking's seams live in
``tiermem.recall.factors`` (the built-in factors, ``Question``, ``DEFAULT_FACTORS``) and ``tiermem.recall.fusion``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tiermem.lazy import lazy_exports

if TYPE_CHECKING:
    from tiermem.embed import Embedder
    from tiermem.errors import MemError, NotFoundError, SecretRefusedError, ValidationError
    from tiermem.lifecycle.erase import EraseReport
    from tiermem.lifecycle.export import ImportReport
    from tiermem.lifecycle.retention import RetentionPolicy, SweepReport
    from tiermem.memory import Memory, NewMemory, WriteResult
    from tiermem.memory_api import MemoryAPI
    from tiermem.message import Message
    from tiermem.recall.factors import ScoreFactor
    from tiermem.recall.policy import RecallPolicy
    from tiermem.recall.related import Connection, Link, Neighbour, Related, RelatedRecord
    from tiermem.store.base import AuditEntry, Page, PendingWrite, Store
    from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, Scope, ScorePart, Source, SourceKind
    from tiermem.write.consolidate import Action, ActionKind
    from tiermem.write.path import DetectionPolicy, WritePolicy, WriteStatus
    from tiermem.write.scan import ScanPolicy, SourceScan

__all__ = [
    "Action",
    "ActionKind",
    "AuditEntry",
    "Connection",
    "DetectionPolicy",
    "Embedder",
    "EraseReport",
    "Filter",
    "HarmJudge",
    "Hit",
    "ImportReport",
    "Link",
    "MemError",
    "Memory",
    "MemoryAPI",
    "MemoryRecord",
    "MemoryType",
    "Message",
    "Neighbour",
    "NewMemory",
    "NotFoundError",
    "Page",
    "PendingWrite",
    "RecallPolicy",
    "Related",
    "RelatedRecord",
    "RetentionPolicy",
    "ScanPolicy",
    "Scope",
    "ScoreFactor",
    "ScorePart",
    "SecretRefusedError",
    "Source",
    "SourceKind",
    "SourceScan",
    "Store",
    "SweepReport",
    "ValidationError",
    "WritePolicy",
    "WriteResult",
    "WriteStatus",
]
__version__ = "0.1.0"

# Imported on first use, so `import tiermem.cli` (and `tiermem --help`) loads neither numpy nor the model.
_HOMES = {
    "Embedder": "tiermem.embed",
    "MemError": "tiermem.errors",
    "NotFoundError": "tiermem.errors",
    "ValidationError": "tiermem.errors",
    "SecretRefusedError": "tiermem.errors",
    "EraseReport": "tiermem.lifecycle.erase",
    "ImportReport": "tiermem.lifecycle.export",
    "RetentionPolicy": "tiermem.lifecycle.retention",
    "SweepReport": "tiermem.lifecycle.retention",
    "Memory": "tiermem.memory",
    "NewMemory": "tiermem.memory",
    "WriteResult": "tiermem.memory",
    "MemoryAPI": "tiermem.memory_api",
    "Message": "tiermem.message",
    "ScoreFactor": "tiermem.recall.factors",
    "RecallPolicy": "tiermem.recall.policy",
    "Connection": "tiermem.recall.related",
    "Link": "tiermem.recall.related",
    "Neighbour": "tiermem.recall.related",
    "Related": "tiermem.recall.related",
    "RelatedRecord": "tiermem.recall.related",
    "AuditEntry": "tiermem.store.base",
    "Page": "tiermem.store.base",
    "PendingWrite": "tiermem.store.base",
    "Store": "tiermem.store.base",
    "Filter": "tiermem.types",
    "Hit": "tiermem.types",
    "MemoryRecord": "tiermem.types",
    "MemoryType": "tiermem.types",
    "Scope": "tiermem.types",
    "ScorePart": "tiermem.types",
    "Source": "tiermem.types",
    "SourceKind": "tiermem.types",
    "Action": "tiermem.write.consolidate",
    "ActionKind": "tiermem.write.consolidate",
    "DetectionPolicy": "tiermem.write.path",
    "WritePolicy": "tiermem.write.path",
    "WriteStatus": "tiermem.write.path",
    "ScanPolicy": "tiermem.write.scan",
    "SourceScan": "tiermem.write.scan",
    "HarmJudge": "tiermem.write.judge",
}


__getattr__ = lazy_exports("tiermem", _HOMES)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
