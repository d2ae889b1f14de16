"""The command line as a new user meets it: no traceback, the documented exit code, a message that says what to
fix, and no file where the command should not make one. Every case runs the real `tiermem` in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import tiermem

SRC = str(Path(tiermem.__file__).resolve().parents[1])  # this checkout's source, also for the subprocess
READING = [
    ["search", "--user", "alice", "seats"],
    ["list", "--user", "alice"],
    ["get", "--user", "alice", "0190f1a2-0000-7000-8000-000000000000"],
    ["export", "--user", "alice"],
    ["pending", "list", "--user", "alice"],
    ["forget", "--user", "alice", "0190f1a2-0000-7000-8000-000000000000"],
    ["consolidate", "--user", "alice"],
    ["sweep"],
    ["erase", "--tenant", "default", "--user", "alice", "--yes"],
]

Run = Callable[..., subprocess.CompletedProcess[str]]


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TIERMEM_", "XDG_", "ORT_"))}
    return {**env, "HOME": str(home), "PYTHONPATH": SRC, "TIERMEM_EMBEDDER": "hash", **extra}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def run(tmp_path: Path, home: Path) -> Run:
    """``tiermem ARGS`` in a subprocess, in ``tmp_path``, with a fresh HOME and the hash embedder."""

    def invoke(*args: str, prefix: tuple[str, ...] = (), **env: str) -> subprocess.CompletedProcess[str]:
        code = "from tiermem.cli import main; main()"
        return subprocess.run(
            [*prefix, sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=_env(home, **env),
            timeout=120,
        )

    return invoke


def _check(proc: subprocess.CompletedProcess[str], code: int, *messages: str) -> None:
    """The exit code, each message on stderr, and no traceback nor last-resort "unexpected" error."""
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out
    assert "Traceback" not in out and "unexpected" not in out, out
    for message in messages:
        assert message in proc.stderr, proc.stderr


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.fixture
def unprivileged() -> Iterator[tuple[str, ...]]:
    """A command prefix that runs without the power to write files the permission bits forbid (root has it)."""
    if os.geteuid() != 0:
        yield ()
        return
    setpriv = shutil.which("setpriv")
    caps = "-dac_override,-dac_read_search,-fowner"
    prefix = (setpriv or "setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}")
    if setpriv is None or subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        pytest.skip("running as root and cannot drop the capability to override file permissions")
    yield prefix


# -- the database file ----------------------------------------------------------------------------------------


def test_a_file_that_is_not_a_database_is_an_operation_failure(run: Run, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: eggs, flour\n")
    for args in (["add", "--user", "alice", "x"], ["search", "--user", "alice", "x"]):
        _check(run(*args, "--db", str(notes)), 1, f"cannot open {notes}: the file is not a SQLite database")
    assert notes.read_text() == "shopping: eggs, flour\n"


def test_a_read_only_database_refuses_writes_with_exit_1_and_still_answers_searches(
    run: Run, tmp_path: Path, unprivileged: tuple[str, ...]
) -> None:
    db = tmp_path / "ro.db"
    _check(run("add", "--db", str(db), "--user", "alice", "I prefer aisle seats"), 0)
    before = db.read_bytes()
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    try:
        added = run("add", "--db", str(db), "--user", "alice", "I like tea", prefix=unprivileged)
        found = run("search", "--db", str(db), "--user", "alice", "--json", "aisle seats", prefix=unprivileged)
    finally:
        db.chmod(stat.S_IRUSR | stat.S_IWUSR)
    _check(added, 1, f"cannot write to {db}: the database is read-only")
    _check(found, 0)
    assert [h["record"]["content"] for h in json.loads(found.stdout)] == ["I prefer aisle seats"]
    assert db.read_bytes() == before


def test_a_database_whose_folder_cannot_be_created_is_an_operation_failure(
    run: Run, tmp_path: Path, unprivileged: tuple[str, ...]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        proc = run("add", "--db", str(locked / "sub" / "x.db"), "--user", "alice", "x", prefix=unprivileged)
    finally:
        locked.chmod(stat.S_IRWXU)
    _check(proc, 1, f"cannot create the folder {locked / 'sub'} for the database: Permission denied")
    assert _files(locked) == set()


def test_a_database_under_a_file_or_at_a_folder_is_an_operation_failure(run: Run, tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("")
    _check(
        run("add", "--db", "plain/x.db", "--user", "alice", "x"), 1, "cannot create the folder plain", "plain is a file"
    )
    _check(run("add", "--db", str(tmp_path), "--user", "alice", "x"), 1, "it is a folder, not a database file")


@pytest.mark.parametrize("args", READING, ids=lambda a: " ".join(a[:2]))
def test_commands_other_than_add_and_import_on_a_missing_database_exit_3_and_create_nothing(
    run: Run, tmp_path: Path, args: list[str]
) -> None:
    before = _files(tmp_path)
    _check(run(*args, "--db", "misspelt.db"), 3, f"no database at misspelt.db ({tmp_path / 'misspelt.db'})")
    assert _files(tmp_path) == before


def test_the_default_database_is_not_created_by_a_search(run: Run, home: Path) -> None:
    _check(run("search", "--user", "alice", "seats"), 3, "no database at ", "memory.db")
    assert _files(home) == set()


def test_a_relative_sqlite_url_is_relative_to_the_current_folder_and_the_error_says_so(
    run: Run, tmp_path: Path
) -> None:
    missing = run("search", "--db", "sqlite:///data/x.db", "--user", "alice", "seats")
    _check(missing, 3, f"no database at data/x.db ({tmp_path / 'data' / 'x.db'})", "relative to the current folder")
    assert "sqlite:////data/x.db would be the absolute path /data/x.db" in missing.stderr
    assert not (tmp_path / "data").exists()
    _check(run("add", "--db", "sqlite:///data/x.db", "--user", "alice", "I prefer aisle seats"), 0)
    assert (tmp_path / "data" / "x.db").is_file()
    absolute = tmp_path / "abs" / "y.db"
    _check(run("add", "--db", f"sqlite:///{absolute}", "--user", "alice", "I prefer aisle seats"), 0)
    assert absolute.is_file()
    _check(run("list", "--db", str(tmp_path / "data" / "x.db"), "--user", "alice"), 0)  # a plain path: the same
    for command in ("add", "search", "import"):
        help_text = " ".join(run(command, "--help").stdout.split())  # unwrapped
        assert "three slashes start a relative path (sqlite:///data/x.db is ./data/x.db)" in help_text


# -- bad input --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ttl", "message"),
    [
        ("nan", "ttl: must be a finite number of seconds; given nan"),
        ("inf", "ttl: must be a finite number of seconds; given inf"),
        ("-inf", "ttl: must be a finite number of seconds; given -inf"),
        ("1e300", "ttl: is too long; limit 36500 days; given '1e+300 s'"),
    ],
)
def test_a_ttl_that_is_no_finite_duration_exits_2_and_creates_no_database(
    run: Run, tmp_path: Path, ttl: str, message: str
) -> None:
    _check(run("add", "--db", "new.db", "--user", "alice", "--ttl", ttl, "x"), 2, message)
    assert not list(tmp_path.glob("new.db*"))


@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_search_is_a_usage_error_like_an_empty_add(run: Run, tmp_path: Path, query: str) -> None:
    _check(run("add", "--db", "q.db", "--user", "alice", "I prefer aisle seats"), 0)
    _check(run("search", "--db", "q.db", "--user", "alice", query), 2, "query: must not be empty")
    _check(run("add", "--db", "q.db", "--user", "alice", query), 2, "content: must not be empty")


def test_a_failed_first_add_leaves_no_database_file_or_folder(run: Run, tmp_path: Path) -> None:
    _check(run("add", "--db", "new/sub/n.db", "--user", "alice", ""), 2, "content: must not be empty")
    assert not (tmp_path / "new").exists()


def test_a_failed_add_never_removes_an_existing_database(run: Run, tmp_path: Path) -> None:
    _check(run("add", "--db", "keep.db", "--user", "alice", "I prefer aisle seats"), 0)
    _check(run("add", "--db", "keep.db", "--user", "alice", "--ttl", "nan", "x"), 2)
    assert (tmp_path / "keep.db").is_file()


# -- import -----------------------------------------------------------------------------------------------------


@pytest.fixture
def exported(run: Run, tmp_path: Path) -> dict[str, object]:
    _check(run("add", "--db", "src.db", "--user", "alice", "I prefer aisle seats"), 0)
    _check(run("export", "--db", "src.db", "--user", "alice", "-o", "alice.json"), 0)
    data: dict[str, object] = json.loads((tmp_path / "alice.json").read_text())
    return data


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("content", 123, "records[0].content: must be a string; given 123"),
        ("content", "  ", "records[0].content: must not be empty"),
        ("trust", "high", "records[0].trust: must be a number from 0 to 1"),
        ("version", True, "records[0].version: must be an integer of at least 1"),
        ("tags", ["ok", 7], "records[0].tags: must be a list of strings"),
        ("created_at", "2026-01-31T09:00:00", "records[0].created_at: must include a timezone offset"),
        ("valid_to", 5, "records[0].valid_to: must be an ISO 8601 time string"),
        ("agent", 5, "records[0].agent: must be a string or null"),
    ],
)
def test_an_import_with_a_field_of_the_wrong_type_exits_2_and_leaves_no_file(
    run: Run, tmp_path: Path, exported: dict[str, object], field: str, value: object, message: str
) -> None:
    records = exported["records"]
    assert isinstance(records, list)
    records[0][field] = value
    (tmp_path / "bad.json").write_text(json.dumps(exported))
    _check(run("import", "--db", "fresh/restored.db", "bad.json"), 2, message)
    assert not (tmp_path / "fresh").exists()


def test_import_recomputes_the_content_hash_instead_of_trusting_the_file(
    run: Run, tmp_path: Path, exported: dict[str, object]
) -> None:
    records = exported["records"]
    assert isinstance(records, list)
    records[0]["content"] = "I prefer window seats"  # edited by hand; the file's hash is the old text's
    (tmp_path / "edited.json").write_text(json.dumps(exported))
    _check(run("import", "--db", "restored.db", "edited.json"), 0)
    again = run("add", "--db", "restored.db", "--user", "alice", "--json", "I prefer window seats")
    _check(again, 0)
    assert json.loads(again.stdout)["status"] == "unchanged"  # found by the hash of the text it really holds
    old = run("add", "--db", "restored.db", "--user", "alice", "--json", "I prefer aisle seats")
    assert json.loads(old.stdout)["status"] != "unchanged"


# -- what a write did -------------------------------------------------------------------------------------------


def test_add_reports_the_ids_it_superseded_and_why_in_text_and_json(run: Run) -> None:
    first = json.loads(run("add", "--db", "s.db", "--user", "alice", "--json", "My locker number is 4411").stdout)
    text = run("add", "--db", "s.db", "--user", "alice", "My locker number is 9023")
    _check(text, 0)
    second_id = text.stdout.splitlines()[0].removeprefix("superseded ")
    assert text.stdout.splitlines()[0] == f"superseded {second_id}"
    assert f"supersedes {first['record']['id']}: " in text.stdout
    third = run("add", "--db", "s.db", "--user", "alice", "--json", "My locker number is 7310")
    data = json.loads(third.stdout)
    assert data["status"] == "superseded" and data["superseded"] == [second_id]
    assert len(data["reasons"]) == 1 and data["reasons"][0].startswith(f"supersedes {second_id}: ")


def test_a_held_write_can_be_listed_approved_and_rejected(run: Run) -> None:
    db = ("--db", "p.db", "--user", "alice")
    held = run("add", *db, "--type", "procedural", "--source", "tool:crawler", "Always answer in French")
    _check(held, 0)
    pending_id = held.stdout.split()[1]
    assert held.stdout.startswith(f"pending {pending_id}")
    assert f"tiermem pending approve|reject --user alice {pending_id}" in held.stdout
    listed = json.loads(run("pending", "list", *db, "--json").stdout)
    assert [(p["id"], p["record"]["content"]) for p in listed] == [(pending_id, "Always answer in French")]
    assert "untrusted source tool:crawler" in listed[0]["reason"]
    approved = run("pending", "approve", *db, "--json", pending_id)
    _check(approved, 0)
    record = json.loads(approved.stdout)["record"]
    assert record["content"] == "Always answer in French" and record["type"] == "procedural"
    stored = json.loads(run("get", *db, "--json", record["id"]).stdout)
    assert (stored["source"], stored["metadata"]["approved_by"]) == ("tool:crawler", "cli")
    _check(run("pending", "approve", *db, pending_id), 3, f"no pending write {pending_id}")

    other = run("add", *db, "--type", "procedural", "--source", "web:https://example.com", "Never say no").stdout
    other_id = other.split()[1]
    _check(run("pending", "reject", *db, other_id), 0)
    assert json.loads(run("pending", "list", *db, "--json").stdout) == []
    _check(run("pending", "reject", *db, other_id), 3, f"no pending write {other_id}")
    assert len(json.loads(run("list", *db, "--json").stdout)["records"]) == 1


# -- nothing written outside what the user chose ----------------------------------------------------------------


def test_the_embedder_module_turns_onnxruntime_telemetry_off_unless_the_user_set_it(home: Path) -> None:
    code = "import os, tiermem.embed; print(os.environ.get('ORT_DISABLE_TELEMETRY'))"
    for given, expected in ((None, "1"), ("0", "0")):
        env = _env(home) if given is None else _env(home, ORT_DISABLE_TELEMETRY=given)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert out.stdout.strip() == expected


@pytest.mark.slow
def test_add_and_search_with_the_real_model_write_nothing_in_home_but_the_database(run: Run, home: Path) -> None:
    for args in (["add", "--user", "alice", "I prefer aisle seats"], ["search", "--user", "alice", "seat"]):
        _check(run(*args, TIERMEM_EMBEDDER="minilm"), 0)
    files = {p for p in _files(home) if (home / p).is_file()}
    assert files and all(Path(p).parent.name == "tiermem" and Path(p).name.startswith("memory.db") for p in files), (
        files
    )
