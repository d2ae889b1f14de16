"""The isolation proofs through the REST API, on SQLite and on PostgreSQL: one live server per store and module.

``TestHttpIsolation`` runs the whole ``IsolationContract`` with a ``RemoteParties`` target (each call made with
the credential of the scope it names, fresh tenants per example). The properties below it cover what only the
service has: another party's id must answer exactly like a made-up one on every route that takes an id, and
core blocks, session messages and held writes never cross.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import pytest

from isolation_contract import IsolationContract, IsolationTarget, with_examples
from live_server import STORES, LiveServer, database_url, live_server
from remote_parties import RemoteParties
from tiermem.memory import Memory
from tiermem.server.settings import RateLimit


@pytest.fixture(scope="module", params=STORES)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server per store for the module; every example makes its own tenants on it."""
    db = database_url(request, tmp_path_factory.mktemp("isohttp"), request.param)
    with live_server(db, rate=RateLimit(per_second=0), synchronous="NORMAL") as running:
        yield running


EXAMPLES = 4  # per property and store: an example is some fifty requests


@with_examples(EXAMPLES)
class TestHttpIsolation(IsolationContract):
    live: LiveServer

    @pytest.fixture(autouse=True, scope="class")
    @classmethod
    def _live(cls, server: LiveServer) -> None:
        cls.live = server

    def make_target(self) -> IsolationTarget:
        return IsolationTarget(cast(Memory, RemoteParties(self.live)))
