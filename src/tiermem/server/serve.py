"""(internal) Run the app on uvicorn: one process, one Memory; blocking work runs in uvicorn's thread pool."""

from __future__ import annotations

import logging
import socket
from importlib.util import find_spec

import uvicorn

from tiermem.server.app import create_app
from tiermem.server.settings import ServerSettings

__all__ = ["event_io", "make_server", "serve"]

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


def make_server(settings: ServerSettings) -> uvicorn.Server:
    """A uvicorn server for the app; its own access log is off (the app writes one JSON line per request)."""
    loop, http = event_io()
    config = uvicorn.Config(
        create_app(settings),
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
    return uvicorn.Server(config)


def serve(settings: ServerSettings, sock: socket.socket | None = None) -> None:
    """Serve until interrupted (SIGINT or SIGTERM: in-flight requests finish, then the store is closed)."""
    server = make_server(settings)
    server.run(sockets=[sock] if sock is not None else None)
