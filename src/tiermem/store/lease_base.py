"""(internal) The ContextStore's turn leases written once over a backend's connection: acquire, renew, release.

A lease row per session (migration ``turn_leases``) names the turn that holds it and when it ends. Taking it is
one upsert that succeeds only where no row is, the row is the same holder's, or its end has passed, so of two
turns racing for a session in any two processes exactly one gets it; the loser has written nothing. Every time
is the database's clock, read in the statement: clients whose clocks disagree still agree on who holds a lease.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import timedelta
from typing import TYPE_CHECKING, ClassVar

from tiermem.store.idempotency_base import Executes
from tiermem.types import Scope

__all__ = ["TurnLeaseMixin"]


# A lease renewed further than this in the database clock's future was stamped before the clock was stepped back
# (it had run ahead): stale, or a process that died then would hold its session for the whole step.
STEPPED_BACK = timedelta(seconds=1)


def _key(scope: Scope) -> list[str]:
    return [scope.tenant, scope.user or "", scope.agent or "", scope.session or ""]


class TurnLeaseMixin:
    """Each call one write transaction of the scope's tenant (the backend's ``keys_transaction``)."""

    MARK: ClassVar[str]  # the driver's placeholder
    CLOCK: ClassVar[str]  # the database's current time, as expires_at stores it
    SECONDS: ClassVar[str]  # a number of seconds (one placeholder) as added to CLOCK

    if TYPE_CHECKING:  # provided by the backend's idempotency mixin

        def keys_transaction(self, tenant: str) -> AbstractContextManager[Executes]: ...

    def acquire_turn_lease(self, scope: Scope, holder: str, *, duration: timedelta) -> bool:
        m, later = self.MARK, self.SECONDS.format(self.MARK)
        with self.keys_transaction(scope.tenant) as conn:
            taken = conn.execute(
                "INSERT INTO turn_leases (tenant, user_key, agent, session, holder, expires_at, renewed_at)"
                f" VALUES ({m}, {m}, {m}, {m}, {m}, {self.CLOCK} + {later}, {self.CLOCK})"
                " ON CONFLICT (tenant, user_key, agent, session) DO UPDATE SET holder = excluded.holder,"
                " expires_at = excluded.expires_at, renewed_at = excluded.renewed_at"
                " WHERE turn_leases.holder = excluded.holder OR turn_leases.expires_at <= excluded.renewed_at"
                f" OR turn_leases.renewed_at > excluded.renewed_at + {later}",
                [*_key(scope), holder, duration.total_seconds(), STEPPED_BACK.total_seconds()],
            ).rowcount
        return bool(taken)

    def renew_turn_lease(self, scope: Scope, holder: str, *, duration: timedelta) -> bool:
        m, later = self.MARK, self.SECONDS.format(self.MARK)
        with self.keys_transaction(scope.tenant) as conn:
            renewed = conn.execute(
                f"UPDATE turn_leases SET expires_at = {self.CLOCK} + {later}, renewed_at = {self.CLOCK}"
                f" WHERE tenant = {m} AND user_key = {m} AND agent = {m} AND session = {m} AND holder = {m}",
                [duration.total_seconds(), *_key(scope), holder],
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
