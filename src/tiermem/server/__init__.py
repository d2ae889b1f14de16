"""The service: REST over HTTP with scopes taken from the caller's credential (FastAPI on uvicorn).

``create_app(settings)`` builds the app; ``serve(settings)`` runs it. Imported on first use, so the command
line can manage keys (``tiermem keys``) without loading FastAPI.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'tiermem.server' has no attribute {name!r}")
