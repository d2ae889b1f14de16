"""Behaviour of the Memory facade: writes, recall, isolation, validation."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tiermem import Filter, Memory, MemoryType, NewMemory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import EmbeddingMismatchError, NotFoundError, ScopeError, ValidationError
from tiermem.recall.search import MAX_K, query_terms
from tiermem.write.path import MAX_CONTENT_CHARS, WriteStatus

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")


def test_reingesting_the_same_texts_adds_zero_rows(mem: Memory) -> None:
    items = [NewMemory(f"turn {i}: we talked about hiking", type="episodic") for i in range(20)]
    first = mem.remember_many(ALICE, items)
    assert {r.status for r in first} == {WriteStatus.ADDED}
    before = mem.store.count()
    second = mem.remember_many(ALICE, items)
    assert mem.store.count() == before == 20
    assert [r.record.id for r in second] == [r.record.id for r in first]
    assert {r.status for r in second} == {WriteStatus.UNCHANGED}


def test_duplicate_within_one_batch_is_stored_once(mem: Memory) -> None:
    results = mem.remember_many(ALICE, [NewMemory("same"), NewMemory("  same "), NewMemory("SAME")])
    assert mem.store.count() == 1
    assert len({r.record.id for r in results}) == 1


def test_same_text_in_another_scope_or_type_is_its_own_record(mem: Memory) -> None:
    a = mem.remember(ALICE, "likes tea")
    b = mem.remember(BOB, "likes tea")
    c = mem.remember(ALICE, "likes tea", type="episodic")
    assert len({a.record.id, b.record.id, c.record.id}) == 3


def test_user_b_never_sees_user_a_records(mem: Memory) -> None:
    secret = mem.remember(ALICE, "Alice's bank PIN hint is her cat's birthday").record
    assert mem.recall(BOB, "bank PIN hint cat birthday") == []
    assert mem.list(BOB).records == ()
    with pytest.raises(NotFoundError):
        mem.get(BOB, secret.id)
    with pytest.raises(NotFoundError):
        mem.forget(BOB, secret.id)
    assert mem.get(ALICE, secret.id).content.startswith("Alice's")


def test_unknown_scope_reads_as_empty(mem: Memory) -> None:
    mem.remember(ALICE, "something")
    nobody = Scope("nobody-tenant", "nobody")
    assert mem.recall(nobody, "something") == []
    assert mem.list(nobody).records == ()
    assert mem.export(nobody)["records"] == []


def test_recall_ranks_the_relevant_record_first_with_score_parts(mem: Memory) -> None:
    mem.remember_many(
        ALICE,
        [NewMemory("My dog is called Rex"), NewMemory("I fly from SEA airport"), NewMemory("I prefer aisle seats")],
    )
    hits = mem.recall(ALICE, "what is my dog called?", k=3)
    assert hits[0].record.content == "My dog is called Rex"
    names = [p.name for p in hits[0].parts if not p.name.startswith("relevance:")]  # the score's parts
    assert names == ["keyword", "vector", "phrase", "recency", "trust", "first_hand"]  # "my dog": about the user
    assert hits[0].part("keyword").rank == 1  # type: ignore[union-attr]
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))


def test_untrusted_sources_are_flagged_and_ranked_lower(mem: Memory) -> None:
    mem.remember(ALICE, "the hotel has a pool", source="web:http://example.com/hotel")
    mem.remember(ALICE, "the hotel has a gym", source="user")
    hits = mem.recall(ALICE, "hotel has", k=2)
    by_source = {str(h.record.source): h for h in hits}
    assert by_source["web:http://example.com/hotel"].flags == ("untrusted",)
    assert by_source["user"].flags == ()
    assert hits[0].record.source.kind.value == "user"


def test_expired_records_are_not_recalled(mem: Memory) -> None:
    mem.remember(ALICE, "temporary parking spot 4411", ttl=60)
    later = datetime.now(UTC) + timedelta(minutes=2)
    assert mem.recall(ALICE, "parking spot") != []
    assert mem.recall(ALICE, "door code", now=later) == []
    assert mem.list(ALICE).records != ()


def test_as_of_sees_what_was_valid_then(mem: Memory) -> None:
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    rec = mem.remember(ALICE, "works at Initech", valid_from=t0).record
    assert [h.record.id for h in mem.recall(ALICE, "works", as_of=t0 + timedelta(days=1))] == [rec.id]
    assert mem.recall(ALICE, "works", as_of=t0 - timedelta(days=1)) == []


def test_any_user_text_is_a_valid_query(mem: Memory) -> None:
    mem.remember(ALICE, "quotes and stars")
    for q in ['"', "*", "NEAR(a b)", "a AND OR NOT", "col:x", "(((", "'; DROP TABLE records; --", "🙂", "the of and"]:
        mem.recall(ALICE, q)
    assert query_terms("What is the name of my dog?") == ["name", "dog"]
    assert query_terms("the of") == ["the", "of"]


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda m: m.remember(ALICE, ""), "content"),
        (lambda m: m.remember(ALICE, "x" * (MAX_CONTENT_CHARS + 1)), "content"),
        (lambda m: m.remember(ALICE, "x", ttl=0), "ttl"),
        (lambda m: m.remember(ALICE, "x", ttl=-5), "ttl"),
        (lambda m: m.remember(ALICE, "x", type="dream"), "type"),
        (lambda m: m.remember(ALICE, "x", source="rumour"), "source"),
        (lambda m: m.remember(ALICE, "x", source="tool:"), "source"),
        (lambda m: m.remember(ALICE, "x", tags=["bad tag"]), "tags"),
        (lambda m: m.remember(ALICE, "x", metadata={"k": [1]}), "metadata.k"),  # type: ignore[dict-item]
        (lambda m: m.remember(ALICE, "x", valid_from=datetime(2024, 1, 1)), "valid_from"),
        (lambda m: m.recall(ALICE, "x", k=MAX_K + 1), "k"),
        (lambda m: m.recall(ALICE, "x", k=0), "k"),
        (lambda m: m.recall(ALICE, "x" * 5000), "query"),
        (lambda m: m.list(ALICE, limit=0), "limit"),
        (lambda m: m.list(ALICE, cursor="abc"), "cursor"),
    ],
)
def test_bad_input_is_a_clear_error_and_changes_nothing(mem: Memory, call: object, field: str) -> None:
    mem.remember(ALICE, "existing")
    with pytest.raises(ValidationError) as info:
        call(mem)  # type: ignore[operator]
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")
    assert mem.store.count() == 1


def test_error_message_names_limit_and_given(mem: Memory) -> None:
    with pytest.raises(ValidationError, match=r"k: must be an integer from 1 to 100; limit 100; given 101"):
        mem.recall(ALICE, "x", k=101)


def test_one_bad_item_rejects_the_whole_batch(mem: Memory) -> None:
    with pytest.raises(ValidationError):
        mem.remember_many(ALICE, [NewMemory("fine"), NewMemory("also fine"), NewMemory("x", ttl=-1)])
    assert mem.store.count() == 0


@pytest.mark.parametrize(
    "parts",
    [("", "u"), ("t", ""), ("t/x", "u"), ("t", "u:x"), ("t", "a b"), ("t" * 129, "u"), ("t", "u", "a/b"), (None, "u")],
)
def test_bad_scope_is_refused(parts: tuple[str, ...]) -> None:
    with pytest.raises(ScopeError):
        Scope(*parts)  # type: ignore[arg-type]


def test_other_embedder_into_same_scope_is_refused(tmp_path: Path) -> None:
    path = f"sqlite:///{tmp_path / 'x.db'}"
    with Memory.open(path, embedder=HashingEmbedder(dim=64)) as m:
        m.remember(ALICE, "first")
    with Memory.open(path, embedder=HashingEmbedder(dim=32, name="other")) as m:
        with pytest.raises(EmbeddingMismatchError, match="refusing a 32-d vector"):
            m.remember(ALICE, "second")
        assert m.store.count() == 1
        m.remember(BOB, "a fresh scope may use the other model")


def test_records_written_without_a_model_are_found_by_full_text_once_a_model_is_used(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory.open(path, embedder=None) as m:
        old = m.remember(ALICE, "The spare key hangs behind the garden shed door.").record
        assert [h.record.id for h in m.recall(ALICE, "where is the spare key?")] == [old.id]
        assert m.store.vector_fingerprint(ALICE) is None
    with Memory.open(path, embedder=HashingEmbedder(dim=64)) as m:
        m.remember(ALICE, "We painted the fence green last spring.")
        hit = next(h for h in m.recall(ALICE, "where is the spare key?") if h.record.id == old.id)
        parts = {p.name: p for p in hit.parts}
        assert parts["keyword"].rank == 1 and parts["vector"].rank is None  # no vector was ever made for it
        assert m.store.get_many(ALICE, [old.id])[old.id].embedding_model is None


def test_forget_removes_from_every_signal(mem: Memory) -> None:
    rec = mem.remember(ALICE, "pineapple pizza opinion").record
    mem.forget(ALICE, rec.id)
    assert mem.recall(ALICE, "pineapple pizza opinion") == []
    with pytest.raises(NotFoundError):
        mem.get(ALICE, rec.id)


def test_export_holds_every_record_of_the_user_only(mem: Memory) -> None:
    mem.remember(ALICE, "a1")
    mem.remember(ALICE, "a2 expired soon", ttl=1)
    mem.remember(BOB, "b1")
    data = mem.export(ALICE)
    assert sorted(r["content"] for r in data["records"]) == ["a1", "a2 expired soon"]


def test_filter_by_type_in_recall(mem: Memory) -> None:
    mem.remember(ALICE, "we met at the cafe", type=MemoryType.EPISODIC)
    mem.remember(ALICE, "the cafe is on 5th street")
    hits = mem.recall(ALICE, "cafe", filter=Filter(types=frozenset({MemoryType.EPISODIC})))
    assert [h.record.type for h in hits] == [MemoryType.EPISODIC]


def test_memories_survive_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with Memory.open(path, embedder=HashingEmbedder()) as m:
        rec = m.remember(ALICE, "persist me").record
    with Memory.open(path, embedder=HashingEmbedder()) as m:
        assert m.get(ALICE, rec.id).content == "persist me"
        assert m.recall(ALICE, "persist")[0].record.id == rec.id


def test_dedupe_off_stores_repeated_events(mem: Memory) -> None:
    results = mem.remember_many(ALICE, [NewMemory("thanks!", type="episodic", dedupe=False)] * 2)
    assert [r.status for r in results] == [WriteStatus.ADDED, WriteStatus.ADDED]
    assert mem.store.count() == 2


LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo dev data not present")
def test_reingesting_a_whole_locomo_conversation_adds_zero_rows(mem: Memory) -> None:
    from tiermem.eval.locomo import load_locomo

    conversation = load_locomo(LOCOMO)[0]
    items = [
        NewMemory(t.content, type="episodic", valid_from=t.time, metadata={"dia_id": t.dia_id})
        for t in conversation.turns
    ]
    scope = Scope("eval", conversation.sample_id)
    first = mem.remember_many(scope, items)
    rows = mem.store.count(scope)
    assert rows == len({t.content.casefold() for t in conversation.turns}) > 300
    second = mem.remember_many(scope, items)
    assert mem.store.count(scope) == rows
    assert {r.status for r in second} == {WriteStatus.UNCHANGED}
    assert [r.record.id for r in second] == [r.record.id for r in first]
