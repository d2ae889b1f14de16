"""The official MCP Inspector's CLI lists everything tiermem serves, over stdio and HTTP, without an error.

It needs Node 22 and the Inspector from the npm registry, which the suite never downloads: the test runs when
$MCP_INSPECTOR_DIR names a folder where ``scripts/mcp_inspector_check.sh`` installed them (run the script once
with INSPECTOR_DIR set to that folder), and is skipped otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSPECTOR_DIR = os.environ.get("MCP_INSPECTOR_DIR", "")
INSTALLED = bool(INSPECTOR_DIR) and (Path(INSPECTOR_DIR) / "node_modules" / ".bin" / "inspector").exists()


@pytest.mark.skipif(not INSTALLED, reason="set MCP_INSPECTOR_DIR to a folder the inspector check script installed")
def test_the_mcp_inspector_lists_tools_resources_templates_and_prompts_over_stdio_and_http() -> None:
    env = {
        **os.environ,
        "INSPECTOR_DIR": INSPECTOR_DIR,
        "PYTHON": sys.executable,
        "TIERMEM": str(Path(sys.executable).parent / "tiermem"),
    }
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "mcp_inspector_check.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for transport in ("stdio", "http"):
        for method in ("tools/list", "resources/list", "resources/templates/list", "prompts/list", "tools/call"):
            assert any(line.split()[:2] == [transport, method] for line in lines), (transport, method)
    assert "NO HINTS" not in done.stdout and lines[-1] == "all checks passed"
