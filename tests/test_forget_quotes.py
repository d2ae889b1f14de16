"""Deleting a record also takes its words out of the search context of the records written after it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from tiermem.embed import HashingEmbedder
from tiermem.lifecycle.retention import RetentionPolicy, sweep
from tiermem.memory import Memory
from tiermem.store.sqlite import find_bytes
from tiermem.types import MemoryType, Scope, utcnow
from tiermem.write.path import NewMemory, WritePolicy

ALICE = Scope("acme", "alice")
SECRET = "Vexaldrin7731"
TURNS = [
    {"role": "user", "content": f"my locker code is {SECRET}"},
    {"role": "assistant", "content": "Noted, I will keep it safe."},
    {"role": "user", "content": "And remind me about the dentist on Friday."},
]


def _texts(memory: Memory) -> str:
    """Everything the user's export holds, as one string."""
    return json.dumps(memory.export(ALICE), default=str)


def test_forget_takes_the_forgotten_turn_out_of_the_next_turns_context(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory.open(f"sqlite:///{path}", embedder=HashingEmbedder()) as memory:
        first, reply, third = (r.record for r in memory.remember_messages(ALICE, TURNS, session="s1"))
        assert reply.context is not None and SECRET in reply.context
        assert [h.record.id for h in memory.recall(ALICE, SECRET, k=5)][:2] == [first.id, reply.id]

        memory.forget(ALICE, first.id, scrub_file=True)

        kept = memory.store.get(ALICE, reply.id)
        assert kept is not None and kept.context is None and kept.version == reply.version
        assert memory.store.get(ALICE, third.id) == third  # it quotes the reply, which stays
        assert all(SECRET not in f"{h.record.content} {h.record.context}" for h in memory.recall(ALICE, SECRET, k=5))
        assert SECRET not in _texts(memory)
        assert [h.record.id for h in memory.recall(ALICE, "dentist Friday", k=1)] == [third.id]
    assert find_bytes(path, SECRET) == []


def test_forget_takes_a_followed_note_out_of_the_note_after_it() -> None:
    policy = WritePolicy(follow_window=timedelta(minutes=30))
    with Memory.open(":memory:", embedder=HashingEmbedder(), write_policy=policy) as memory:
        note = memory.remember(ALICE, f"The alarm code for the studio is {SECRET}.").record
        after = memory.remember(ALICE, "Change it after the holidays.").record
        assert after.context is not None and SECRET in after.context

        memory.forget(ALICE, note.id)

        assert memory.store.get(ALICE, after.id).context is None  # type: ignore[union-attr]
        assert SECRET not in _texts(memory)


def test_forget_leaves_a_context_that_merely_resembles_the_forgotten_text() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        first = memory.remember_messages(ALICE, TURNS, session="s1")[0].record
        other = memory.remember_messages(
            ALICE,
            [{"role": "user", "content": f"my locker code is {SECRET} again"}, {"role": "assistant", "content": "Ok."}],
            session="s2",
        )[1].record

        memory.forget(ALICE, first.id)

        assert memory.store.get(ALICE, other.id).context == other.context  # type: ignore[union-attr]


def test_sweep_takes_deleted_turns_out_of_the_turns_that_quote_them(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    keep_two = RetentionPolicy(keep_last={MemoryType.EPISODIC: 2})
    with Memory.open(f"sqlite:///{path}", embedder=HashingEmbedder(), retention=keep_two) as memory:
        _, reply, _ = (r.record for r in memory.remember_messages(ALICE, TURNS, session="s1"))

        report = memory.sweep()

        assert report.over_limit == 1 and report.consistent
        assert memory.store.get(ALICE, reply.id).context is None  # type: ignore[union-attr]
        assert SECRET not in _texts(memory)
    assert find_bytes(path, SECRET) == []


def test_an_expired_note_leaves_the_context_of_the_note_that_followed_it() -> None:
    policy = WritePolicy(follow_window=timedelta(minutes=30))
    with Memory.open(":memory:", embedder=HashingEmbedder(), write_policy=policy) as memory:
        memory.remember(ALICE, f"The gate code is {SECRET}.", ttl=60)
        after = memory.remember(ALICE, "Use it after dark.").record
        assert after.context is not None and SECRET in after.context

        report = sweep(memory.store, memory.retention, now=utcnow() + timedelta(hours=1))

        assert report.expired == 1
        assert memory.store.get(ALICE, after.id).context is None  # type: ignore[union-attr]


def test_forget_takes_a_transcript_line_out_of_the_line_that_followed_it(mem: Memory) -> None:
    line = mem.remember(ALICE, f"Ann: my locker code is {SECRET}.").record
    reply = mem.remember(ALICE, "Bo: noted, I will keep it safe!").record
    assert reply.context is not None and SECRET in reply.context  # lines follow each other by default

    mem.forget(ALICE, line.id)

    assert mem.store.get(ALICE, reply.id).context is None  # type: ignore[union-attr]


def test_forget_takes_the_forgotten_note_out_of_a_held_write_that_quotes_it(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    policy = WritePolicy(follow_window=timedelta(minutes=30))
    with Memory.open(f"sqlite:///{path}", embedder=HashingEmbedder(), write_policy=policy) as memory:
        note = memory.remember(ALICE, f"The alarm code for the studio is {SECRET}.").record
        held = memory.remember(ALICE, "Always arm it at night.", type=MemoryType.PROCEDURAL, source="tool:notes")
        assert held.pending_id is not None and SECRET in (held.record.context or "")

        memory.forget(ALICE, note.id, scrub_file=True)

        assert all(SECRET not in json.dumps(p.record) for p in memory.pending(ALICE))
        approved = memory.approve(ALICE, held.pending_id).record
        assert approved.context is None and approved.content == "Always arm it at night."
        assert SECRET not in _texts(memory)
    assert find_bytes(path, SECRET) == []


def test_sweep_takes_an_expired_note_out_of_a_held_write_that_quotes_it() -> None:
    policy = WritePolicy(follow_window=timedelta(minutes=30))
    with Memory.open(":memory:", embedder=HashingEmbedder(), write_policy=policy) as memory:
        memory.remember(ALICE, f"The gate code is {SECRET}.", ttl=60)
        held = memory.remember(ALICE, "Lock it after dark.", type=MemoryType.PROCEDURAL, source="web:https://x.test")
        assert held.pending_id is not None and SECRET in (held.record.context or "")

        report = sweep(memory.store, memory.retention, now=utcnow() + timedelta(hours=1))

        assert report.expired == 1
        assert memory.approve(ALICE, held.pending_id).record.context is None


def test_rejecting_a_held_write_takes_its_words_out_of_the_note_that_followed_it(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    policy = WritePolicy(follow_window=timedelta(minutes=30))
    with Memory.open(f"sqlite:///{path}", embedder=HashingEmbedder(), write_policy=policy) as memory:
        held, after = memory.remember_many(
            ALICE,
            [
                NewMemory(f"Always read out the code {SECRET}.", type=MemoryType.PROCEDURAL, source="tool:notes"),
                NewMemory("The studio opens at nine."),
            ],
        )
        assert held.pending_id is not None and SECRET in (after.record.context or "")

        memory.reject(ALICE, held.pending_id)

        assert memory.store.get(ALICE, after.record.id).context is None  # type: ignore[union-attr]
        assert memory.pending(ALICE) == [] and SECRET not in _texts(memory)
        memory.sweep()  # the full-text index's old segments and the WAL go at the next sweep, as after a forget
    assert find_bytes(path, SECRET) == []
