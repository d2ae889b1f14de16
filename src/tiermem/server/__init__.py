"""The service: REST over HTTP with scopes taken from the caller's credential (FastAPI on uvicorn).

``create_app(settings)`` builds the app; ``serve(settings)`` runs it. Imported on first use, so the command
line can manage keys (``tiermem keys``) without loading FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tiermem.lazy import lazy_exports

if TYPE_CHECKING:
    from tiermem.server.app import create_app
    from tiermem.server.serve import serve
    from tiermem.server.settings import JWTConfig, Limits, RateLimit, ServerSettings

__all__ = ["JWTConfig", "Limits", "RateLimit", "ServerSettings", "create_app", "serve"]

_HOMES = {
    "create_app": "tiermem.server.app",
    "serve": "tiermem.server.serve",
    "JWTConfig": "tiermem.server.settings",
    "Limits": "tiermem.server.settings",
    "RateLimit": "tiermem.server.settings",
    "ServerSettings": "tiermem.server.settings",
}


__getattr__ = lazy_exports("tiermem.server", _HOMES)
