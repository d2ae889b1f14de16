"""Shared fixtures: deterministic embedder, fresh in-memory stores."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # lets tests import store_contract
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the CLI does; numpy is not imported yet here

from tiermem.embed import HashingEmbedder
from tiermem.memory import Memory


@pytest.fixture
def mem() -> Iterator[Memory]:
    memory = Memory.open(":memory:", embedder=HashingEmbedder())
    yield memory
    memory.close()
