"""(internal) A session's turn lease: one turn of a session runs at a time, across threads, processes and servers.

A turn takes the lease before it writes anything (its user message is a record others can recall, and its
window save is what another turn would load), so a turn that finds the session busy is refused having written
nothing: no model of another turn can be shown a message its user is told was refused. The lease ends when the
turn ends (answered, failed or undone) and otherwise at its expiry, so a process that died mid-turn holds the
session no longer than that. A running turn renews it every third of its length from a thread of its own, so it
does not expire under a live turn however long the model takes: were it to, the turn taking over would load the
user message of a turn whose user is then told to send it again. The turn also renews it before and after each
model call and before each tool runs and each result is written, which tells it when the lease was lost (its user
was erased, or its process stalled past the lease), and a turn that fails checks it once more: a lost turn writes
nothing more, not even its own undoing, since the turn that took over may have shown its message; it ends as a
dead process's turn does. The store judges expiry by the database's clock, so workers whose clocks
disagree never hold one session at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from tiermem.errors import BusyError, StoreError, TurnLostError, ValidationError
from tiermem.store.context_base import StoreWithContext
from tiermem.types import Scope, new_id

__all__ = ["MIN_LEASE", "RETRY_AFTER", "TURN_LEASE", "TurnLease", "check_lease"]

log = logging.getLogger(__name__)

# How long a turn holds its session between renewals. A running turn renews it every third of that from a thread
# of its own, so a model call however long keeps the session, and two renewals may fail (a busy database) before
# it is lost; shorter frees the session of a process that died sooner.
TURN_LEASE = timedelta(seconds=30)
# When to send a refused turn again: a running turn usually ends within a model call or two, and a retry that
# comes too soon is refused again having written nothing.
RETRY_AFTER = 1.0


# The shortest lease a turn may take: a renewal is a write, and on a loaded machine one can wait on another writer
# for a good part of a second; a lease that ran out between two renewals would hand a live turn's session over.
MIN_LEASE = timedelta(seconds=1)


def check_lease(duration: timedelta) -> None:
    """A ValidationError unless ``duration`` is a timedelta of at least ``MIN_LEASE``."""
    if not isinstance(duration, timedelta) or duration < MIN_LEASE:
        raise ValidationError("lease", f"must be a timedelta of at least {MIN_LEASE}", given=duration, limit=MIN_LEASE)


class TurnLease:
    """One turn's hold on its session; ``held()`` takes it (BusyError when another turn holds it) and ends it."""

    def __init__(
        self,
        store: StoreWithContext,
        scope: Scope,
        *,
        duration: timedelta = TURN_LEASE,
    ) -> None:
        check_lease(duration)
        self.store = store
        self.scope = scope
        self.duration = duration
        self.holder = new_id()  # this turn's own: another turn of the same Agent is another holder

    @contextmanager
    def held(self) -> Iterator[TurnLease]:
        """Hold the session while inside; BusyError naming the session, before anything is written, if busy."""
        if not self.store.acquire_turn_lease(self.scope, self.holder, duration=self.duration):
            raise BusyError(
                f"session '{self.scope.session or ''}' ({self.scope}) is running another turn (in another process or"
                " another client of the database); nothing of this turn was written: send it again when that one ends",
                retry_after=RETRY_AFTER,
            )
        stop = threading.Event()
        beat = threading.Thread(target=self._beat, args=(stop,), name="tiermem-turn-lease", daemon=True)
        beat.start()
        try:
            yield self
        finally:
            stop.set()
            beat.join()  # no renewal after the release
            try:
                self.store.release_turn_lease(self.scope, self.holder)
            except StoreError as exc:  # the turn's outcome stands; the session is free again at the lease's end
                log.warning("the turn lease of %s was not released (%s); it ends at its expiry", self.scope, exc)

    def check_held(self, failure: BaseException) -> None:
        """After ``failure`` ended the turn: TurnLostError (from it) if the lease is no longer this turn's, so the
        turn is not undone under another; nothing if it still holds, or if the store cannot say."""
        try:
            held = self.store.renew_turn_lease(self.scope, self.holder, duration=self.duration)
        except StoreError:  # the undo that follows meets the same store and says what failed
            return
        if not held:
            raise self._lost() from failure

    def renew(self) -> None:
        """Hold on for another ``duration``; TurnLostError when the lease was lost (it expired while the turn
        stalled and another turn took it, or an erase removed it), so the turn writes no more."""
        if not self.store.renew_turn_lease(self.scope, self.holder, duration=self.duration):
            raise self._lost()

    def _lost(self) -> TurnLostError:
        return TurnLostError(
            f"session '{self.scope.session or ''}' ({self.scope}): this turn stalled past its lease and another"
            " turn took the session (or its user was erased); its user message stays in the session as stored"
            " (the other turn may have shown it to its model) and its reply was dropped: ask again for a reply"
        )

    def _beat(self, stop: threading.Event) -> None:
        """Renew every third of the lease until ``stop``: a live turn keeps its session through a long model call."""
        while not stop.wait(self.duration.total_seconds() / 3):
            try:
                if not self.store.renew_turn_lease(self.scope, self.holder, duration=self.duration):
                    return  # lost (an erase removed it): the turn's own renew() says so before it writes again
            except StoreError as exc:  # the next beat tries again; the lease outlasts two missed ones
                log.warning("the turn lease of %s was not renewed (%s)", self.scope, exc)
