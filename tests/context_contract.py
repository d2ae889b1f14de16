"""The conformance suite every ContextStore backend must pass; subclass and provide ``make_store``."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest

from at_once import at_once
from tiermem.errors import ConflictError, ValidationError
from tiermem.store.context_base import BlockEdit, CoreBlock, StoreWithContext, WindowState
from tiermem.types import Scope, new_id

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
ALICE_BOT = Scope("acme", "alice", "bot")
ALICE_BOT_S1 = Scope("acme", "alice", "bot", "s1")
ALICE_BOT_S2 = Scope("acme", "alice", "bot", "s2")
ALICE_OTHER_AGENT = Scope("acme", "alice", "other")
BOB_BOT = Scope("acme", "bob", "bot")
SHARED_BOT = Scope("acme", None, "bot")
LEASE = timedelta(minutes=3)
SHORT = timedelta(seconds=0.3)  # a lease that ends within a test


def edit(block: CoreBlock, before: str | None, *, actor: str = "agent", op: str = "append") -> BlockEdit:
    return BlockEdit(new_id(), block.name, actor, block.updated_at or NOW, op, before, block.value, block.version)


def save(store: StoreWithContext, scope: Scope, block: CoreBlock, expected: int, before: str | None = None) -> None:
    store.save_core_block(scope, block, expected_version=expected, edit=edit(block, before))


class ContextStoreContract:
    """Behaviour shared by all context stores."""

    @pytest.fixture
    def store(self) -> Iterator[StoreWithContext]:
        store = self.make_store()
        yield store
        store.close()

    def make_store(self) -> StoreWithContext:
        raise NotImplementedError

    # -- core blocks ---------------------------------------------------------------------------------------

    def test_saved_block_loads_with_every_field(self, store: StoreWithContext) -> None:
        block = CoreBlock("persona", 200, "I am Sam.", "who the agent is", True, 1, NOW)
        save(store, ALICE_BOT, block, 0)
        assert store.load_core_blocks(ALICE_BOT) == [block]

    def test_blocks_load_sorted_by_name(self, store: StoreWithContext) -> None:
        for name in ("summary", "human", "persona"):
            save(store, ALICE_BOT, CoreBlock(name, 50, version=1, updated_at=NOW), 0)
        assert [b.name for b in store.load_core_blocks(ALICE_BOT)] == ["human", "persona", "summary"]

    def test_stale_version_is_a_conflict_naming_both_versions(self, store: StoreWithContext) -> None:
        first = CoreBlock("human", 100, "likes tea", version=1, updated_at=NOW)
        save(store, ALICE_BOT, first, 0)
        save(store, ALICE_BOT, replace(first, value="likes coffee", version=2), 1, "likes tea")
        with pytest.raises(ConflictError, match=r"expected version 1 but version 2"):
            save(store, ALICE_BOT, replace(first, value="likes juice", version=2), 1, "likes tea")
        assert store.load_core_blocks(ALICE_BOT)[0].value == "likes coffee"

    def test_creating_an_existing_block_is_a_conflict(self, store: StoreWithContext) -> None:
        block = CoreBlock("human", 100, version=1, updated_at=NOW)
        save(store, ALICE_BOT, block, 0)
        with pytest.raises(ConflictError):
            save(store, ALICE_BOT, block, 0)

    @pytest.mark.parametrize("first", [False, True])
    def test_two_saves_of_one_block_version_at_once_save_one(self, store: StoreWithContext, first: bool) -> None:
        expected = 0
        if not first:
            save(store, ALICE_BOT, CoreBlock("human", 100, "likes tea", version=1, updated_at=NOW), 0)
            expected = 1
        outcome: list[str] = []

        def save_as(value: str) -> None:
            block = CoreBlock("human", 100, value, version=expected + 1, updated_at=NOW)
            try:
                save(store, ALICE_BOT, block, expected)
                outcome.append(value)
            except ConflictError:
                outcome.append("conflict")

        at_once(lambda: save_as("likes figs"), lambda: save_as("likes plums"))
        assert sorted(outcome) in (["conflict", "likes figs"], ["conflict", "likes plums"]), outcome
        won = next(o for o in outcome if o != "conflict")
        (stored,) = store.load_core_blocks(ALICE_BOT)
        assert (stored.value, stored.version) == (won, expected + 1)
        edits = store.core_block_edits(ALICE_BOT, "human")
        assert edits[0].after == won and len(edits) == expected + 1

    def test_version_must_be_one_more_than_expected(self, store: StoreWithContext) -> None:
        with pytest.raises(ValidationError, match="version"):
            save(store, ALICE_BOT, CoreBlock("human", 100, version=3, updated_at=NOW), 0)

    def test_a_refused_save_records_no_edit(self, store: StoreWithContext) -> None:
        block = CoreBlock("human", 100, "a", version=1, updated_at=NOW)
        save(store, ALICE_BOT, block, 0)
        with pytest.raises(ConflictError):
            save(store, ALICE_BOT, replace(block, value="b", version=3), 2, "a")
        assert len(store.core_block_edits(ALICE_BOT, "human")) == 1

    def test_every_edit_is_recorded_newest_first(self, store: StoreWithContext) -> None:
        block = CoreBlock("human", 100, "a", version=1, updated_at=NOW)
        save(store, ALICE_BOT, block, 0)
        later = replace(block, value="a\nb", version=2, updated_at=NOW + timedelta(minutes=1))
        store.save_core_block(
            ALICE_BOT, later, expected_version=1, edit=edit(later, "a", actor="tool:core_memory_append")
        )
        edits = store.core_block_edits(ALICE_BOT, "human")
        assert [(e.version, e.before, e.after) for e in edits] == [(2, "a", "a\nb"), (1, None, "a")]
        assert edits[0].actor == "tool:core_memory_append"
        assert edits[0].at == NOW + timedelta(minutes=1)
        assert store.core_block_edits(ALICE_BOT, "human", limit=1) == edits[:1]

    def test_blocks_belong_to_tenant_user_and_agent_not_session(self, store: StoreWithContext) -> None:
        save(store, ALICE_BOT_S1, CoreBlock("human", 100, "alice", version=1, updated_at=NOW), 0)
        assert [b.value for b in store.load_core_blocks(ALICE_BOT_S2)] == ["alice"]
        for other in (ALICE_OTHER_AGENT, BOB_BOT, SHARED_BOT, Scope("globex", "alice", "bot")):
            assert store.load_core_blocks(other) == []
        assert store.core_block_edits(BOB_BOT, "human") == []

    def test_same_block_name_in_two_scopes_versions_independently(self, store: StoreWithContext) -> None:
        save(store, ALICE_BOT, CoreBlock("human", 100, "alice", version=1, updated_at=NOW), 0)
        save(store, BOB_BOT, CoreBlock("human", 100, "bob", version=1, updated_at=NOW), 0)
        assert store.load_core_blocks(BOB_BOT)[0].value == "bob"

    def test_rewrite_core_texts_changes_every_agents_blocks_and_edits_of_the_user_only(
        self, store: StoreWithContext
    ) -> None:
        first = CoreBlock("summary", 100, "keep\nsecret 4417", version=1, updated_at=NOW)
        save(store, ALICE_BOT, first, 0)
        save(store, ALICE_BOT, replace(first, value="keep\nsecret 4417\nmore", version=2), 1, first.value)
        save(store, ALICE_OTHER_AGENT, CoreBlock("human", 100, "secret 4417", version=1, updated_at=NOW), 0)
        save(store, ALICE_BOT, CoreBlock("persona", 100, "untouched", version=1, updated_at=NOW), 0)
        save(store, BOB_BOT, CoreBlock("summary", 100, "secret 4417", version=1, updated_at=NOW), 0)
        later = NOW + timedelta(hours=1)

        def drop(text: str) -> str:
            return "\n".join(line for line in text.split("\n") if "4417" not in line)

        assert store.rewrite_core_texts(ALICE_BOT_S1, drop, actor="forget", at=later) == 2

        summary, persona = store.load_core_blocks(ALICE_BOT)[1], store.load_core_blocks(ALICE_BOT)[0]
        assert (summary.value, summary.version, summary.updated_at) == ("keep\nmore", 3, later)
        assert (persona.value, persona.version) == ("untouched", 1)
        assert store.load_core_blocks(ALICE_OTHER_AGENT)[0].value == ""
        edits = store.core_block_edits(ALICE_BOT, "summary")
        assert [(e.version, e.op, e.actor, e.before, e.after) for e in edits] == [
            (3, "redact", "forget", None, "keep\nmore"),
            (2, "append", "agent", "keep", "keep\nmore"),
            (1, "append", "agent", None, "keep"),
        ]
        assert store.load_core_blocks(BOB_BOT)[0].value == "secret 4417"
        assert store.core_block_edits(BOB_BOT, "summary")[0].after == "secret 4417"
        with pytest.raises(ConflictError):  # a writer holding the old version must reload first
            save(store, ALICE_BOT, replace(first, value="secret 4417", version=3), 2)
        assert store.rewrite_core_texts(ALICE_BOT, drop, actor="forget", at=later) == 0

    def test_an_edit_saved_while_a_rewrite_reads_the_block_is_never_overwritten_by_it(
        self, store: StoreWithContext
    ) -> None:
        first = CoreBlock("summary", 200, "likes green tea", version=1, updated_at=NOW)
        save(store, ALICE_BOT, first, 0)
        reading = threading.Event()
        outcome: list[str] = []

        def slow(text: str) -> str:
            reading.set()
            time.sleep(0.3)  # the edit below is saved now, if the store lets it
            return text.replace("green tea", "[forgotten]")

        def rewrite() -> None:
            store.rewrite_core_texts(ALICE_BOT, slow, actor="forget", at=NOW + timedelta(minutes=1))

        def append() -> None:
            assert reading.wait(10)
            try:
                save(store, ALICE_BOT, replace(first, value="likes green tea\nplays chess", version=2), 1, first.value)
                outcome.append("saved")
            except ConflictError:  # the writer reloads and retries: nothing acknowledged is lost
                outcome.append("conflict")

        at_once(rewrite, append)
        (block,) = store.load_core_blocks(ALICE_BOT)
        assert "green tea" not in block.value
        assert outcome == ["conflict"] or "plays chess" in block.value

    # -- windows -------------------------------------------------------------------------------------------

    def test_missing_window_loads_as_none(self, store: StoreWithContext) -> None:
        assert store.load_context_window(ALICE_BOT_S1) is None

    def test_window_round_trips_and_is_replaced(self, store: StoreWithContext) -> None:
        store.save_context_window(ALICE_BOT_S1, WindowState(("a", "b"), None, NOW, "r1"))
        later = WindowState(("b", "c", "d"), "a", NOW + timedelta(seconds=1), "r2")
        store.save_context_window(ALICE_BOT_S1, later)
        assert store.load_context_window(ALICE_BOT_S1) == later

    def test_a_window_saved_without_a_revision_gets_a_new_one_each_save(self, store: StoreWithContext) -> None:
        revisions = set()
        for _ in range(2):
            store.save_context_window(ALICE_BOT_S1, WindowState(("a",), None, NOW))
            state = store.load_context_window(ALICE_BOT_S1)
            assert state is not None and state.revision
            revisions.add(state.revision)
        assert len(revisions) == 2

    def test_a_window_save_expecting_another_revision_is_refused_and_changes_nothing(
        self, store: StoreWithContext
    ) -> None:
        with pytest.raises(ConflictError, match="session 's1'"):
            store.save_context_window(ALICE_BOT_S1, WindowState(("a",), None, NOW, "r1"), expected="r0")
        store.save_context_window(ALICE_BOT_S1, WindowState(("a",), None, NOW, "r1"), expected=None)
        with pytest.raises(ConflictError, match="changed by another turn"):
            store.save_context_window(ALICE_BOT_S1, WindowState(("b",), None, NOW, "r2"), expected=None)
        with pytest.raises(ConflictError):
            store.save_context_window(ALICE_BOT_S1, WindowState(("b",), None, NOW, "r2"), expected="r0")
        assert store.load_context_window(ALICE_BOT_S1) == WindowState(("a",), None, NOW, "r1")
        store.save_context_window(ALICE_BOT_S1, WindowState(("a", "b"), None, NOW, "r2"), expected="r1")
        assert store.load_context_window(ALICE_BOT_S1) == WindowState(("a", "b"), None, NOW, "r2")

    @pytest.mark.parametrize("first", [False, True])
    def test_two_saves_expecting_one_revision_at_once_save_one(self, store: StoreWithContext, first: bool) -> None:
        expected = None
        if not first:
            store.save_context_window(ALICE_BOT_S1, WindowState(("a",), None, NOW, "r0"))
            expected = "r0"
        outcome: list[str] = []

        def save_as(revision: str) -> None:
            try:
                state = WindowState((revision,), None, NOW, revision)
                store.save_context_window(ALICE_BOT_S1, state, expected=expected)
                outcome.append(revision)
            except ConflictError:
                outcome.append("conflict")

        at_once(lambda: save_as("x"), lambda: save_as("y"))
        assert sorted(outcome) in (["conflict", "x"], ["conflict", "y"]), outcome
        won = next(o for o in outcome if o != "conflict")
        assert store.load_context_window(ALICE_BOT_S1) == WindowState((won,), None, NOW, won)

    def test_window_ids_need_not_be_plain(self, store: StoreWithContext) -> None:
        odd = ('quote"d', "back\\slash", "new\nline", "ünïcode", "")
        store.save_context_window(ALICE_BOT_S1, WindowState(odd, None, NOW))
        state = store.load_context_window(ALICE_BOT_S1)
        assert state is not None and state.message_ids == odd

    def test_windows_belong_to_the_session(self, store: StoreWithContext) -> None:
        store.save_context_window(ALICE_BOT_S1, WindowState(("a",), None, NOW))
        assert store.load_context_window(ALICE_BOT_S2) is None
        assert store.load_context_window(ALICE_BOT) is None
        assert store.load_context_window(Scope("acme", "bob", "bot", "s1")) is None

    def test_renewing_the_windows_holding_records_moves_only_their_revisions(self, store: StoreWithContext) -> None:
        bob_s1 = Scope("acme", "bob", "bot", "s1")
        for scope, ids in ((ALICE_BOT_S1, ("a", "b")), (ALICE_BOT_S2, ("c",)), (bob_s1, ("a",))):
            store.save_context_window(scope, WindowState(ids, None, NOW, "r0"))
        assert store.renew_windows_holding(Scope("acme", "alice"), ["b", "x"]) == 1
        renewed = store.load_context_window(ALICE_BOT_S1)
        assert renewed is not None and renewed.revision not in ("r0", "") and renewed.message_ids == ("a", "b")
        assert [store.load_context_window(s).revision for s in (ALICE_BOT_S2, bob_s1)] == ["r0", "r0"]  # type: ignore[union-attr]

    # -- turn leases --------------------------------------------------------------------------------------

    def test_a_held_turn_lease_refuses_another_holder_until_it_ends_or_is_released(
        self, store: StoreWithContext
    ) -> None:
        assert store.acquire_turn_lease(ALICE_BOT_S1, "one", duration=LEASE)
        assert not store.acquire_turn_lease(ALICE_BOT_S1, "two", duration=LEASE)
        assert store.acquire_turn_lease(ALICE_BOT_S1, "one", duration=LEASE)  # its own again
        store.release_turn_lease(ALICE_BOT_S1, "two")  # not the holder's: nothing happens
        assert not store.acquire_turn_lease(ALICE_BOT_S1, "two", duration=LEASE)
        store.release_turn_lease(ALICE_BOT_S1, "one")
        assert store.acquire_turn_lease(ALICE_BOT_S1, "two", duration=LEASE)

    def test_a_lease_its_holder_never_released_is_taken_over_once_it_expired(self, store: StoreWithContext) -> None:
        assert store.acquire_turn_lease(ALICE_BOT_S1, "died", duration=SHORT)  # and never released
        assert not store.acquire_turn_lease(ALICE_BOT_S1, "next", duration=LEASE)
        time.sleep(SHORT.total_seconds() + 0.1)
        assert store.acquire_turn_lease(ALICE_BOT_S1, "next", duration=LEASE)
        assert not store.renew_turn_lease(ALICE_BOT_S1, "died", duration=LEASE)  # it lost the session
        store.release_turn_lease(ALICE_BOT_S1, "died")
        assert not store.acquire_turn_lease(ALICE_BOT_S1, "third", duration=LEASE)

    def test_renewing_a_lease_moves_its_end(self, store: StoreWithContext) -> None:
        assert store.acquire_turn_lease(ALICE_BOT_S1, "one", duration=SHORT)
        assert store.renew_turn_lease(ALICE_BOT_S1, "one", duration=LEASE)
        time.sleep(SHORT.total_seconds() + 0.1)
        assert not store.acquire_turn_lease(ALICE_BOT_S1, "two", duration=LEASE)
        assert store.renew_turn_lease(ALICE_BOT_S1, "one", duration=SHORT)  # and back: it ends sooner
        time.sleep(SHORT.total_seconds() + 0.1)
        assert store.acquire_turn_lease(ALICE_BOT_S1, "two", duration=LEASE)
        assert not store.renew_turn_lease(Scope("acme", "alice", "bot", "s9"), "one", duration=LEASE)

    def test_turn_leases_belong_to_the_session(self, store: StoreWithContext) -> None:
        assert store.acquire_turn_lease(ALICE_BOT_S1, "one", duration=LEASE)
        for other in (
            ALICE_BOT_S2,
            ALICE_BOT,
            Scope("acme", "bob", "bot", "s1"),
            Scope("globex", "alice", "bot", "s1"),
        ):
            assert store.acquire_turn_lease(other, "two", duration=LEASE), other

    def test_of_turns_taking_one_sessions_lease_at_once_one_gets_it(self, store: StoreWithContext) -> None:
        won: list[str] = []

        def take(holder: str) -> None:
            if store.acquire_turn_lease(ALICE_BOT_S1, holder, duration=LEASE):
                won.append(holder)

        at_once(*(partial(take, f"h{i}") for i in range(4)))
        assert len(won) == 1, won

    def test_erase_scope_removes_the_users_leases_only(self, store: StoreWithContext) -> None:
        bob_s1 = Scope("acme", "bob", "bot", "s1")
        for scope in (ALICE_BOT_S1, bob_s1):
            assert store.acquire_turn_lease(scope, "one", duration=LEASE)
        erased = store.erase_scope("acme", "alice", audit_detail="redacted by erase")
        assert erased.removed["turn_leases"] == 1
        assert not store.renew_turn_lease(ALICE_BOT_S1, "one", duration=LEASE)
        assert store.acquire_turn_lease(ALICE_BOT_S1, "two", duration=LEASE)
        assert store.renew_turn_lease(bob_s1, "one", duration=LEASE)

    # -- deletion ------------------------------------------------------------------------------------------

    def test_deleting_a_user_removes_blocks_edits_and_windows(self, store: StoreWithContext) -> None:
        save(store, ALICE_BOT, CoreBlock("human", 100, "alice", version=1, updated_at=NOW), 0)
        store.save_context_window(ALICE_BOT_S1, WindowState(("a",), None, NOW))
        save(store, BOB_BOT, CoreBlock("human", 100, "bob", version=1, updated_at=NOW), 0)
        assert store.delete_context(Scope("acme", "alice")) == 3
        assert store.load_core_blocks(ALICE_BOT) == []
        assert store.core_block_edits(ALICE_BOT, "human") == []
        assert store.load_context_window(ALICE_BOT_S1) is None
        assert [b.value for b in store.load_core_blocks(BOB_BOT)] == ["bob"]

    def test_deleting_a_session_keeps_the_agents_core_memory(self, store: StoreWithContext) -> None:
        save(store, ALICE_BOT, CoreBlock("human", 100, "alice", version=1, updated_at=NOW), 0)
        store.save_context_window(ALICE_BOT_S1, WindowState(("a",), None, NOW))
        store.save_context_window(ALICE_BOT_S2, WindowState(("b",), None, NOW))
        assert store.delete_context(ALICE_BOT_S1) == 1
        assert store.load_context_window(ALICE_BOT_S2) is not None
        assert len(store.load_core_blocks(ALICE_BOT)) == 1

    # -- erase and export ----------------------------------------------------------------------------------

    def test_erase_scope_removes_the_users_blocks_edits_and_windows_only(self, store: StoreWithContext) -> None:
        save(store, ALICE_BOT, CoreBlock("human", 100, "Name: Zorblax", version=1, updated_at=NOW), 0)
        store.save_context_window(ALICE_BOT_S1, WindowState(("a", "b"), "a", NOW))
        save(store, BOB_BOT, CoreBlock("human", 100, "bob", version=1, updated_at=NOW), 0)
        store.save_context_window(Scope("acme", "bob", "bot", "s1"), WindowState(("c",), None, NOW))

        erased = store.erase_scope("acme", "alice", audit_detail="redacted by erase")

        tables = ("core_blocks", "core_block_edits", "context_windows")
        assert {t: erased.removed[t] for t in tables} == dict.fromkeys(tables, 1)
        assert store.load_core_blocks(ALICE_BOT) == [] and store.core_block_edits(ALICE_BOT, "human") == []
        assert store.load_context_window(ALICE_BOT_S1) is None
        assert [b.value for b in store.load_core_blocks(BOB_BOT)] == ["bob"]
        assert store.load_context_window(Scope("acme", "bob", "bot", "s1")) is not None

    def test_context_rows_export_and_import_into_an_empty_store(self, store: StoreWithContext) -> None:
        save(store, ALICE_BOT, CoreBlock("human", 100, "Name: Ann", "who", True, version=1, updated_at=NOW), 0)
        store.save_context_window(ALICE_BOT_S1, WindowState(("a", 'q"d'), "a", NOW))
        target = self.make_store()
        try:
            for table in ("core_blocks", "core_block_edits", "context_windows"):
                rows = store.export_rows(Scope("acme", "alice"), table)
                assert len(rows) == 1
                target.import_rows(Scope("acme", "alice"), table, rows)
                assert target.export_rows(Scope("acme", "alice"), table) == rows
            assert target.load_core_blocks(ALICE_BOT) == store.load_core_blocks(ALICE_BOT)
            assert target.load_context_window(ALICE_BOT_S1) == store.load_context_window(ALICE_BOT_S1)
            assert target.core_block_edits(ALICE_BOT, "human") == store.core_block_edits(ALICE_BOT, "human")
        finally:
            target.close()
