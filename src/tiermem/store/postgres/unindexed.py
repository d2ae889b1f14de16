"""(internal) The write-behind queue on PostgreSQL: records that name an embedding model but have no vector yet.

It runs store-wide, through the schema's function that runs as its owner (migration 0009), like the store-wide
maintenance reads: the worker that embeds them serves every tenant. Each record comes back named with its own
(tenant, user) and version only, and is read back through the scoped methods.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.errors import ValidationError
from tiermem.store.maintenance_base import RecordRef
from tiermem.types import Scope

__all__ = ["PgUnindexedMixin"]


class PgUnindexedMixin:
    """``unindexed`` on the PostgresStore's pool."""

    if TYPE_CHECKING:  # provided by PostgresStore

        def _anywhere(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def unindexed(self, *, limit: int = 1000) -> list[RecordRef]:
        """Records stored with a fingerprint and no vector (a write-behind write not embedded yet), oldest first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValidationError("limit", "must be a positive integer", given=limit)
        with self._anywhere() as conn:
            rows = conn.execute("SELECT tenant, user_key, id, version FROM tiermem_unindexed(%s)", [limit]).fetchall()
        return [
            RecordRef(Scope(tenant, user_key or None), rid, int(version)) for tenant, user_key, rid, version in rows
        ]
