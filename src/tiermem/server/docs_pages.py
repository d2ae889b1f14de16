"""(internal) ``/docs`` (Swagger UI) from assets installed with the package, never from a CDN.

The script and style come from the ``fastapi-offline`` package (MIT; it carries Swagger UI's release bundle),
served under ``/docs-assets``; the page is FastAPI's own. Nothing is fetched from the network, so the docs work
on a machine without one. No ``/redoc``: its bundle loads its logo from the network. The page is not under
``/ui``, whose strict CSP stays as it is.
"""

from __future__ import annotations

from importlib import resources

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS", "mount"]

ASSETS = "/docs-assets"


def mount(app: FastAPI) -> None:
    """Add ``/docs`` and its assets to ``app`` (made with ``docs_url=None, redoc_url=None``)."""
    folder = resources.files("fastapi_offline") / "static"
    app.mount(ASSETS, StaticFiles(directory=str(folder)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}/openapi.json",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS}/favicon.png",
        )
