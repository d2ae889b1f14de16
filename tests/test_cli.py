"""The command line: every command documented and working, errors mapped to exit codes, the README true."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from fake_openai import FakeOpenAI
from tiermem.cli import cli
from tiermem.store.sqlite import SQLiteStore

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture
def run(tmp_path: Path) -> object:
    db = str(tmp_path / "cli.db")
    SQLiteStore(db).close()  # an empty database: only add and import create one (tests/test_cli_errors.py)

    def invoke(*args: str) -> click.testing.Result:
        return CliRunner().invoke(cli, list(args), env={"TIERMEM_DB": db, "TIERMEM_EMBEDDER": "hash"})

    return invoke


def test_every_command_has_help_and_is_in_the_cli_reference() -> None:
    reference = (README.parent / "docs" / "cli.md").read_text()
    assert "docs/cli.md" in README.read_text(), "the README links the command reference"
    for name, command in cli.commands.items():
        assert command.help, f"{name} has no help text"
        assert f"## `tiermem {name}`" in reference, f"docs/cli.md does not document `tiermem {name}`"
        result = CliRunner().invoke(cli, [name, "--help"])
        assert result.exit_code == 0, result.output


def test_help_does_not_import_the_model_or_rich() -> None:
    code = "import sys; from tiermem.cli import main; heavy = {'onnxruntime', 'tokenizers', 'rich', 'tiktoken'}; "
    code += "print(sorted(heavy & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_add_search_get_list_forget_round_trip(run) -> None:  # type: ignore[no-untyped-def]
    added = json.loads(run("add", "--user", "alice", "--json", "My dog is called Biscuit").output)
    assert added["status"] == "added"
    rid = added["record"]["id"]
    again = json.loads(run("add", "--user", "alice", "--json", "my dog is called  Biscuit").output)
    assert again["status"] == "unchanged" and again["record"]["id"] == rid
    hits = json.loads(run("search", "--user", "alice", "--json", "dog name").output)
    assert hits[0]["record"]["id"] == rid
    score_parts = {name for name in hits[0]["parts"] if not name.startswith("relevance:")}  # relevance's evidence
    assert score_parts == {"keyword", "vector", "phrase", "recency", "trust"}
    assert json.loads(run("get", "--user", "alice", "--json", rid).output)["content"] == "My dog is called Biscuit"
    assert len(json.loads(run("list", "--user", "alice", "--json").output)["records"]) == 1
    assert run("forget", "--user", "alice", rid).exit_code == 0
    assert json.loads(run("search", "--user", "alice", "--json", "dog name").output) == []


def test_a_model_served_over_the_openai_api_embeds_by_name(tmp_path: Path) -> None:
    with FakeOpenAI(embedding_dim=16) as server:
        env = {"TIERMEM_DB": str(tmp_path / "served.db"), "TIERMEM_EMBEDDER": "openai:toy-embed"}
        env["TIERMEM_EMBED_URL"] = server.base_url

        def invoke(*args: str) -> click.testing.Result:
            return CliRunner().invoke(cli, list(args), env=env)

        added = json.loads(invoke("add", "--user", "alice", "--json", "My dog is called Biscuit").output)
        hits = json.loads(invoke("search", "--user", "alice", "--json", "dog name").output)
        sent = [r.body["model"] for r in server.requests if r.path == "/v1/embeddings"]
    assert added["record"]["embedding_model"] == "openai:toy-embed-16"
    assert hits[0]["record"]["id"] == added["record"]["id"] and "vector" in hits[0]["parts"]
    assert sent and set(sent) == {"toy-embed"}
    unset: dict[str, str | None] = {**env, "TIERMEM_EMBED_URL": None}  # None: not set, even if the shell sets it
    missing = CliRunner().invoke(cli, ["search", "--user", "alice", "dog"], env=unset)
    assert missing.exit_code == 1 and "TIERMEM_EMBED_URL" in missing.output


def test_other_user_sees_nothing_and_gets_not_found(run) -> None:  # type: ignore[no-untyped-def]
    rid = json.loads(run("add", "--user", "alice", "--json", "alice private").output)["record"]["id"]
    assert json.loads(run("search", "--user", "bob", "--json", "alice private").output) == []
    result = run("get", "--user", "bob", rid)
    assert result.exit_code == 3 and "no record" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "--user", "alice", "-k", "101", "x"], "k: must be an integer from 1 to 100"),
        (["add", "--user", "alice", "--ttl", "0", "x"], "ttl: must be > 0 seconds"),
        (["add", "--user", "a/b", "x"], "user: may hold only"),
        (["add", "--user", "alice", "--type", "dream", "x"], "type: must be one of"),
        (["add", "--user", "alice", "--valid-from", "yesterday", "x"], "valid_from: must be an ISO 8601 time"),
        (["list", "--user", "alice", "--limit", "0"], "limit: must be an integer from 1 to 1000"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message_and_writes_nothing(run, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert json.loads(run("list", "--user", "alice", "--json").output)["records"] == []


def test_export_writes_every_record_of_the_user(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("add", "--user", "alice", "one")
    run("add", "--user", "alice", "two", "--ttl", "5")
    run("add", "--user", "bob", "three")
    out = tmp_path / "alice.json"
    assert run("export", "--user", "alice", "-o", str(out)).exit_code == 0
    data = json.loads(out.read_text())
    assert sorted(r["content"] for r in data["records"]) == ["one", "two"]
