"""(internal) Run the app on uvicorn: one process, one Memory; blocking work runs in uvicorn's thread pool.

Start-up happens in order, each failure a one-line error before anything is served: the port is bound, the store
is opened (never created) and the model loaded, and only once uvicorn accepts connections is ``announce`` called.
"""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Callable
from importlib.util import find_spec

import uvicorn

from tiermem.errors import ConfigError
from tiermem.server.app import create_app
from tiermem.server.runtime import Runtime, open_runtime
from tiermem.server.settings import ServerSettings

__all__ = ["bind", "event_io", "make_server", "serve"]

_log = logging.getLogger("tiermem.server")


def event_io() -> tuple[str, str]:
    """uvicorn's event loop and HTTP parser: uvloop and httptools (the ``server`` extra), else asyncio and h11.

    Named, not uvicorn's ``auto``, so which ones run is decided here and said once in the log when one is
    missing (uvloop has no Windows build; the pure-Python pair works everywhere, at more CPU a request).
    """
    loop = "uvloop" if find_spec("uvloop") is not None else "asyncio"
    http = "httptools" if find_spec("httptools") is not None else "h11"
    if (loop, http) != ("uvloop", "httptools"):
        _log.warning("uvloop or httptools is not installed: serving with the %s loop and the %s parser", loop, http)
    return loop, http


class _Announced(uvicorn.Server):
    """uvicorn's server that calls ``announce`` once it accepts connections (not when it merely starts)."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], None] | None) -> None:
        super().__init__(config)
        self._announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and not self.should_exit and self._announce is not None:
            self._announce()


def make_server(
    settings: ServerSettings, *, runtime: Runtime | None = None, announce: Callable[[], None] | None = None
) -> uvicorn.Server:
    """A uvicorn server for the app (on ``runtime`` when given, else one it opens at start-up); its own access log
    is off (the app writes one JSON line per request)."""
    loop, http = event_io()
    config = uvicorn.Config(
        create_app(settings, runtime=runtime),
        host=settings.host,
        port=settings.port,
        loop=loop,
        http=http,
        access_log=False,
        log_level="warning",
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=10,
    )
    return _Announced(config, announce)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; OSError with the address when it is taken or not ours to use."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose proto says TCP (else each response body
    # waits for the client's delayed ACK).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError as exc:
        sock.close()
        why = "is in use by another process" if exc.errno == errno.EADDRINUSE else f"cannot be used ({exc.strerror})"
        raise OSError(exc.errno, f"port {port} on {host} {why}") from None
    except OverflowError:
        sock.close()
        raise ConfigError(f"port {port} is not a port number (0-65535)") from None
    return sock


def serve(
    settings: ServerSettings, sock: socket.socket | None = None, *, announce: Callable[[], None] | None = None
) -> None:
    """Bind, open the store and the model, then serve until interrupted (SIGINT or SIGTERM: in-flight requests
    finish, then the store is closed); ``announce`` is called once connections are accepted."""
    sock = sock if sock is not None else bind(settings.host, settings.port)
    try:
        runtime = open_runtime(settings)
    except BaseException:
        sock.close()
        raise
    try:
        make_server(settings, runtime=runtime, announce=announce).run(sockets=[sock])
    finally:
        runtime.close()
        sock.close()
