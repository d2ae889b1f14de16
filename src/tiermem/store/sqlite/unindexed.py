"""(internal) The write-behind queue on SQLite: records that name an embedding model but have no vector row yet."""

from __future__ import annotations

from tiermem.errors import ValidationError
from tiermem.store.maintenance_base import RecordRef
from tiermem.store.sqlite.maintenance import Connected, run_sql
from tiermem.types import Scope

__all__ = ["SQLiteUnindexedMixin"]


class SQLiteUnindexedMixin(Connected):
    """``unindexed`` on the SQLiteStore's connection."""

    def unindexed(self, *, limit: int = 1000) -> list[RecordRef]:
        """Records stored with a fingerprint and no vector (a write-behind write not embedded yet), oldest first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValidationError("limit", "must be a positive integer", given=limit)
        rows = run_sql(
            self,
            "SELECT r.tenant, r.user_key, r.id, r.version FROM records r WHERE r.embedding_model IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.record_rowid = r.rowid) ORDER BY r.rowid LIMIT ?",
            (limit,),
        )
        return [
            RecordRef(Scope(tenant, user_key or None), rid, int(version)) for tenant, user_key, rid, version in rows
        ]
