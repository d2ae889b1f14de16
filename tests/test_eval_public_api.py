"""The benchmark harnesses measure the path users take: they import only public tiermem names."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from test_architecture import PACKAGE, PUBLIC

EVAL = sorted((PACKAGE / "eval").glob("*.py"))
# What a Memory exposes beyond its methods: a harness that reaches into these bypasses the public API.
INTERNALS = {"store", "embedder", "write_policy"}


def _public_module(module: str) -> bool:
    """``tiermem``, an eval module, or a module in the PUBLIC list of test_architecture."""
    if module == "tiermem" or module.startswith("tiermem.eval"):
        return True
    return module.removeprefix("tiermem.").replace(".", "/") + ".py" in PUBLIC


def _tiermem_imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) for each name a file imports from tiermem (name '' for ``import tiermem.x``)."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "tiermem":
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names if alias.name.split(".")[0] == "tiermem"]
    return found


@pytest.mark.parametrize("path", EVAL, ids=lambda p: p.name)
def test_eval_module_imports_only_public_tiermem_names(path: Path) -> None:
    for module, name in _tiermem_imports(path):
        assert _public_module(module), f"eval/{path.name} imports the internal module {module}"
        if name and not module.startswith("tiermem.eval"):
            exported = getattr(importlib.import_module(module), "__all__", ())
            assert name in exported, f"eval/{path.name} imports {name} from {module}, which does not export it"


@pytest.mark.parametrize("path", EVAL, ids=lambda p: p.name)
def test_eval_module_does_not_reach_into_memory_internals(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    reached = sorted({n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in INTERNALS})
    assert not reached, f"eval/{path.name} uses Memory internals {reached}: call the public API instead"


def test_the_check_catches_an_internal_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from tiermem.store.sqlite.store import SQLiteStore\nfrom tiermem.memory import MAX_LIST\n")
    modules = [module for module, _ in _tiermem_imports(probe)]
    assert [_public_module(m) for m in modules] == [False, True]
