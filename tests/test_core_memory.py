"""Core memory: capped named blocks, append/replace edits, read-only, versions, history and restarts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tiermem.context.core import CoreMemory
from tiermem.errors import ConflictError, NotFoundError, ValidationError
from tiermem.store import open_store
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import TiktokenCounter, WordCounter
from tiermem.types import Scope

COUNTER = TiktokenCounter("o200k_base")
SCOPE = Scope("acme", "alice", "bot", "s1")


@pytest.fixture
def store() -> Iterator[StoreWithContext]:
    store = open_store(":memory:")
    yield store
    store.close()


def core_of(store: StoreWithContext, budget: int = 1000, scope: Scope = SCOPE) -> CoreMemory:
    return CoreMemory(store, scope, counter=COUNTER, budget=budget)


def test_append_adds_a_line_and_records_who_and_what(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("human", limit=100, description="what we know about the user")
    core.append("human", "Name: Alice")
    block = core.append("human", "Lives in Lisbon", actor="tool:core_memory_append")
    assert block.value == "Name: Alice\nLives in Lisbon"
    assert block.version == 3
    latest = core.history("human")[0]
    assert (latest.op, latest.actor, latest.before, latest.after) == (
        "append",
        "tool:core_memory_append",
        "Name: Alice",
        "Name: Alice\nLives in Lisbon",
    )
    assert [e.op for e in core.history("human")] == ["append", "append", "define"]


def test_replace_changes_every_occurrence(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("human", limit=100, value="likes tea; tea in the morning")
    assert core.replace("human", "tea", "coffee").value == "likes coffee; coffee in the morning"


def test_replace_of_missing_text_is_an_error_not_a_silent_no_op(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("human", limit=100, value="likes tea")
    with pytest.raises(ValidationError, match="does not occur in block 'human'") as caught:
        core.replace("human", "coffee", "juice")
    assert caught.value.given == "coffee"
    assert core.get("human").version == 1


def test_replace_with_empty_text_deletes_it(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("human", limit=100, value="likes tea. Old job: baker.")
    assert core.replace("human", " Old job: baker.", "").value == "likes tea."


def test_edit_over_the_block_cap_is_refused_with_cap_and_size(store: StoreWithContext) -> None:
    core = CoreMemory(store, SCOPE, counter=WordCounter(), budget=1000)
    core.define("human", limit=8)
    core.append("human", "one two three")  # 4 tokens by the word estimate
    with pytest.raises(ValidationError) as caught:
        core.append("human", "four five six seven")
    message = str(caught.value)
    assert "cap of 8" in message and "would hold 10 tokens" in message
    assert (caught.value.given, caught.value.limit) == (10, 8)
    assert core.get("human").value == "one two three"


def test_core_block_alone_larger_than_the_budget_is_refused(store: StoreWithContext) -> None:
    core = core_of(store, budget=400)
    with pytest.raises(ValidationError, match="does not fit the core budget 400") as caught:
        core.define("persona", limit=500)
    assert caught.value.given == 500
    assert "persona" not in core
    assert store.load_core_blocks(SCOPE) == []


def test_caps_of_all_blocks_together_must_fit_the_budget(store: StoreWithContext) -> None:
    core = core_of(store, budget=400)
    core.define("persona", limit=200)
    with pytest.raises(ValidationError, match=r"other blocks' caps 200") as caught:
        core.define("human", limit=200)
    assert isinstance(caught.value.limit, int) and caught.value.limit < 200
    core.define("human", limit=caught.value.limit)


def test_blocks_filled_to_their_caps_stay_within_the_core_budget(store: StoreWithContext) -> None:
    core = core_of(store, budget=600)
    core.define("persona", limit=200, description="who you are", read_only=True)
    core.define("human", limit=200)
    words = iter(["lorem ipsum dolor sit amet"] * 1000)
    while True:
        try:
            core.append("human", next(words))
        except ValidationError:
            break
    assert COUNTER.count(core.get("human").value) <= 200
    assert core.tokens <= core.budget
    assert core.tokens == COUNTER.count(core.render()) + 4


def test_read_only_block_refuses_edits_unless_forced(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("persona", limit=100, value="I am Sam.", read_only=True)
    with pytest.raises(ValidationError, match="read-only"):
        core.append("persona", "I obey web pages.")
    with pytest.raises(ValidationError, match="read-only"):
        core.replace("persona", "Sam", "Eve")
    assert core.rewrite("persona", "I am Sam, patient.", actor="developer", force=True).value == "I am Sam, patient."


def test_define_again_keeps_the_stored_value_and_applies_new_settings(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("human", limit=100, value="seed")
    core.append("human", "learned")
    same = core.define("human", limit=100, value="seed")
    assert same.value == "seed\nlearned" and same.version == 2
    changed = core.define("human", limit=120, description="the user")
    assert (changed.limit, changed.description, changed.value, changed.version) == (120, "the user", same.value, 3)


def test_lowering_a_cap_below_the_current_value_is_refused(store: StoreWithContext) -> None:
    core = CoreMemory(store, SCOPE, counter=WordCounter(), budget=1000)
    core.define("human", limit=100, value="one two three four five six")
    with pytest.raises(ValidationError, match="over its cap of 3"):
        core.define("human", limit=3)


def test_core_edits_survive_a_process_restart(tmp_path: Path) -> None:
    path = tmp_path / "core.db"
    store = open_store(path)
    core = core_of(store)
    core.define("persona", limit=100, value="I am Sam.", read_only=True)
    core.define("human", limit=100)
    core.append("human", "Name: Alice")
    core.replace("human", "Alice", "Alice Smith")
    rendered = core.render()
    store.close()

    reopened = open_store(path)
    again = core_of(reopened, scope=Scope("acme", "alice", "bot", "another-session"))
    assert again.get("human").value == "Name: Alice Smith"
    assert again.get("human").version == 3
    assert again.get("persona").read_only
    assert again.render() == rendered
    assert [e.op for e in again.history("human")] == ["replace", "append", "define"]
    reopened.close()


def test_stale_writer_gets_a_conflict_naming_versions_and_can_retry(store: StoreWithContext) -> None:
    first, second = core_of(store), core_of(store)
    first.define("human", limit=100, value="a")
    second.refresh()
    first.append("human", "from first")
    with pytest.raises(ConflictError, match="expected version 1 but version 2"):
        second.append("human", "from second")
    assert second.append("human", "from second").value == "a\nfrom first\nfrom second"


def test_unknown_block_is_not_found_and_lists_the_blocks(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("human", limit=50)
    core.define("persona", limit=50)
    with pytest.raises(NotFoundError, match=r"no core block 'humans'.*blocks: human, persona"):
        core.append("humans", "x")


@pytest.mark.parametrize("name", ["", "Human", "1st", "has space", "a" * 65, "dash-ed"])
def test_block_names_are_lowercase_identifiers(store: StoreWithContext, name: str) -> None:
    with pytest.raises(ValidationError, match="block"):
        core_of(store).define(name, limit=10)


def test_empty_append_is_refused(store: StoreWithContext) -> None:
    core = core_of(store)
    core.define("human", limit=50)
    with pytest.raises(ValidationError, match="must not be empty"):
        core.append("human", "   ")


def test_render_shows_description_cap_and_read_only_flag(store: StoreWithContext) -> None:
    core = core_of(store)
    assert core.render() == "" and core.tokens == 0
    core.define("persona", limit=80, description="how you behave", value="Be brief.", read_only=True)
    text = core.render()
    assert '<persona limit_tokens="80" read_only="true">' in text
    assert "<description>how you behave</description>" in text
    assert "Be brief." in text
