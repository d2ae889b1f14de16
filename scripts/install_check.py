"""Smoke test of an installed tiermem (run from a clean venv): the other numpy kept, the model loads, recall works.

Run from the checkout: the installed package must also hold every data file the source tree has (migrations of
both stores, the inspector's templates), which an editable install would not notice missing.
"""

import sys
import tempfile
from importlib import resources
from pathlib import Path

import numpy

from tiermem import Memory, Scope

expected = sys.argv[1]
if numpy.__version__ != expected:
    sys.exit(f"install-check: pip replaced numpy {expected} with {numpy.__version__}")
source = Path("src/tiermem")
data = [
    p.relative_to(source)
    for p in source.rglob("*")
    if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
]
installed = resources.files("tiermem")
missing = [str(name) for name in data if not installed.joinpath(*name.parts).is_file()]
if missing:
    sys.exit(f"install-check: the installed package lacks {len(missing)} data files, e.g. {missing[:3]}")
with tempfile.TemporaryDirectory() as folder, Memory.open(str(Path(folder) / "m.db")) as memory:
    scope = Scope("acme", "alice")
    memory.remember(scope, "My bicycle is a green road bike.")
    memory.remember(scope, "The office closes at six on Fridays.")
    hits = memory.recall(scope, "what colour is my bike?", k=1)
    if not hits or "bicycle" not in hits[0].record.content:
        sys.exit(f"install-check: recall returned {hits!r}")
print(f"install-check: ok (numpy {numpy.__version__}, tiermem from {Path(sys.modules['tiermem'].__file__).parent})")
