"""(internal) How a server store connects: its pool of connections and how long anything may wait for the server.

Pure values (no driver imported), so the command line and the service's settings can hold them; the PostgreSQL
store reads them. Each can be set in the environment (``from_env``) or by ``tiermem serve``'s options.
Re-exported as ``tiermem.store.PoolOptions``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from tiermem.errors import ConfigError

__all__ = ["CONNECT_TIMEOUT_ENV", "POOL_SIZE_ENV", "POOL_WAIT_ENV", "PoolOptions"]

POOL_SIZE_ENV = "TIERMEM_PG_POOL_SIZE"
POOL_WAIT_ENV = "TIERMEM_PG_POOL_WAIT"
CONNECT_TIMEOUT_ENV = "TIERMEM_PG_CONNECT_TIMEOUT"
MAX_POOL_SIZE = 1000


@dataclass(frozen=True, slots=True)
class PoolOptions:
    """Connections a process keeps to the server, and the waits before a request is refused (503).

    ``size``: connections at most per process (N workers open up to N x size; PostgreSQL's default
    ``max_connections`` is 100). ``wait``: seconds a request waits for a free connection while the server is up.
    ``connect_timeout``: seconds to reach the server, whole (libpq counts whole seconds, 2 at least).
    While the server is found away, requests are refused at once whatever these say, until it answers again.
    """

    size: int = 8
    wait: float = 5.0
    connect_timeout: int = 3

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not 1 <= self.size <= MAX_POOL_SIZE:
            raise ConfigError(f"the pool size must be a whole number from 1 to {MAX_POOL_SIZE}, given {self.size!r}")
        if not 0 < self.wait <= 600:
            raise ConfigError(f"the pool wait must be over 0 and at most 600 seconds, given {self.wait!r}")
        if not 2 <= self.connect_timeout <= 600:
            raise ConfigError(
                f"the connect timeout must be from 2 to 600 whole seconds, given {self.connect_timeout!r}"
            )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> PoolOptions:
        """The defaults, with what ``$TIERMEM_PG_POOL_SIZE``, ``$TIERMEM_PG_POOL_WAIT`` and
        ``$TIERMEM_PG_CONNECT_TIMEOUT`` set; a ConfigError naming the variable when one is not a number."""
        env = os.environ if environ is None else environ
        default = cls()
        return cls(
            size=int(_number(env, POOL_SIZE_ENV, default.size, whole=True)),
            wait=_number(env, POOL_WAIT_ENV, default.wait, whole=False),
            connect_timeout=int(_number(env, CONNECT_TIMEOUT_ENV, default.connect_timeout, whole=True)),
        )


def _number(env: Mapping[str, str], name: str, default: float, *, whole: bool) -> float:
    given = env.get(name, "").strip()
    if not given:
        return default
    try:
        return int(given) if whole else float(given)
    except ValueError:
        kind = "a whole number" if whole else "a number of seconds"
        raise ConfigError(f"${name} must be {kind}, given {given!r}") from None
