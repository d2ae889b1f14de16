"""``tiermem import --from mem0``: a Mem0 get_all result becomes records in Mem0's scopes, recalled afterwards."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from tiermem import Memory, Scope
from tiermem.cli import cli
from tiermem.errors import SecretRefusedError, ValidationError
from tiermem.integrations.mem0_import import Mem0Defaults, import_mem0
from tiermem.types import MemoryType, SourceKind

FIXTURE = Path(__file__).parent / "fixtures" / "mem0_get_all.json"
PRIYA = Scope("default", "priya")


def invoke(db: Path, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, ["import", "--db", str(db), "--embedder", "hash", *args])


def items() -> list[dict[str, Any]]:
    return list(json.loads(FIXTURE.read_text())["results"])


def test_mem0_export_imports_and_recalls(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    result = invoke(db, "--from", "mem0", str(FIXTURE), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["counts"] == {"records added": 5, "records already stored": 0, "expired (not imported)": 1}
    with Memory.open(db, embedder="hash") as memory:
        (top,) = memory.recall(PRIYA, "aisle seats on flights", k=1)
        assert top.record.content == "Prefers aisle seats on long flights"
        assert top.record.source.kind is SourceKind.IMPORT and str(top.record.source) == "import:mem0"
        assert top.record.metadata["category"] == "travel"
        assert top.record.metadata["mem0_id"] == "8f14e45f-ceea-4e7a-9b1e-1c5b7d3a2f01"
        held = [r.content for r in memory.store.scope_records(PRIYA)]
    assert len(held) == 4 and not any("gym" in text for text in held)  # expired in Mem0: not imported


def test_mem0_ids_become_tiermem_scopes(mem: Memory) -> None:
    import_mem0(mem, json.loads(FIXTURE.read_text()))
    where = {r.content: r.scope for r in mem.store.scope_records(Scope("default", None))}
    where |= {r.content: r.scope for r in mem.store.scope_records(PRIYA)}
    assert where["Prefers aisle seats on long flights"] == PRIYA
    assert where["Is allergic to peanuts"] == Scope("default", "priya", "concierge")  # agent_id -> agent
    booked = "Booked a table for two at the harbour bistro for Friday at 8pm"
    assert where[booked] == Scope("default", "priya", session="trip-planning-7")  # run_id -> session
    confirm = "Confirm every booking by email before telling the user it is done"
    assert where[confirm] == Scope("default", None, "concierge")  # no user_id: the tenant's shared memory


def test_mem0_times_and_metadata_are_kept(mem: Memory) -> None:
    import_mem0(mem, json.loads(FIXTURE.read_text()))
    records = {r.content: r for r in mem.store.scope_records(PRIYA)}
    peanuts = records["Is allergic to peanuts"]
    assert peanuts.valid_from == datetime.fromisoformat("2025-04-11T18:02:44.500000-07:00")  # updated_at
    assert peanuts.metadata["mem0_created_at"] == "2025-03-02T09:14:05.431002-08:00"
    aisle = records["Prefers aisle seats on long flights"]
    assert aisle.valid_from == datetime.fromisoformat("2025-03-02T09:14:05.120311-08:00")  # never updated: created_at
    dinghy = records["Owns a sailing dinghy named Puffin"]
    assert dinghy.metadata["topics"] == '["boats", "hobbies"]' and dinghy.metadata["confidence"] == 0.9
    booked = next(r for c, r in records.items() if c.startswith("Booked"))
    assert (booked.metadata["mem0_actor_id"], booked.metadata["mem0_role"]) == ("priya", "user")


def test_mem0_procedural_memory_stays_procedural(mem: Memory) -> None:
    import_mem0(mem, json.loads(FIXTURE.read_text()))
    (record,) = mem.store.scope_records(Scope("default", None, "concierge"))
    assert record.type is MemoryType.PROCEDURAL


def test_importing_the_same_mem0_file_twice_adds_nothing(mem: Memory) -> None:
    data = json.loads(FIXTURE.read_text())
    import_mem0(mem, data)
    again = import_mem0(mem, data)
    assert again.counts["records added"] == 0 and again.counts["records already stored"] == 5


def test_a_bare_list_of_mem0_memories_is_read_too(mem: Memory) -> None:
    summary = import_mem0(mem, items()[:2], Mem0Defaults(tenant="acme"))
    assert summary.counts["records added"] == 2
    assert mem.recall(Scope("acme", "priya"), "peanuts", k=1)[0].record.content == "Is allergic to peanuts"


def test_defaults_fill_only_what_a_memory_does_not_name(mem: Memory) -> None:
    data = [{"memory": "Likes jazz", "created_at": "2025-01-01T00:00:00+00:00"}, items()[0]]
    import_mem0(mem, data, Mem0Defaults(user="sam", agent="dj"))
    assert [r.content for r in mem.store.scope_records(Scope("default", "sam", "dj"))] == ["Likes jazz"]
    (aisle,) = mem.store.scope_records(Scope("default", "priya"))
    assert aisle.scope == Scope("default", "priya", "dj")  # its own user, the default agent


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"memory": ""}, "results[1].memory"),
        ({"user_id": "priya smith"}, "results[1] (user)"),
        ({"created_at": "2025-03-02T09:14:05"}, "results[1].created_at"),
        ({"metadata": ["not", "an", "object"]}, "results[1].metadata"),
        ({"expiration_date": "soon"}, "results[1].expiration_date"),
    ],
)
def test_a_bad_mem0_memory_is_named_and_nothing_is_written(mem: Memory, change: dict[str, Any], field: str) -> None:
    data = items()
    data[1] = {**data[1], **change}
    with pytest.raises(ValidationError) as caught:
        import_mem0(mem, {"results": data})
    assert caught.value.field == field
    assert mem.store.scope_records(PRIYA) == []


def test_cli_mem0_errors_exit_2_naming_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"results": [{"memory": "x", "user_id": "a b"}]}))
    result = invoke(tmp_path / "m.db", "--from", "mem0", str(bad))
    assert result.exit_code == 2 and "results[0] (user)" in result.output
    assert not (tmp_path / "m.db").exists()
    wrong = invoke(tmp_path / "m.db", "--from", "mem0", str(bad), "--core-budget", "300")
    assert wrong.exit_code == 2 and "--core-budget" in wrong.output
    shape = tmp_path / "shape.json"
    shape.write_text(json.dumps({"memories": []}))
    result = invoke(tmp_path / "m.db", "--from", "mem0", str(shape))
    assert result.exit_code == 2 and "Mem0 get_all result" in result.output


def test_tiermem_format_refuses_scope_options(tmp_path: Path) -> None:
    result = invoke(tmp_path / "m.db", str(FIXTURE), "--user", "priya")
    assert result.exit_code == 2 and "--user: is not used with --from tiermem" in result.output


def test_a_credential_in_a_mem0_memory_is_refused_by_the_gate_and_a_fixed_file_adds_the_rest(mem: Memory) -> None:
    data = items()[:3]  # priya's, then her agent's, then her run's memories: three scopes, three writes
    data[2] = {**data[2], "metadata": {"note": "door code AKIAZ3MPLQ7TR4XW9BNC"}}  # an access key's shape, made up
    with pytest.raises(SecretRefusedError):
        import_mem0(mem, data)
    kept = {r.content for r in mem.store.scope_records(PRIYA)}
    assert kept == {"Prefers aisle seats on long flights", "Is allergic to peanuts"}  # the scopes written before
    data[2] = items()[2]
    again = import_mem0(mem, data)
    assert again.counts["records added"] == 1 and again.counts["records already stored"] == 2


def test_a_mem0_file_imported_again_states_nothing_anew_even_a_superseded_memory(tmp_path: Path) -> None:
    texts = [f"The {w} lantern hangs by the quarry gate." for w in ("amber", "basil")]
    data = {"results": [{"id": f"m-{i}", "memory": t, "user_id": "ann"} for i, t in enumerate(texts)]}
    with Memory.open(tmp_path / "m.db", embedder="hash") as memory:
        import_mem0(memory, data, Mem0Defaults("acme"))
        first = memory.store.scope_records(Scope("acme", "ann"))
        import_mem0(memory, data, Mem0Defaults("acme"))
        assert len(memory.store.scope_records(Scope("acme", "ann"))) == len(first)
