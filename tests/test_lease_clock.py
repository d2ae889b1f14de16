"""A session's turn lease keeps time by the database's clock: a client's skewed clock, and a database clock that
was stepped back, never hand a live session to another turn nor keep a dead one's for long."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from served_process import env_for
from tiermem import Memory
from tiermem.context.lease import TURN_LEASE, TurnLease
from tiermem.errors import BusyError
from tiermem.types import Scope, utcnow

SCOPE = Scope("acme", "ann", "bot", "s1")


@pytest.fixture
def url(url_on_both_stores: str) -> str:
    return url_on_both_stores


@pytest.fixture
def memory(url: str) -> Iterator[Memory]:
    with Memory.open(url, embedder="hash") as opened:
        yield opened


def _free(memory: Memory) -> bool:
    """True when a new turn could take the session now (and leaves it free)."""
    try:
        with TurnLease(memory.store, SCOPE).held():  # type: ignore[arg-type]
            return True
    except BusyError:
        return False


# A client process whose every clock (datetime and time) runs ten minutes ahead: what it does with the session.
_TAKE_AHEAD = """
import datetime, sys, time
class Ahead(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return super().now(tz) + datetime.timedelta(minutes=10)
datetime.datetime = Ahead
real_time = time.time
time.time = lambda: real_time() + 600
from tiermem import Memory
from tiermem.context.lease import TURN_LEASE, TurnLease
from tiermem.errors import ConflictError
from tiermem.types import Scope, utcnow
assert (utcnow() - datetime.datetime.fromtimestamp(real_time(), datetime.UTC)).total_seconds() > 590
with Memory.open(sys.argv[1], embedder="hash") as memory:
    try:
        with TurnLease(memory.store, Scope("acme", "ann", "bot", "s1")).held():
            print("taken")
    except ConflictError:
        print("refused")
"""


def test_skewed_clock_does_not_take_a_live_lease(url: str, memory: Memory) -> None:
    """A client whose clock runs ten minutes ahead must not take a lease another turn holds and renews."""
    live = TurnLease(memory.store, SCOPE)  # type: ignore[arg-type]
    with live.held():
        ahead = subprocess.run(
            [sys.executable, "-c", _TAKE_AHEAD, url], env=env_for(url), capture_output=True, text=True, timeout=120
        )
        assert ahead.stdout.strip() == "refused", ahead.stderr[-2000:]
        live.renew()  # still this turn's
    assert _free(memory)


def _stamped(memory: Memory, holder: str, renewed_at: datetime) -> None:
    """A lease row as the database's clock would have stamped it at ``renewed_at`` (ahead of the clock now)."""
    store: Any = memory.store
    m = store.MARK
    with store.keys_transaction("acme") as conn:
        conn.execute(
            "INSERT INTO turn_leases (tenant, user_key, agent, session, holder, expires_at, renewed_at)"
            f" VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m})",
            [
                "acme",
                "ann",
                "bot",
                "s1",
                holder,
                *(store.stored_time(t) for t in (renewed_at + TURN_LEASE, renewed_at)),
            ],
        )


def test_clock_that_jumped_ahead_does_not_lock_for_long(memory: Memory) -> None:
    """A lease stamped while the database's clock ran an hour ahead, whose process then died, holds the session
    no longer than a lease once the clock is set right."""
    _stamped(memory, "dead", utcnow() + timedelta(hours=1))
    assert _free(memory)


def test_a_live_lease_is_not_taken_for_a_clock_a_moment_behind(memory: Memory) -> None:
    """A lease renewed a fraction of a second in the database clock's future (a small step back) stays held."""
    _stamped(memory, "live", utcnow() + timedelta(seconds=0.5))
    assert not _free(memory)
