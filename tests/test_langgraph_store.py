"""The LangGraph store adapter keeps LangGraph's documented store semantics on tiermem's scoped storage.

Search scores, the index config and TTLs have their own files (test_langgraph_search.py, test_langgraph_ttl.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("langgraph")

from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from doors import CREDENTIAL, HOSTILE, holds_credential, hostile_is_kept_safely, hostile_was_stored
from langgraph_helpers import memory, pg_url  # noqa: F401  (fixtures)
from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConfigError, SecretRefusedError, ValidationError
from tiermem.integrations.langgraph import ScoredItem, TiermemStore

ANN = ("notes", "ann")
BOB = ("notes", "bob")


@pytest.fixture
def store() -> Iterator[TiermemStore]:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        yield TiermemStore(mem)


@pytest.fixture
def both(memory: Memory) -> TiermemStore:  # noqa: F811
    """A store on each backend in turn, for what the backend stores or matches itself (scopes, tags)."""
    return TiermemStore(memory)


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


@pytest.mark.parametrize(
    ("filter_", "keys"),
    [
        ({"user.access-level": "nested"}, {"a"}),
        ({"user.123abc": {"$gte": 2}}, {"b"}),
        ({"user.access-level": {"$ne": "nested"}}, {"b", "c"}),
        ({"dotted.name": "kept"}, {"c"}),  # a value that holds the dotted name as its own key is read by it
        ({"user": {"access-level": "nested"}}, {"a"}),
    ],
)
def test_a_dotted_filter_key_reads_nested_fields(store: TiermemStore, filter_: dict[str, Any], keys: set[str]) -> None:
    store.put(ANN, "a", {"user": {"access-level": "nested"}})
    store.put(ANN, "b", {"user": {"123abc": 3}})
    store.put(ANN, "c", {"dotted.name": "kept", "dotted": {"name": "other"}})
    assert {i.key for i in store.search(ANN, filter=filter_)} == keys


@pytest.mark.parametrize(
    ("filter_", "keys"),
    [
        ({"flag": True}, {"bool"}),
        ({"flag": 1}, {"one"}),
        ({"flag": {"$ne": True}}, {"one", "nan", "big"}),
        ({"flag": {"$eq": float("nan")}}, set()),
        ({"flag": {"$lt": float("inf")}}, {"bool", "one", "big"}),  # as LangGraph's stores read true: 1
        ({"flag": {"$gt": 10**400}}, set()),
        ({"flag": {"$gte": 10**30}}, {"big"}),
    ],
)
def test_filter_equality_is_json_equality_and_odd_numbers_compare_safely(
    store: TiermemStore, filter_: dict[str, Any], keys: set[str]
) -> None:
    store.put(ANN, "bool", {"flag": True})
    store.put(ANN, "one", {"flag": 1})
    store.put(ANN, "nan", {"flag": "not a number"})
    store.put(ANN, "big", {"flag": 10**40})
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
    mem = store.memory
    assert [r.content for r in mem.list(Scope("notes", "ann")).records] == ["ann's own note"]
    assert [r.content for r in mem.list(Scope("notes", None)).records] == ["a note for the whole tenant"]
    assert mem.list(Scope("notes", "bob")).records == ()
    assert mem.recall(Scope("notes", "bob"), "note") == []


@pytest.mark.parametrize(
    ("label", "part"),
    [
        ("a%b", "lg.a.25b"),
        ("star*", "lg.star.2a"),
        ("alice\n", "lg.alice.0a"),
        ("Ann Smith", "lg.Ann.20Smith"),
        ("_hidden", "lg._hidden"),
        ("cafe\u0301", "lg.cafe.cc.81"),  # not NFC: a scope part must be
        ("x" * 200, "lgh."),
        ("Zoë", "Zoë"),  # a valid scope part stays as it is
    ],
)
def test_namespace_label_with_percent_round_trips(both: TiermemStore, label: str, part: str) -> None:
    namespace = ("notes", label, "sub")
    both.put(namespace, "k", {"text": "a note under an unusual label"})
    item = both.get(namespace, "k")
    assert item is not None and item.namespace == namespace and item.value == {"text": "a note under an unusual label"}
    assert [i.namespace for i in both.search(("notes", label))] == [namespace]
    assert [i.namespace for i in both.search(("notes", label), query="unusual label")] == [namespace]
    assert both.list_namespaces(prefix=("notes", label)) == [namespace]
    assert both.list_namespaces(prefix=("notes", "*", "sub")) == [namespace]
    [scope] = both.memory.store.iter_scopes()
    assert scope.tenant == "notes" and scope.user is not None and scope.user.startswith(part)
    both.delete(namespace, "k")
    assert both.get(namespace, "k") is None and both.list_namespaces() == []


def test_labels_that_differ_only_where_they_are_encoded_stay_apart(both: TiermemStore) -> None:
    for label in ("alice", "alice\n", "Alice", "a%b", "a b"):
        both.put(("users", label), "k", {"label": label})
        both.put((label,), "k", {"label": label})
    for label in ("alice", "alice\n", "Alice", "a%b", "a b"):
        assert [i.value["label"] for i in both.search(("users", label))] == [label]
        assert [i.value["label"] for i in both.search((label,))] == [label]
        assert both.list_namespaces(prefix=("users", label)) == [("users", label)]
        assert both.list_namespaces(prefix=(label,)) == [(label,)]
    assert both.list_namespaces(suffix=("alice",)) == [("alice",), ("users", "alice")]


@pytest.mark.parametrize("namespace", [("notes", "a.b"), ("notes", ""), ("notes", 7), ("notes", "ann", "x\x00")])
def test_labels_langgraph_forbids_raise_its_invalid_namespace_error_before_anything_runs(
    store: TiermemStore, namespace: tuple[Any, ...]
) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put(namespace, "k", {"text": "x"})
    for op in (GetOp(namespace, "k"), PutOp(namespace, "k", {"v": 1}), SearchOp(namespace)):
        with pytest.raises(InvalidNamespaceError):
            store.batch([PutOp(ANN, "first", {"v": 1}), op])
    assert store.get(ANN, "first") is None  # the batch's valid put did not run either


@pytest.mark.parametrize("namespace", [("notes", f"k.{CREDENTIAL}"), ("notes", "ann", "", CREDENTIAL)])
def test_an_invalid_namespace_error_does_not_repeat_a_credential_in_a_label(
    store: TiermemStore, namespace: tuple[str, ...]
) -> None:
    for call in (
        lambda: store.put(namespace, "k", {"text": "x"}),
        lambda: store.get(namespace, "k"),
        lambda: store.batch([GetOp(namespace, "k")]),
        lambda: asyncio.run(store.aput(namespace, "k", {"text": "x"})),
    ):
        with pytest.raises(InvalidNamespaceError) as refused:
            call()
        assert CREDENTIAL not in str(refused.value) and refused.value.__context__ is None
    with pytest.raises(InvalidNamespaceError, match=r"'a\.b'"):  # a label without a credential is still named
        store.put(("notes", "a.b"), "k", {"text": "x"})


def test_a_store_config_error_does_not_repeat_a_credential(store: TiermemStore) -> None:
    mem = store.memory
    for config in ({"dims": 8, "embed": CREDENTIAL}, {"dims": f"password: {CREDENTIAL}", "embed": "hash"}):
        with pytest.raises(ConfigError) as refused:
            TiermemStore(mem, index=config)
        assert CREDENTIAL not in str(refused.value)
    with pytest.raises(ConfigError) as refused:
        TiermemStore(mem, ttl={"default_ttl": "password: Lantern#Orbit42"})
    assert "Lantern" not in str(refused.value)


@pytest.mark.parametrize("value", [{"text": f"the key is {CREDENTIAL}"}, {"text": "harmless", "note": CREDENTIAL}])
def test_put_passes_the_write_gate_refusing_a_credential_anywhere_in_the_value(
    both: TiermemStore, value: dict[str, str]
) -> None:
    with pytest.raises(SecretRefusedError):
        both.put(ANN, "k", value)
    assert both.get(ANN, "k") is None and not holds_credential(both.memory.store, Scope("notes", "ann"))


def test_put_passes_the_write_gate_quarantining_a_hostile_note_from_an_untrusted_source(both: TiermemStore) -> None:
    store = TiermemStore(both.memory, source="tool:crawler")
    store.put(ANN, "bad", {"text": HOSTILE})
    store.put(ANN, "tea", {"text": "prefers green tea in the morning"})
    assert hostile_was_stored(store.memory.store, Scope("notes", "ann"))
    assert hostile_is_kept_safely(store.memory.store, Scope("notes", "ann"))
    # Recall leaves it out, and so does the rest of a search with a query, and a listing without one.
    assert [i.key for i in store.search(ANN, query="forward every message")] == ["tea"]
    assert [i.key for i in store.search(ANN)] == ["tea"]


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


def test_a_value_too_large_for_metadata_is_refused_naming_the_limit(store: TiermemStore) -> None:
    with pytest.raises(ValidationError, match=r"metadata.*8192"):
        store.put(ANN, "big", {"text": "x" * 9000})
