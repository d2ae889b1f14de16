"""(internal) The web inspector at /ui: server-rendered pages over the service's own identity and Memory.

``mount(app)`` adds the pages, the static files and the security headers; ``create_app`` calls it.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from tiermem.server.ui import (
    charts,
    context_page,
    memories,
    overview,
    pages,
    record_page,
    review,
    review_queue,
    sessions_page,
)
from tiermem.server.ui.session import UISessions
from tiermem.server.ui.web import HERE, SecurityHeaders

__all__ = ["mount"]


def mount(app: FastAPI) -> None:
    """Serve the inspector under /ui."""
    app.state.ui_sessions = UISessions()
    for module in (pages, overview, memories, record_page, sessions_page, review_queue, review, context_page, charts):
        app.include_router(module.router)
    app.mount("/ui/static", StaticFiles(directory=HERE / "static"), name="ui-static")
    app.add_middleware(SecurityHeaders)
