"""Run LangGraph's own store test suites against ``TiermemStore``; not part of ``make test`` (it fetches them).

    .venv/bin/python scripts/langgraph_suites.py [--work build/langgraph-suites] [-k EXPR]

Fetches with pip the source distributions of ``langgraph-checkpoint`` (the installed version; its tests hold the
``InMemoryStore`` suite) and ``langgraph-checkpoint-sqlite`` (``SQLITE_VERSION``: the ``SqliteStore``,
``AsyncSqliteStore`` and TTL suites), which ship their tests; installs what those tests import beside them
(``--target``: this venv is left as it is); swaps, in copies of the suites, only the construction of the store
for ``scripts/langgraph_suites_harness.py`` (a ``TiermemStore`` on a fresh tiermem database per store); runs them
with this venv's Python and prints what passed. ``EXCLUDED`` names the tests that examine the SQLite store's own
internals, and why.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
SQLITE_VERSION = "3.1.2"
# What the suites import or need to run (pinned: the counts below were measured with these).
TEST_PACKAGES = (
    f"langgraph-checkpoint-sqlite=={SQLITE_VERSION}",  # the excluded tests import its private helpers
    "aiosqlite==0.22.1",
    "sqlite-vec==0.1.9",
    "pytest-asyncio==1.5.0",
    "pytest-mock==3.17.0",
    "pytest-retry==1.7.0",
)
# (package directory, test file, the swaps: each text must occur once in the file).
SUITES = (
    (
        "checkpoint",
        "tests/test_store.py",
        (("from langgraph.store.memory import InMemoryStore", "from langgraph_suites_harness import InMemoryStore"),),
    ),
    (
        "sqlite",
        "tests/test_store.py",
        (("from langgraph.store.sqlite import SqliteStore", "from langgraph_suites_harness import SqliteStore"),),
    ),
    (
        "sqlite",
        "tests/test_async_store.py",
        (
            (
                "from langgraph.store.sqlite import AsyncSqliteStore",
                "from langgraph_suites_harness import AsyncSqliteStore",
            ),
        ),
    ),
    (
        "sqlite",
        "tests/test_ttl.py",
        (
            ("from langgraph.store.sqlite import SqliteStore", "from langgraph_suites_harness import SqliteStore"),
            (
                "from langgraph.store.sqlite.aio import AsyncSqliteStore",
                "from langgraph_suites_harness import AsyncSqliteStore",
            ),
        ),
    ),
)
EXCLUDED = {  # "package directory/test id": why
    "sqlite/tests/test_store.py::test_vector_store_initialization": "reads the SQLite store's connection, tables",
    "sqlite/tests/test_store.py::test_nonnull_migrations": "checks the SQLite store's migration statements",
    "sqlite/tests/test_store.py::test_escape_glob_literal": "tests a private SQL helper; no store",
    "sqlite/tests/test_store.py::test_namespace_match_pattern": "tests a private SQL helper; no store",
    "sqlite/tests/test_store.py::test_list_namespaces_prefix_uses_indexable_condition": "reads the store's SQL",
    "sqlite/tests/test_store.py::test_sql_injection_vulnerability": (
        "wants the SQL builder's refusal of a filter key that is not a JSON-path name; the adapter builds no SQL"
        " from filter keys, so a key is only a name to look up"
    ),
    "sqlite/tests/test_async_store.py::test_no_running_loop": (
        "the async SQLite store's sync methods hop onto its event loop and so refuse to run on it; tiermem's"
        " core is synchronous, its sync methods run on any thread"
    ),
}


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    subprocess.run([str(c) for c in command], check=True, cwd=cwd, env=env)


def fetch(work: Path) -> dict[str, Path]:
    """The two source distributions, unpacked; the test packages in ``work/site`` with the harness."""
    dist, site = work / "dist", work / "site"
    versions = {"checkpoint": ("langgraph-checkpoint", metadata.version("langgraph-checkpoint"))}
    versions["sqlite"] = ("langgraph-checkpoint-sqlite", SQLITE_VERSION)
    roots: dict[str, Path] = {}
    pip = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
    for name, (package, version) in versions.items():
        run(*pip, "download", "--no-deps", "--no-binary", ":all:", "-d", dist, f"{package}=={version}")
        archive = dist / f"{package.replace('-', '_')}-{version}.tar.gz"
        with tarfile.open(archive) as tar:
            tar.extractall(work / "src", filter="data")
        roots[name] = work / "src" / archive.name.removesuffix(".tar.gz")
    run(*pip, "install", "--upgrade", "--no-deps", "--target", site, *TEST_PACKAGES)
    shutil.copy(HERE / "langgraph_suites_harness.py", site)
    return roots


def swap(path: Path, swaps: tuple[tuple[str, str], ...]) -> None:
    """Swap each store import for the harness's (from the pristine copy, so a second run does the same)."""
    pristine = path.with_suffix(".orig")
    if not pristine.exists():
        shutil.copy(path, pristine)
    text = pristine.read_text(encoding="utf-8")
    for old, new in swaps:
        if text.count(old) != 1:
            raise SystemExit(f"{path}: expected one {old!r}; the suite changed, update SUITES")
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def summary(output: str) -> str:
    """pytest's closing line (passed, failed, deselected...)."""
    lines = [line.strip("= ") for line in output.splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    return lines[-1] if lines else "no tests ran"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=HERE.parent / "build" / "langgraph-suites")
    parser.add_argument("-k", dest="keyword", help="only the tests pytest's -k selects")
    args = parser.parse_args()
    work = args.work.resolve()
    roots = fetch(work)
    env = {**os.environ, "PYTHONPATH": str(work / "site")}
    lines = []
    failed = False
    for name, test_file, swaps in SUITES:
        root = roots[name]
        swap(root / test_file, swaps)
        deselect = [f"--deselect={t.partition('/')[2]}" for t in EXCLUDED if t.startswith(f"{name}/{test_file}::")]
        selected = ["-k", args.keyword] if args.keyword else []
        options = ["-q", "-p", "no:cacheprovider", "-o", "addopts=", "-o", "asyncio_mode=auto", "-rfE"]
        result = subprocess.run(
            [sys.executable, "-m", "pytest", test_file, *options, *deselect, *selected],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
        )
        print(result.stdout, result.stderr, sep="\n")
        lines.append(f"{name} {test_file}: {summary(result.stdout)}")
        failed = failed or result.returncode != 0
    print("\n".join(lines))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
