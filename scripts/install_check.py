"""Smoke test of an installed tiermem (run from a clean venv): the other numpy kept, the model loads, recall works."""

import sys
import tempfile
from pathlib import Path

import numpy

from tiermem import Memory, Scope

expected = sys.argv[1]
if numpy.__version__ != expected:
    sys.exit(f"install-check: pip replaced numpy {expected} with {numpy.__version__}")
with tempfile.TemporaryDirectory() as folder, Memory.open(str(Path(folder) / "m.db")) as memory:
    scope = Scope("acme", "alice")
    memory.remember(scope, "My bicycle is a green road bike.")
    memory.remember(scope, "The office closes at six on Fridays.")
    hits = memory.recall(scope, "what colour is my bike?", k=1)
    if not hits or "bicycle" not in hits[0].record.content:
        sys.exit(f"install-check: recall returned {hits!r}")
print(f"install-check: ok (numpy {numpy.__version__}, tiermem from {Path(sys.modules['tiermem'].__file__).parent})")
