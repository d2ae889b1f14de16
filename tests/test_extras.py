"""The framework adapters are extras: the base package and the command line never import a framework."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FRAMEWORKS = ("langgraph", "langchain_core", "agents", "openai")
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

_REPORT = f"import json, sys; print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(FRAMEWORKS)!r})))"


def _loaded(code: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code + "\n" + _REPORT], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_import_tiermem_and_its_public_names_load_no_framework() -> None:
    code = "import tiermem\nfor name in tiermem.__all__: getattr(tiermem, name)"
    assert _loaded(code) == []


def test_tiermem_help_loads_no_framework() -> None:
    code = (
        "import sys\nfrom tiermem.cli import main\nsys.argv = ['tiermem', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    assert _loaded(code) == []


def test_the_agent_loop_and_tools_load_no_framework() -> None:
    assert _loaded("import tiermem.agent.loop, tiermem.agent.tools, tiermem.integrations") == []


@pytest.mark.parametrize(("module", "framework"), [("langgraph", "langgraph"), ("openai_agents", "agents")])
def test_each_adapter_loads_its_own_framework_only_when_imported(module: str, framework: str) -> None:
    pytest.importorskip(framework)
    assert framework in _loaded(f"import tiermem.integrations.{module}")


def test_the_extras_are_declared_in_pyproject() -> None:
    text = PYPROJECT.read_text(encoding="utf-8")
    assert 'langgraph = ["langgraph>=' in text
    assert 'openai-agents = ["openai-agents>=' in text
