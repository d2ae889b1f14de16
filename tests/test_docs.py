"""README and docs/: every code block runs (Python executed, shell with bash), and every name they cite exists."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DATA = ROOT.parent / "shared" / "data"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
EXECUTED = {"python", "bash"}
SHOWN = {"text", "json"}  # diagrams, command output, configuration files: read, not run (test_mcp loads JSON)

# Commands that take minutes at the documented size run here on a few items (evaluations with the hashing
# embedder: the real model's figures are docs/benchmarks.md's business): the same command line otherwise.
_SHORTER = [
    (re.compile(r"^(tiermem eval (locomo|longmemeval|update) .*)$"), r"\1 --limit 2 --embedder hash"),
    (re.compile(r"--records 100000 --scopes 1000"), "--records 300 --scopes 3 --queries 10 --embed-sample 32"),
    (re.compile(r"--write-path --records 100000"), "--write-path --records 300 --queries 10 --embed-sample 32"),
]


def _blocks() -> list[tuple[str, int, str, str]]:
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((path.relative_to(ROOT).as_posix(), line, match.group(1), match.group(2)))
    return found


BLOCKS = _blocks()
_IDS = [f"{name}:{line}" for name, line, _, _ in BLOCKS]


def test_every_code_block_says_its_language() -> None:
    unknown = [f"{name}:{line} ```{lang}" for name, line, lang, _ in BLOCKS if lang not in EXECUTED | SHOWN]
    assert not unknown, f"fence each block as python, bash (both run by this test) or text: {unknown}"


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["HOME"] = str(home)  # the default database and caches go into the test's folder
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("TIERMEM_DB", None)
    return env


@pytest.mark.slow
@pytest.mark.parametrize(("name", "line", "lang", "code"), [b for b in BLOCKS if b[2] == "python"], ids=lambda v: "")
def test_python_block_runs(name: str, line: int, lang: str, code: str, tmp_path: Path) -> None:
    env = _env(tmp_path)
    with FakeOpenAI() as server:
        # A block that talks to a model gets a local imitation of the OpenAI API: a memory tool call, then a reply.
        server.reply_tool_calls([("archival_memory_insert", {"content": "The user's dog is called Biscuit."})])
        server.reply("Noted: your dog is called Biscuit.")
        env["OPENAI_BASE_URL"] = server.base_url
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
    assert result.returncode == 0, f"{name}:{line} failed:\n{result.stdout}\n{result.stderr}"


def _runnable(code: str) -> str:
    lines = []
    for raw in code.splitlines():
        command = raw.split("  #", 1)[0].rstrip()
        for pattern, replacement in _SHORTER:
            command = pattern.sub(replacement, command)
        lines.append(command)
    return "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "line", "lang", "code"), [b for b in BLOCKS if b[2] == "bash"], ids=lambda v: "")
def test_shell_block_runs(name: str, line: int, lang: str, code: str, tmp_path: Path) -> None:
    commands = [c for c in code.splitlines() if c.strip()]
    make = [c for c in commands if c.startswith("make ")]
    if make:
        # `make test` cannot run inside the test suite; CI runs both targets from a fresh clone.
        makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
        for command in make:
            target = shlex.split(command.split("#", 1)[0])[1]
            assert re.search(rf"^{target}:", makefile, re.M), f"{name}:{line}: no make target {target!r}"
        assert len(make) == len(commands), f"{name}:{line}: keep make commands in a block of their own"
        return
    env = _env(tmp_path)
    if "$DATA" in code:
        if not DATA.is_dir():
            pytest.skip(f"{name}:{line} reads the evaluation data, absent beside this checkout")
        env["DATA"] = str(DATA)
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", _runnable(code)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"{name}:{line} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    assert "Traceback" not in result.stderr


_DOTTED = re.compile(r"`(tiermem(?:\.\w+)+)")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def test_every_dotted_name_in_the_docs_exists() -> None:
    names = {(path.name, m.group(1)) for path in DOCS for m in _DOTTED.finditer(path.read_text(encoding="utf-8"))}
    missing = sorted(f"{doc}: {name}" for doc, name in names if not _resolves(name))
    assert not missing, f"the docs name what the code does not have: {missing}"


def test_cli_reference_is_current() -> None:
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "scripts" / "cli_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    current = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert current == module.render(), "docs/cli.md is stale: run `.venv/bin/python scripts/cli_reference.py`"


_COMMIT = re.compile(r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w-])")
_OUTSIDE = re.compile(r"DESIGN\.md|STYLE\.md|/work/|\.\./shared")


def test_docs_name_no_commit_and_no_file_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT).as_posix()}: {m.group(0)}"
        for path in DOCS
        for pattern in (_COMMIT, _OUTSIDE)
        for m in pattern.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"a reader has neither our commits nor our machine's files; say the thing itself: {found}"
