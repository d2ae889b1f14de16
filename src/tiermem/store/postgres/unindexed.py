"""(internal) The write-behind queue on PostgreSQL: records that name an embedding model but have no vector yet.

It runs store-wide (the ``*`` tenant setting of migration 0002), like the maintenance methods: the worker that
embeds them serves every tenant. Each record comes back named with its own (tenant, user), and is read back
through the scoped methods.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import psycopg

from tiermem.errors import ValidationError
from tiermem.store.maintenance_base import RecordRef
from tiermem.types import Scope

__all__ = ["PgUnindexedMixin"]

_ALL = "*"


class PgUnindexedMixin:
    """``unindexed`` on the PostgresStore's pool."""

    if TYPE_CHECKING:  # provided by PostgresStore

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def unindexed(self, *, limit: int = 1000) -> list[RecordRef]:
        """Records stored with a fingerprint and no vector (a write-behind write not embedded yet), oldest first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValidationError("limit", "must be a positive integer", given=limit)
        with self._tenant(_ALL) as conn:
            rows = conn.execute(
                "SELECT r.tenant, r.user_key, r.id, r.version FROM records r WHERE r.embedding_model IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.tenant = r.tenant AND v.record_id = r.id)"
                " ORDER BY r.created_at, r.id LIMIT %s",
                [limit],
            ).fetchall()
        return [
            RecordRef(Scope(tenant, user_key or None), rid, int(version)) for tenant, user_key, rid, version in rows
        ]
