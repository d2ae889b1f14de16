"""Foreign errors become tiermem errors where they arise: the store's driver errors, the TTL arithmetic, a bad
record in a file. Callers (the CLI, a server) then only ever see the MemError tree."""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path

import pytest

from tiermem.embed import HashingEmbedder
from tiermem.errors import NotFoundError, StoreError, ValidationError
from tiermem.lifecycle.history import record_from_json
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import Scope

ALICE = Scope("acme", "alice")


def test_opening_without_create_a_missing_file_is_not_found_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match=r"no database at .*nowhere\.db"):
        open_store(tmp_path / "sub" / "nowhere.db", create=False)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_relative_sqlite_url_says_where_it_resolved_and_what_four_slashes_mean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NotFoundError) as caught:
        open_store("sqlite:///data/x.db", create=False)
    assert f"({tmp_path / 'data' / 'x.db'})" in str(caught.value)
    assert "sqlite:////data/x.db would be the absolute path /data/x.db" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_opening_an_existing_file_without_create_works(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "m.db").close()
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}", create=False)
    assert store.count() == 0
    store.close()


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, just notes\n")
    with pytest.raises(StoreError, match="the file is not a SQLite database"):
        SQLiteStore(path)


def test_a_folder_where_the_file_should_be_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="it is a folder, not a database file"):
        SQLiteStore(tmp_path)


def test_a_write_the_driver_refuses_is_a_store_error_and_leaves_the_store_usable(tmp_path: Path) -> None:
    mem = Memory(SQLiteStore(tmp_path / "q.db"), HashingEmbedder())
    mem.remember(ALICE, "I prefer aisle seats")
    assert isinstance(mem.store, SQLiteStore)
    mem.store.execute("PRAGMA query_only = ON")  # every write now fails inside SQLite, as on a read-only file
    with pytest.raises(StoreError, match=r"cannot write to .*q\.db: the database is read-only"):
        mem.remember(ALICE, "I like tea")
    mem.store.execute("PRAGMA query_only = OFF")
    assert mem.remember(ALICE, "I like tea").status.value == "added"
    mem.close()


@pytest.mark.parametrize(
    "ttl",
    [math.nan, math.inf, -math.inf, 1e300, 10**400, timedelta.max],
    ids=["nan", "inf", "-inf", "1e300", "10**400", "max"],
)
def test_a_ttl_that_is_no_finite_duration_in_range_is_a_validation_error(mem: Memory, ttl: object) -> None:
    with pytest.raises(ValidationError, match=r"^ttl: "):
        mem.remember(ALICE, "short-lived note", ttl=ttl)  # type: ignore[arg-type]
    assert len(mem.list(ALICE).records) == 0


def _record() -> dict[str, object]:
    return {
        "id": "0190f1a2-0000-7000-8000-000000000001",
        "tenant": "acme",
        "user": "alice",
        "agent": None,
        "session": None,
        "type": "semantic",
        "content": "I prefer aisle seats",
        "source": "user",
        "trust": 0.9,
        "created_at": "2026-01-31T09:00:00+00:00",
        "valid_from": "2026-01-31T09:00:00+00:00",
        "content_hash": "0" * 64,
        "tags": ["travel"],
        "metadata": {},
        "version": 1,
    }


def test_a_record_read_from_json_gets_the_hash_of_its_content_not_the_one_written_in_the_file() -> None:
    from tiermem.types import content_hash

    assert record_from_json(_record()).content_hash == content_hash("I prefer aisle seats")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("content", 123, "content: must be a string"),
        ("id", None, "id: must be a string"),
        ("source", ["user"], "source: must be a string"),
        ("trust", math.nan, "trust: must be a number from 0 to 1"),
        ("version", "2", "version: must be an integer of at least 1"),
        ("metadata", ["x"], "metadata: must be an object"),
        ("valid_from", "2026-01-31", "valid_from: must include a timezone offset"),
        ("created_at", "last week", "created_at: must be an ISO 8601 time"),
    ],
)
def test_a_record_field_of_the_wrong_type_is_a_validation_error_naming_it(
    field: str, value: object, message: str
) -> None:
    with pytest.raises(ValidationError, match=f"^{message}"):
        record_from_json({**_record(), field: value})
