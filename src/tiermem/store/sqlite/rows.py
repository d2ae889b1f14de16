"""(internal) Record rows of the SQLite store: the column list, times as epoch seconds, a row back to a MemoryRecord."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from tiermem.store.row_values import record_of
from tiermem.types import MemoryRecord

__all__ = ["COLUMNS", "SQL_VARS", "at_utc", "chunks", "dt", "row_to_record", "ts"]

COLUMNS = (
    "id, tenant, user_key, agent, session, type, content, source, trust, created_at, updated_at, "
    "valid_from, valid_to, expires_at, content_hash, embedding_model, tags, supersedes, metadata, version, context"
)
SQL_VARS = 900  # stay under SQLite's host-parameter limit when expanding IN (...)


def ts(t: datetime | None) -> float | None:
    """A moment as the epoch seconds the tables hold."""
    return None if t is None else t.timestamp()


def dt(x: float | None) -> datetime | None:
    """Epoch seconds as an aware UTC moment."""
    return None if x is None else datetime.fromtimestamp(x, UTC)


def at_utc(x: float) -> datetime:
    """Epoch seconds, never None, as an aware UTC moment."""
    return datetime.fromtimestamp(x, UTC)


def chunks(values: list[str]) -> Iterator[list[str]]:
    """``values`` in slices that fit an ``IN (...)`` list."""
    for start in range(0, len(values), SQL_VARS):
        yield values[start : start + SQL_VARS]


def row_to_record(row: sqlite3.Row | tuple[Any, ...]) -> MemoryRecord:
    """A row selected as ``COLUMNS`` as a record."""
    return record_of(row, at_utc, json.loads)
