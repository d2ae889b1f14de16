"""(internal) What every backend rebuilds from a record's row: its scope and its source, cached (rows repeat them)."""

from __future__ import annotations

import functools

from tiermem.types import Scope, Source

__all__ = ["scope_of", "source_of"]


@functools.lru_cache(maxsize=4096)
def scope_of(tenant: str, user_key: str, agent: str, session: str) -> Scope:
    """The scope a row's key columns name (an empty column is an absent part)."""
    return Scope(tenant, user_key or None, agent or None, session or None)


@functools.lru_cache(maxsize=4096)
def source_of(text: str) -> Source:
    """The source a row's text names."""
    return Source.parse(text)
