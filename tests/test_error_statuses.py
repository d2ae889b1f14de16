"""The API and the inspector answer each library error with the same HTTP status, over a real loopback server."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from fastapi import APIRouter, FastAPI

from tiermem.errors import (
    AccessError,
    ConfigError,
    ConflictError,
    EmbeddingError,
    EmbeddingMismatchError,
    LLMError,
    MemError,
    MigrationError,
    NotFoundError,
    RateLimitError,
    ScopeError,
    StorageFullError,
    StoreError,
    ValidationError,
)
from tiermem.server import problems
from tiermem.server.ui.session import UISessions
from tiermem.server.ui.web import UIRoute

SECRET = "postgresql://owner:hunter2@db.internal/tiermem"
ERRORS: dict[str, MemError] = {
    "validation": ValidationError("content", "too long", given=9000, limit=8000),
    "scope": ScopeError("user", "empty", given=""),
    "unauthenticated": AccessError("no credential"),
    "forbidden": AccessError("not yours", authenticated=True),
    "not-found": NotFoundError("no record r1"),
    "conflict": ConflictError("changed meanwhile"),
    "embedding-mismatch": EmbeddingMismatchError("dimensions differ"),
    "rate-limited": RateLimitError("slow down", retry_after=2.5),
    "llm": LLMError("the model failed"),
    "storage-full": StorageFullError("disk full"),
    "store": StoreError(f"cannot reach {SECRET}"),
    "embedding": EmbeddingError("the embedder is down"),
    "migration": MigrationError(f"schema of {SECRET} is newer"),
    "config": ConfigError(f"bad setting {SECRET}"),
    "other": MemError(f"unexpected {SECRET}"),
}


def _raise(name: str) -> None:
    raise ERRORS[name]


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    """The URL of an app whose /v1/raise/<name> and /ui/raise/<name> both raise ERRORS[name]."""
    app = FastAPI()
    app.state.ui_sessions = UISessions()
    problems.install(app)
    app.add_api_route("/v1/raise/{name}", _raise)
    ui = APIRouter(prefix="/ui", route_class=UIRoute)
    ui.add_api_route("/raise/{name}", _raise)
    app.include_router(ui)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(timeout=30)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_the_api_and_the_inspector_answer_an_error_with_the_same_status(base: str, name: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        api = client.get(f"/v1/raise/{name}")
        page = client.get(f"/ui/raise/{name}")
    assert api.status_code == page.status_code == problems.status_for(ERRORS[name])
    assert api.headers["content-type"] == problems.MEDIA_TYPE
    assert page.headers["content-type"].startswith("text/html")
    assert api.json()["status"] == page.status_code


def test_the_inspector_page_shows_no_more_of_a_server_error_than_the_api(base: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        for name in ("store", "migration", "config", "other"):
            api = client.get(f"/v1/raise/{name}")
            page = client.get(f"/ui/raise/{name}")
            assert SECRET not in api.text and "hunter2" not in page.text and "db.internal" not in page.text
            assert api.json()["detail"].split(";")[0] in page.text.replace("&#39;", "'")
