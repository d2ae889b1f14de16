"""Shared fixtures: deterministic embedder, fresh in-memory stores."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # lets tests import store_contract
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI does; numpy is not imported yet here

from tiermem.embed import HashingEmbedder, MiniLMEmbedder
from tiermem.memory import Memory


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
