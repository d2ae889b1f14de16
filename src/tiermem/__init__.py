"""tiermem: long-term memory for LLM agents, embedded in one SQLite file."""

from __future__ import annotations

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
