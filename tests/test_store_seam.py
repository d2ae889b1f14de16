"""The store is one seam: only ``store/`` knows a driver or a backend, and the backends do not import each other.

Read from the source, so a module that opens a database itself, or tells a SQLite store from a PostgreSQL one,
fails here whatever it does at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tiermem"
STORE = PACKAGE / "store"
DRIVERS = ("sqlite3", "psycopg", "psycopg_pool", "pgvector")
BACKENDS = ("tiermem.store.sqlite", "tiermem.store.postgres")
BACKEND_CLASSES = ("SQLiteStore", "PostgresStore")


def _imported(tree: ast.AST) -> list[str]:
    """Every module a source imports, at any depth, with each name taken from it (``a.b`` and ``a.b.c``)."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return found


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(f"{p}.") for p in packages)


def driver_imports(source: str) -> list[str]:
    """The database drivers a source imports."""
    return sorted({n for n in _imported(ast.parse(source)) if _within(n, DRIVERS)})


def backend_checks(source: str) -> list[str]:
    """What in a source tells one backend from another: a backend imported, a backend class named (as a name, an
    attribute or a string), or a class's ``__name__`` compared."""
    tree = ast.parse(source)
    found = {n for n in _imported(tree) if _within(n, BACKENDS)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in BACKEND_CLASSES:
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in BACKEND_CLASSES:
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in BACKEND_CLASSES:
            found.add(repr(node.value))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "__name__" for s in sides):
                found.add(f"a __name__ compared on line {node.lineno}")
    return sorted(found)


def _outside_store() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if STORE not in p.parents)


def _label(path: Path) -> str:
    return str(path.relative_to(PACKAGE))


@pytest.mark.parametrize("path", _outside_store(), ids=_label)
def test_no_module_outside_the_store_imports_a_database_driver(path: Path) -> None:
    found = driver_imports(path.read_text(encoding="utf-8"))
    assert not found, f"{_label(path)} imports {found}: go through the store (tiermem.store) instead"


@pytest.mark.parametrize("path", _outside_store(), ids=_label)
def test_no_module_outside_the_store_tells_one_backend_from_another(path: Path) -> None:
    found = backend_checks(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{_label(path)} knows a backend ({found}): open stores with tiermem.store.open_store and add what it needs"
        " to the store protocol"
    )


@pytest.mark.parametrize("path", sorted((STORE / "postgres").rglob("*.py")), ids=_label)
def test_the_postgresql_store_imports_nothing_of_the_sqlite_store_nor_sqlite(path: Path) -> None:
    imported = _imported(ast.parse(path.read_text(encoding="utf-8")))
    found = sorted({n for n in imported if _within(n, ("tiermem.store.sqlite", "sqlite3"))})
    assert not found, f"{_label(path)} imports {found}: share it through a neutral module under store/"


@pytest.mark.parametrize("path", sorted((STORE / "sqlite").rglob("*.py")), ids=_label)
def test_the_sqlite_store_imports_nothing_of_the_postgresql_store(path: Path) -> None:
    found = sorted({n for n in _imported(ast.parse(path.read_text(encoding="utf-8"))) if _within(n, BACKENDS[1:])})
    assert not found, f"{_label(path)} imports {found}: share it through a neutral module under store/"


@pytest.mark.parametrize(
    "source",
    [
        "import sqlite3",
        "def f():\n    from psycopg import sql",
        "import psycopg.errors as e",
    ],
)
def test_the_driver_check_finds_an_import_at_any_depth(source: str) -> None:
    assert driver_imports(source)


@pytest.mark.parametrize(
    "source",
    [
        "from tiermem.store.sqlite import find_bytes",
        "def f(s):\n    from tiermem.store import postgres",
        "def f(s):\n    return isinstance(s, store.SQLiteStore)",
        "def f(s):\n    return type(s).__name__ == 'PostgresStore'",
        "def f(s):\n    return 'Postgres' in s.__class__.__name__",
    ],
)
def test_the_backend_check_finds_each_way_of_telling_backends_apart(source: str) -> None:
    assert backend_checks(source)


def test_the_backend_check_lets_a_class_name_be_shown() -> None:
    assert backend_checks("raise ConfigError(f'{type(store).__name__} keeps no core memory')") == []
