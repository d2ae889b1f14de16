"""The LangGraph store adapter keeps LangGraph's documented store semantics on tiermem's scoped storage."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("langgraph")

from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import ScopeError, ValidationError
from tiermem.integrations.langgraph import ScoredItem, TiermemStore
from tiermem.recall.policy import RecallPolicy

ANN = ("notes", "ann")
BOB = ("notes", "bob")


@pytest.fixture
def store() -> Iterator[TiermemStore]:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        yield TiermemStore(memory)


def test_put_then_get_returns_the_value_with_its_namespace_and_key(store: TiermemStore) -> None:
    store.put(ANN, "drink", {"text": "prefers green tea", "cups": 2})
    item = store.get(ANN, "drink")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (ANN, "drink", {"text": "prefers green tea", "cups": 2})
    assert item.created_at == item.updated_at


def test_get_of_a_missing_key_or_namespace_is_none(store: TiermemStore) -> None:
    store.put(ANN, "drink", {"text": "tea"})
    assert store.get(ANN, "food") is None
    assert store.get(BOB, "drink") is None
    assert store.get((*ANN, "deeper"), "drink") is None


def test_put_on_an_existing_key_replaces_the_value_and_keeps_created_at(store: TiermemStore) -> None:
    store.put(ANN, "drink", {"text": "green tea"})
    first = store.get(ANN, "drink")
    store.put(ANN, "drink", {"text": "black coffee"})
    second = store.get(ANN, "drink")
    assert first is not None and second is not None
    assert second.value == {"text": "black coffee"}
    assert second.created_at == first.created_at
    assert second.updated_at > first.updated_at
    assert [i.value for i in store.search(ANN)] == [{"text": "black coffee"}]


def test_an_update_is_a_new_version_in_the_memory_history(store: TiermemStore) -> None:
    store.put(ANN, "drink", {"text": "green tea"})
    store.put(ANN, "drink", {"text": "black coffee"})
    [hit] = store.search(ANN, query="coffee")
    assert isinstance(hit, ScoredItem) and hit.record_id is not None
    versions = store.memory.history(Scope("notes", "ann"), hit.record_id)
    assert [v.content for v in versions] == ["text: green tea", "text: black coffee"]


def test_delete_removes_the_item_and_every_version_of_it(store: TiermemStore) -> None:
    store.put(ANN, "drink", {"text": "green tea"})
    store.put(ANN, "drink", {"text": "black coffee"})
    store.delete(ANN, "drink")
    store.delete(ANN, "never-stored")  # deleting a missing key is not an error
    assert store.get(ANN, "drink") is None
    assert store.memory.store.count(Scope("notes", "ann")) == 0


def test_equal_values_under_two_keys_are_two_items(store: TiermemStore) -> None:
    store.put(ANN, "a", {"text": "same words"})
    store.put(ANN, "b", {"text": "same words"})
    assert {i.key for i in store.search(ANN)} == {"a", "b"}


def test_search_covers_the_prefix_and_its_sub_namespaces_only(store: TiermemStore) -> None:
    store.put(ANN, "top", {"text": "top level"})
    store.put((*ANN, "work"), "job", {"text": "a nurse"})
    store.put((*ANN, "work", "old"), "job", {"text": "a teacher"})
    store.put(BOB, "top", {"text": "bob's note"})
    store.put(("other", "ann"), "top", {"text": "another tenant"})
    assert {(i.namespace, i.key) for i in store.search(ANN)} == {
        (ANN, "top"),
        ((*ANN, "work"), "job"),
        ((*ANN, "work", "old"), "job"),
    }
    assert {i.namespace for i in store.search((*ANN, "work"))} == {(*ANN, "work"), (*ANN, "work", "old")}
    assert {i.namespace for i in store.search(("notes",))} == {ANN, (*ANN, "work"), (*ANN, "work", "old"), BOB}
    assert len(store.search(())) == 5


@pytest.mark.parametrize(
    ("filter_", "keys"),
    [
        ({"colour": "red"}, {"a", "c"}),
        ({"colour": {"$eq": "red"}}, {"a", "c"}),
        ({"colour": {"$ne": "red"}}, {"b", "d"}),
        ({"size": {"$gt": 2}}, {"c"}),
        ({"size": {"$gte": 2}}, {"b", "c"}),
        ({"size": {"$lt": 2}}, {"a"}),
        ({"size": {"$lte": 2}}, {"a", "b"}),
        ({"colour": "red", "size": {"$gte": 2}}, {"c"}),
        ({"meta": {"shape": "round"}}, {"d"}),
        ({"tags": ["x", "y"]}, {"a"}),
    ],
)
def test_search_filter_follows_langgraph_operators(
    store: TiermemStore, filter_: dict[str, Any], keys: set[str]
) -> None:
    store.put(ANN, "a", {"colour": "red", "size": 1, "tags": ["x", "y"]})
    store.put(ANN, "b", {"colour": "blue", "size": 2})
    store.put(ANN, "c", {"colour": "red", "size": 3})
    store.put(ANN, "d", {"colour": "green", "meta": {"shape": "round"}})
    assert {i.key for i in store.search(ANN, filter=filter_)} == keys


def test_an_unknown_filter_operator_is_refused_with_the_operator_named(store: TiermemStore) -> None:
    store.put(ANN, "a", {"size": 1})
    with pytest.raises(ValidationError, match=r"\$in"):
        store.search(ANN, filter={"size": {"$in": [1]}})


def test_search_pages_with_limit_and_offset(store: TiermemStore) -> None:
    for i in range(7):
        store.put(ANN, f"k{i}", {"text": f"note number {i}"})
    pages = [store.search(ANN, limit=3, offset=o) for o in (0, 3, 6)]
    assert [len(p) for p in pages] == [3, 3, 1]
    assert len({i.key for p in pages for i in p}) == 7


def test_search_with_a_query_ranks_by_hybrid_recall_and_shows_score_parts(store: TiermemStore) -> None:
    store.put(ANN, "pet", {"text": "has a dog called Biscuit"})
    store.put(ANN, "drink", {"text": "prefers green tea in the morning"})
    store.put(ANN, "city", {"text": "lives near the harbour"})
    results = store.search(ANN, query="green tea", limit=2)
    assert results[0].key == "drink"
    top = results[0]
    assert isinstance(top, ScoredItem) and top.score is not None and top.score > 0
    assert {"keyword", "vector"} <= {p.name for p in top.parts}
    assert top.dict()["parts"] and top.dict()["score"] == top.score


def test_search_with_a_query_and_a_filter_applies_both(store: TiermemStore) -> None:
    store.put(ANN, "a", {"text": "green tea", "kind": "drink"})
    store.put(ANN, "b", {"text": "green jacket", "kind": "clothes"})
    assert [i.key for i in store.search(ANN, query="green", filter={"kind": "clothes"})] == ["b"]


def test_a_query_under_a_tenant_prefix_merges_every_users_hits(store: TiermemStore) -> None:
    store.put(ANN, "a", {"text": "green tea"})
    store.put(BOB, "b", {"text": "green tea too"})
    assert {i.namespace for i in store.search(("notes",), query="green tea")} == {ANN, BOB}


def test_index_false_stores_no_vector_but_keyword_search_finds_it(store: TiermemStore) -> None:
    store.put(ANN, "plain", {"text": "unindexed marmalade"}, index=False)
    store.put(ANN, "vec", {"text": "indexed note"})
    hit = store.search(ANN, query="marmalade")[0]
    assert hit.key == "plain" and isinstance(hit, ScoredItem) and hit.record_id is not None
    assert store.memory.store.vectors_of(Scope("notes", "ann"), [hit.record_id]) == {}


def test_the_whole_value_is_indexed_as_sentences_and_labelled_short_values(store: TiermemStore) -> None:
    store.put(ANN, "me", {"name": "Ann", "home": {"city": "Porto"}, "bio": "Ann bakes bread on Sundays", "age": 41})
    [hit] = store.search(ANN, query="bread")
    assert isinstance(hit, ScoredItem) and hit.record_id is not None
    content = store.memory.get(Scope("notes", "ann"), hit.record_id).content
    assert content == "name: Ann home.city: Porto Ann bakes bread on Sundays age: 41"  # lines joined by normalising


def test_index_fields_choose_the_text_that_is_searched(store: TiermemStore) -> None:
    store.put(ANN, "a", {"title": "gardening", "body": "tomatoes need sun"}, index=["body"])
    [hit] = store.search(ANN, query="tomatoes")
    assert isinstance(hit, ScoredItem) and hit.record_id is not None
    assert store.memory.get(Scope("notes", "ann"), hit.record_id).content == "tomatoes need sun"


def test_namespace_labels_map_to_tenant_and_user_scopes(store: TiermemStore) -> None:
    store.put(ANN, "a", {"text": "ann's own note"})
    store.put(("notes",), "shared", {"text": "a note for the whole tenant"})
    memory = store.memory
    assert [r.content for r in memory.list(Scope("notes", "ann")).records] == ["ann's own note"]
    assert [r.content for r in memory.list(Scope("notes", None)).records] == ["a note for the whole tenant"]
    assert memory.list(Scope("notes", "bob")).records == ()
    assert memory.recall(Scope("notes", "bob"), "note") == []


def test_a_label_that_cannot_be_a_scope_part_is_refused_naming_the_namespace(store: TiermemStore) -> None:
    with pytest.raises(ScopeError, match=r"namespace.*second label is the scope's user"):
        store.put(("notes", "ann smith"), "a", {"text": "x"})


def test_labels_langgraph_forbids_are_refused_even_through_batch(store: TiermemStore) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put(("notes", "a.b"), "k", {"text": "x"})
    with pytest.raises(InvalidNamespaceError):
        store.batch([GetOp(("notes", "a.b"), "k")])


def test_records_other_writers_put_in_the_scope_are_not_items(store: TiermemStore) -> None:
    store.memory.remember(Scope("notes", "ann"), "a fact written through Memory")
    store.put(ANN, "a", {"text": "an item"})
    assert [i.key for i in store.search(ANN)] == ["a"]
    assert [i.key for i in store.search(ANN, query="fact written")] == ["a"]  # the nearest item, never the fact
    assert store.list_namespaces() == [ANN]


def test_batch_reads_see_the_store_before_its_puts_and_the_last_put_wins(store: TiermemStore) -> None:
    results = store.batch(
        [
            PutOp(ANN, "k", {"v": 1}),
            GetOp(ANN, "k"),
            PutOp(ANN, "k", {"v": 2}),
            SearchOp(ANN),
        ]
    )
    assert results == [None, None, None, []]
    item = store.get(ANN, "k")
    assert item is not None and item.value == {"v": 2}


def test_async_methods_run_the_same_batch(store: TiermemStore) -> None:
    async def scenario() -> tuple[Any, ...]:
        await store.aput(ANN, "k", {"text": "async note"})
        got = await store.aget(ANN, "k")
        found = await store.asearch(ANN, query="async")
        names = await store.alist_namespaces()
        await store.adelete(ANN, "k")
        return got, found, names, await store.aget(ANN, "k")

    got, found, names, gone = asyncio.run(scenario())
    assert got.value == {"text": "async note"}
    assert [i.key for i in found] == ["k"]
    assert names == [ANN]
    assert gone is None


NAMESPACES = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f")]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, sorted(NAMESPACES)),
        ({"prefix": ("a", "b"), "max_depth": 3}, [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]),
        ({"prefix": ("a", "c")}, [("a", "c", "f")]),
        ({"suffix": ("f",)}, [("a", "b", "f"), ("a", "c", "f")]),
        ({"prefix": ("a", "*", "f")}, [("a", "b", "f"), ("a", "c", "f")]),
        ({"prefix": ("a", "b"), "suffix": ("d", "*")}, [("a", "b", "d", "e"), ("a", "b", "d", "i")]),
        ({"max_depth": 2}, [("a", "b"), ("a", "c")]),
        ({"limit": 2, "offset": 1}, sorted(NAMESPACES)[1:3]),
    ],
)
def test_list_namespaces_matches_langgraphs_in_memory_store(
    store: TiermemStore, kwargs: dict[str, Any], expected: list[tuple[str, ...]]
) -> None:
    reference = InMemoryStore()
    for ns in NAMESPACES:
        store.put(ns, "k", {"text": "x"})
        reference.put(ns, "k", {"text": "x"})
    assert store.list_namespaces(**kwargs) == reference.list_namespaces(**kwargs) == expected


def test_same_ops_give_the_same_items_as_langgraphs_in_memory_store(store: TiermemStore) -> None:
    reference = InMemoryStore()
    script: list[tuple[str, tuple[str, ...], str, dict[str, Any] | None]] = [
        ("put", ANN, "a", {"text": "one", "n": 1}),
        ("put", ANN, "b", {"text": "two", "n": 2}),
        ("put", (*ANN, "x"), "a", {"text": "deep", "n": 3}),
        ("put", BOB, "a", {"text": "bob", "n": 4}),
        ("put", ANN, "a", {"text": "one again", "n": 5}),
        ("delete", ANN, "b", None),
    ]
    for action, ns, key, value in script:
        for target in (store, reference):
            if action == "put" and value is not None:
                target.put(ns, key, value)
            else:
                target.delete(ns, key)

    def seen(target: Any, prefix: tuple[str, ...], **kwargs: Any) -> set[tuple[tuple[str, ...], str, str]]:
        return {(i.namespace, i.key, repr(i.value)) for i in target.search(prefix, **kwargs)}

    for kwargs in (
        {"namespace_prefix": ANN},
        {"namespace_prefix": ("notes",)},
        {"namespace_prefix": ANN, "filter": {"n": {"$gt": 2}}},
    ):
        prefix = kwargs.pop("namespace_prefix")
        assert seen(store, prefix, **kwargs) == seen(reference, prefix, **kwargs)
    for ns, key in ((ANN, "a"), (ANN, "b"), ((*ANN, "x"), "a"), (BOB, "a")):
        mine, theirs = store.get(ns, key), reference.get(ns, key)
        assert (mine and mine.value) == (theirs and theirs.value)


def test_ttl_sets_expiry_in_minutes_and_a_read_refreshes_it(store: TiermemStore) -> None:
    store.put(ANN, "k", {"text": "short lived"}, ttl=10)
    [record] = store.memory.list(Scope("notes", "ann")).records
    assert record.expires_at is not None
    assert abs((record.expires_at - record.created_at).total_seconds() - 600) < 5
    time.sleep(0.01)
    store.get(ANN, "k")
    [refreshed] = store.memory.list(Scope("notes", "ann")).records
    assert refreshed.expires_at is not None and refreshed.expires_at > record.expires_at
    store.get(ANN, "k", refresh_ttl=False)
    [same] = store.memory.list(Scope("notes", "ann")).records
    assert same.expires_at == refreshed.expires_at


def test_an_expired_item_is_not_returned_and_sweep_deletes_it(store: TiermemStore) -> None:
    store.put(ANN, "k", {"text": "gone soon"}, ttl=0.001)  # 60 ms
    store.put(ANN, "kept", {"text": "stays"})
    time.sleep(0.1)
    assert store.get(ANN, "k") is None
    assert [i.key for i in store.search(ANN)] == ["kept"]
    assert store.memory.sweep().expired == 1
    assert store.memory.store.count(Scope("notes", "ann")) == 1


def test_default_ttl_of_the_store_config_applies_to_puts_without_one() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        store = TiermemStore(memory, ttl={"default_ttl": 5})
        store.put(ANN, "k", {"text": "x"})
        [record] = memory.list(Scope("notes", "ann")).records
    assert record.expires_at is not None


def test_a_value_too_large_for_metadata_is_refused_naming_the_limit(store: TiermemStore) -> None:
    with pytest.raises(ValidationError, match=r"metadata.*8192"):
        store.put(ANN, "big", {"text": "x" * 9000})


class _CountingEmbedder(HashingEmbedder):
    """A hashing embedder that tells queries apart (as e5 does) and counts its calls."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def embed_batch(self, texts: Any) -> Any:
        self.calls.append(("passages", tuple(texts)))
        return super().embed_batch(texts)

    def embed_queries(self, texts: Any) -> Any:
        self.calls.append(("queries", tuple(texts)))
        return super().embed_batch(texts)


@pytest.mark.parametrize("perspective", [0.0, 1.0])
def test_a_search_of_one_namespace_leaves_the_embedding_to_recall_in_one_call(perspective: float) -> None:
    embedder = _CountingEmbedder()
    with Memory.open(":memory:", embedder=embedder, policy=RecallPolicy(perspective_weight=perspective)) as memory:
        store = TiermemStore(memory, fields=("text",), source="user")
        store.put(ANN, "t1", {"text": "Ann: I bought my son a red bike for his birthday."})
        embedder.calls.clear()
        hits = store.search(ANN, query="What did Ann buy for her son?")
    assert hits and "red bike" in hits[0].value["text"]
    assert [kind for kind, _ in embedder.calls] == ["queries"]  # one model call for the question ...
    # ... and, opted in, its first-person form ("What did I buy for my son?") in the same call
    assert len(embedder.calls[0][1]) == (2 if perspective else 1)


def test_a_search_across_users_embeds_the_question_once_as_a_query() -> None:
    embedder = _CountingEmbedder()
    with Memory.open(":memory:", embedder=embedder) as memory:
        store = TiermemStore(memory)
        store.put(ANN, "drink", {"text": "prefers green tea"})
        store.put(BOB, "drink", {"text": "prefers black coffee"})
        embedder.calls.clear()
        hits = store.search(("notes",), query="which tea?")
    assert hits and hits[0].namespace == ANN
    assert embedder.calls == [("queries", ("which tea?",))]  # e5's query form, not the stored texts' form
