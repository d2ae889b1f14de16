"""Hostile input: schemathesis fuzzes every operation of the OpenAPI schema against a real server.

Bounded for CI (10 examples an operation, a fixed seed); docs/service.md gives the longer command. Zero 5xx and
zero responses that break the schema (status codes, content types, bodies) are required.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fake_openai import FakeOpenAI
from live_server import live_server
from tiermem.server.settings import RateLimit

CHECKS = "not_a_server_error,response_schema_conformance,content_type_conformance,status_code_conformance"


CLI = shutil.which("schemathesis", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(CLI is None, reason="schemathesis is not installed (the dev extra has it)")
def test_schemathesis_finds_no_server_error_and_no_schema_violation(tmp_path: Path) -> None:
    assert CLI is not None
    model = FakeOpenAI().start()  # the chat route needs a model: one that answers every fuzzed turn
    for _ in range(500):
        model.reply("Noted.")
    llm = {"llm_url": model.base_url, "llm_model": "fuzz-model"}
    with model, live_server(tmp_path / "fuzz.db", rate=RateLimit(per_second=0), **llm) as server:
        admin = server.key("acme", None, "admin")  # an admin may name any user: fewer cases end in 403
        run = subprocess.run(
            [CLI, "run", f"{server.url}/openapi.json", "-H", f"Authorization: Bearer {admin}", "--checks", CHECKS,
             "--max-examples", "10", "--phases", "examples,fuzzing", "--seed", "1", "-w", "1", "--no-color"],
            capture_output=True, text=True, timeout=600, cwd=tmp_path,
        )  # fmt: skip
        statuses = [line["status"] for line in server.log_lines()]
    assert run.returncode == 0, run.stdout[-4000:]
    assert statuses and max(statuses) < 500
    assert model.chat_requests, "the chat route was never reached with a valid turn"
