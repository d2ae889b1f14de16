"""tiermem: long-term memory for LLM agents, embedded in one SQLite file."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tiermem.errors import MemError, NotFoundError, ValidationError
    from tiermem.memory import Memory, NewMemory, WriteResult
    from tiermem.types import Filter, Hit, MemoryRecord, MemoryType, Scope, Source

__all__ = [
    "Filter",
    "Hit",
    "MemError",
    "Memory",
    "MemoryRecord",
    "MemoryType",
    "NewMemory",
    "NotFoundError",
    "Scope",
    "Source",
    "ValidationError",
    "WriteResult",
]
__version__ = "0.1.0"

# Imported on first use, so `import tiermem.cli` (and `tiermem --help`) loads neither numpy nor the model.
_HOMES = {
    "MemError": "tiermem.errors",
    "NotFoundError": "tiermem.errors",
    "ValidationError": "tiermem.errors",
    "Memory": "tiermem.memory",
    "NewMemory": "tiermem.memory",
    "WriteResult": "tiermem.memory",
    "Filter": "tiermem.types",
    "Hit": "tiermem.types",
    "MemoryRecord": "tiermem.types",
    "MemoryType": "tiermem.types",
    "Scope": "tiermem.types",
    "Source": "tiermem.types",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'tiermem' has no attribute {name!r}")
