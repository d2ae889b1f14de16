"""Shared fixtures: deterministic embedder, fresh in-memory stores."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # lets tests import store_contract

from tiermem.embed import HashingEmbedder
from tiermem.memory import Memory


@pytest.fixture
def mem() -> Iterator[Memory]:
    memory = Memory.open(":memory:", embedder=HashingEmbedder())
    yield memory
    memory.close()
