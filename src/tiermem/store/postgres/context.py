"""(internal) ContextStore on PostgreSQL: core blocks, their edits and context windows (a mixin of PostgresStore)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from tiermem.store.context_rows import ContextRowsMixin
from tiermem.store.idempotency_base import Executes
from tiermem.types import Scope, new_id

__all__ = ["PgContextMixin"]


class PgContextMixin(ContextRowsMixin):
    """Core blocks, their edits and context windows in the store's transactions."""

    LOCK_ROW = " FOR UPDATE"

    if TYPE_CHECKING:

        def _tenant(self, tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]: ...

    def context_reads(self, tenant: str) -> AbstractContextManager[Executes]:
        return self._tenant(tenant)

    def context_writes(self, tenant: str) -> AbstractContextManager[Executes]:
        return self._tenant(tenant)

    def read_time(self, stored: datetime) -> datetime:
        return stored

    def read_ids(self, stored: list[str]) -> list[str]:
        return stored

    def written_ids(self, ids: Sequence[str]) -> Jsonb:
        return Jsonb(list(ids))

    def renew_windows_holding(self, scope: Scope, record_ids: Sequence[str]) -> int:
        with self._tenant(scope.tenant) as conn:
            return conn.execute(
                "UPDATE context_windows SET revision = %s"
                " WHERE tenant = %s AND user_key = %s AND jsonb_exists_any(message_ids, %s::text[])",
                [new_id(), scope.tenant, scope.user or "", list(record_ids)],
            ).rowcount
