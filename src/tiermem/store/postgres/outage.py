"""(internal) Failing fast while the PostgreSQL server is away, and finding it back without a restart.

When a connection breaks or no connection comes free in time, one background thread tries a fresh connection of
its own. If that fails the server is *away*: from then on every request is refused at once (a StoreError, so
503 with Retry-After at the service) instead of waiting for a pool that cannot fill, and the thread keeps trying
every ``interval``. When a try succeeds the store's pool is replaced by a fresh one (the old pool's reconnection
attempts back off exponentially, up to minutes) and requests go through again. A try that succeeds at once means
the server was only busy: nothing changes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from tiermem.errors import StoreError

__all__ = ["Outage"]

_log = logging.getLogger("tiermem.store")


class Outage:
    """The server's reachability as this process last found it; thread-safe."""

    def __init__(self, probe: Callable[[], None], on_back: Callable[[], None], *, interval: float = 0.5) -> None:
        self._probe = probe  # raises StoreError when the server cannot be reached
        self._on_back = on_back
        self.interval = interval
        self._lock = threading.Lock()
        self._since: float | None = None  # monotonic time the server was found away
        self._reason = ""
        self._prober: threading.Thread | None = None
        self._closed = False

    @property
    def away(self) -> str | None:
        """Why the server is taken to be away (the driver's words), or None while it is not."""
        return self._reason if self._since is not None else None

    def away_for(self) -> float:
        """Seconds since the server was found away (0 while it is not)."""
        since = self._since
        return 0.0 if since is None else time.monotonic() - since

    def suspect(self) -> None:
        """A connection broke or none came free: check in the background whether the server is away."""
        with self._lock:
            if self._closed or (self._prober is not None and self._prober.is_alive()):
                return
            self._prober = threading.Thread(target=self._watch, name="tiermem-pg-outage", daemon=True)
            self._prober.start()

    def close(self) -> None:
        """Stop watching (the store is closing)."""
        with self._lock:
            self._closed = True
            prober = self._prober
        if prober is not None and prober is not threading.current_thread():
            prober.join(timeout=5)

    def _watch(self) -> None:
        first = True
        while not self._closed:
            try:
                self._probe()
            except StoreError as exc:
                reason = str(exc)
                if self._since is None:
                    _log.warning("the PostgreSQL server cannot be reached (%s): requests are refused meanwhile", reason)
                    self._reason, self._since = reason, time.monotonic()
                first = False
                time.sleep(self.interval)
                continue
            if not first:  # it was away and answers again: start over with fresh connections
                self._on_back()
                _log.warning("the PostgreSQL server answers again after %.1f s", self.away_for())
            self._since = None
            return
