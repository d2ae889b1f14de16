"""(internal) Run the app on uvicorn: one process, one Memory; blocking work runs in uvicorn's thread pool."""

from __future__ import annotations

import socket

import uvicorn

from tiermem.server.app import create_app
from tiermem.server.settings import ServerSettings

__all__ = ["make_server", "serve"]


def make_server(settings: ServerSettings) -> uvicorn.Server:
    """A uvicorn server for the app; its own access log is off (the app writes one JSON line per request)."""
    config = uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
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
