"""Shared fixtures: deterministic embedder, fresh in-memory stores, the real model for tests marked slow."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # lets tests import store_contract
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI does; numpy is not imported yet here

from pg_fixtures import pg_server  # noqa: F401  (the session's PostgreSQL server, for any test that asks)
from tiermem.context import lease as lease_module
from tiermem.embed import HashingEmbedder, MiniLMEmbedder
from tiermem.memory import Memory
from tiermem.store.sqlite.connect import is_open_here
from ui_browser import browser, page, served  # noqa: F401  (the inspector's browser tests: see ui_browser)

_OPENED_LIVE_FILES: list[str] = []
_LOG_SUFFIXES = ("-wal", "-shm", "-journal")


def _watch_database_files(event: str, args: tuple[object, ...]) -> None:
    """Note every open(), in any thread, of a database file (or its log) that this process has a store on."""
    if event != "open" or not args or not isinstance(args[0], str | bytes | os.PathLike):
        return
    name = os.fsdecode(args[0])  # type: ignore[arg-type]
    for suffix in _LOG_SUFFIXES:
        name = name.removesuffix(suffix)
    if is_open_here(name):
        _OPENED_LIVE_FILES.append(os.fsdecode(args[0]))  # type: ignore[arg-type]


sys.addaudithook(_watch_database_files)


@pytest.fixture(autouse=True)
def _no_code_opens_a_live_database_file() -> Iterator[None]:
    """Fails a test during which anything but SQLite opened a database file this process had open: closing
    that descriptor would drop the process's SQLite locks (they are per process, POSIX advisory locks)."""
    _OPENED_LIVE_FILES.clear()
    yield
    opened, _OPENED_LIVE_FILES[:] = list(_OPENED_LIVE_FILES), []
    assert not opened, f"opened while a store had them open: {sorted(set(opened))}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that takes the real model (``minilm`` or ``real``) is slow: ``-m "not slow"`` leaves it out."""
    for item in items:
        if {"minilm", "real"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _real_model_only_when_marked_slow(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading the real model fails a test that is not marked slow, so the mark cannot go stale."""
    if request.node.get_closest_marker("slow") is None:

        def refuse(self: MiniLMEmbedder) -> None:
            pytest.fail(f"{request.node.nodeid} loads the real model: mark it @pytest.mark.slow")

        monkeypatch.setattr(MiniLMEmbedder, "_load", refuse)


@pytest.fixture(params=["sqlite", "postgres"])
def url_on_both_stores(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh SQLite file's path, then a fresh PostgreSQL schema's URL: a test run once on each store."""
    if request.param == "sqlite":
        return str(tmp_path / "both.db")
    return str(request.getfixturevalue("pg_server").schema_url("both"))


@pytest.fixture
def compressed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn leases of a fraction of a second, so that expiry and renewal happen within a test (the floor is 1 s)."""
    monkeypatch.setattr(lease_module, "MIN_LEASE", timedelta(milliseconds=50))


@pytest.fixture
def mem() -> Iterator[Memory]:
    memory = Memory.open(":memory:", embedder=HashingEmbedder())
    yield memory
    memory.close()


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    """The real default model, loaded once for the whole run."""
    return MiniLMEmbedder()


@pytest.fixture
def real(minilm: MiniLMEmbedder) -> Iterator[Memory]:
    with Memory.open(":memory:", embedder=minilm) as memory:
        yield memory
