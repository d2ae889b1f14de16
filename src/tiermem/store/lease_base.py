"""(internal) The ContextStore's turn leases written once over a backend's connection: acquire, renew, release.

A lease row per session (migration ``turn_leases``) names the turn that holds it and when it ends. Taking it is
one upsert that succeeds only where no row is, the row is the same holder's, or its end has passed, so of two
turns racing for a session in any two processes exactly one gets it; the loser has written nothing.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from tiermem.store.idempotency_base import Executes
from tiermem.types import Scope

__all__ = ["TurnLeaseMixin"]


def _key(scope: Scope) -> list[str]:
    return [scope.tenant, scope.user or "", scope.agent or "", scope.session or ""]


class TurnLeaseMixin:
    """Each call one write transaction of the scope's tenant (the backend's ``keys_transaction``)."""

    MARK: ClassVar[str]  # the driver's placeholder

    if TYPE_CHECKING:  # provided by the backend's idempotency mixin

        def keys_transaction(self, tenant: str) -> AbstractContextManager[Executes]: ...

        def stored_time(self, at: datetime) -> Any: ...

    def acquire_turn_lease(self, scope: Scope, holder: str, *, now: datetime, until: datetime) -> bool:
        m = self.MARK
        with self.keys_transaction(scope.tenant) as conn:
            taken = conn.execute(
                "INSERT INTO turn_leases (tenant, user_key, agent, session, holder, expires_at)"
                f" VALUES ({m}, {m}, {m}, {m}, {m}, {m}) ON CONFLICT (tenant, user_key, agent, session)"
                " DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at"
                f" WHERE turn_leases.holder = excluded.holder OR turn_leases.expires_at <= {m}",
                [*_key(scope), holder, self.stored_time(until), self.stored_time(now)],
            ).rowcount
        return bool(taken)

    def renew_turn_lease(self, scope: Scope, holder: str, *, until: datetime) -> bool:
        m = self.MARK
        with self.keys_transaction(scope.tenant) as conn:
            renewed = conn.execute(
                f"UPDATE turn_leases SET expires_at = {m} WHERE tenant = {m} AND user_key = {m} AND agent = {m}"
                f" AND session = {m} AND holder = {m}",
                [self.stored_time(until), *_key(scope), holder],
            ).rowcount
        return bool(renewed)

    def release_turn_lease(self, scope: Scope, holder: str) -> None:
        m = self.MARK
        with self.keys_transaction(scope.tenant) as conn:
            conn.execute(
                f"DELETE FROM turn_leases WHERE tenant = {m} AND user_key = {m} AND agent = {m} AND session = {m}"
                f" AND holder = {m}",
                [*_key(scope), holder],
            )
