"""The LangGraph adapter's search: hybrid recall ranks, the score is a cosine similarity, the index config embeds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

pytest.importorskip("langgraph")

from langgraph_helpers import WordEmbeddings, memory, pg_url  # noqa: F401  (fixtures)
from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConfigError, EmbeddingError
from tiermem.integrations.langgraph import LangChainEmbedder, ScoredItem, TiermemStore
from tiermem.recall.policy import RecallPolicy

ANN = ("notes", "ann")
BOB = ("notes", "bob")
EMB = HashingEmbedder()


def cosine(a: str, b: str, embedder: Any = EMB) -> float:
    va, vb = embedder.embed_batch([a, b])
    return float(np.dot(va, vb))


def test_search_score_is_cosine_similarity(memory: Memory) -> None:  # noqa: F811
    store = TiermemStore(memory)
    store.put(ANN, "drink", {"text": "prefers green tea in the morning"})
    store.put(ANN, "jacket", {"text": "bought a green jacket"})
    store.put(ANN, "city", {"text": "lives near a harbour"})
    results = store.search(ANN, query="prefers green tea in the morning")
    assert [r.key for r in results] == ["drink", "jacket", "city"]
    scores = {r.key: r.score for r in results}
    assert scores["drink"] == pytest.approx(1.0, abs=1e-5)  # the identical text
    assert scores["jacket"] == pytest.approx(cosine("prefers green tea in the morning", "bought a green jacket"))
    assert scores["city"] == pytest.approx(0.0, abs=1e-5)  # no word in common


def test_scored_items_keep_tiermems_rank_score_relevance_and_parts(memory: Memory) -> None:  # noqa: F811
    store = TiermemStore(memory)
    store.put(ANN, "pet", {"text": "has a dog called Biscuit"})
    store.put(ANN, "drink", {"text": "prefers green tea in the morning"})
    top = store.search(ANN, query="green tea", limit=1)[0]
    assert isinstance(top, ScoredItem) and top.key == "drink"
    assert top.rank_score is not None and top.rank_score != top.score and top.relevance is not None
    assert {"keyword", "vector"} <= {p.name for p in top.parts}
    as_dict = top.dict()
    assert as_dict["score"] == top.score and as_dict["rank_score"] == top.rank_score
    assert as_dict["parts"] and as_dict["record_id"] == top.record_id


def test_update_replaces_old_text_match(memory: Memory) -> None:  # noqa: F811
    store = TiermemStore(memory)
    store.put(ANN, "pet", {"text": "a zebra called Xerxes"})
    store.put(ANN, "other", {"text": "a parrot called Polly"})
    store.put(ANN, "pet", {"text": "a dog called Biscuit"})
    results = store.search(ANN, query="zebra Xerxes")
    pet = next(r for r in results if r.key == "pet")
    assert isinstance(pet, ScoredItem) and pet.value == {"text": "a dog called Biscuit"}
    # Neither found by its old words nor ranked where they were: only its own text counts.
    assert not {"keyword", "current_version"} & {p.name for p in pet.parts if p.rank is not None}
    assert pet.score == pytest.approx(cosine("zebra Xerxes", "a dog called Biscuit"), abs=1e-5)
    assert store.search(ANN, query="dog Biscuit")[0].key == "pet"


def test_search_returns_the_items_recall_left_out_nearest_first(memory: Memory) -> None:  # noqa: F811
    memory.policy = RecallPolicy(min_relevance=1.0)  # recall keeps nothing: every item comes from the rest
    store = TiermemStore(memory)
    store.put(ANN, "far", {"text": "lives near the harbour"})
    store.put(ANN, "near", {"text": "bought a green jacket"})
    store.put(ANN, "same", {"text": "prefers green tea"})
    store.put(ANN, "plain", {"text": "green tea again"}, index=False)
    results = store.search(ANN, query="prefers green tea", limit=10)
    assert [r.key for r in results] == ["same", "near", "far", "plain"]
    assert [r.score is None for r in results] == [False, False, False, True]
    assert all(isinstance(r, ScoredItem) and r.rank_score is None for r in results)
    assert [r.key for r in store.search(ANN, query="prefers green tea", limit=2, offset=1)] == ["near", "far"]


def test_search_score_is_none_for_an_item_without_a_vector() -> None:
    with Memory.open(":memory:", embedder=None) as mem:
        store = TiermemStore(mem)
        store.put(ANN, "a", {"text": "green tea"})
        store.put(ANN, "b", {"text": "black coffee"})
        results = store.search(ANN, query="green tea")
    assert [(r.key, r.score) for r in results] == [("a", None), ("b", None)]  # the keyword match first


def test_search_score_of_an_item_indexed_by_several_texts_is_its_best_texts() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        store = TiermemStore(mem, fields=("title", "tags[*]"))
        store.put(ANN, "a", {"title": "garden plans", "tags": ["tomatoes", "sunny corner"], "note": "unindexed"})
        store.put(ANN, "b", {"title": "tomatoes"})
        by_key = {r.key: r.score for r in store.search(ANN, query="tomatoes")}
        assert by_key == pytest.approx({"a": 1.0, "b": 1.0})  # each has a text that is the question
        by_key = {r.key: r.score for r in store.search(ANN, query="sunny corner garden")}
        best = max(cosine("sunny corner garden", t) for t in ("garden plans", "sunny corner"))
        assert by_key["a"] == pytest.approx(best)
        assert by_key["b"] == pytest.approx(0.0, abs=1e-5)


class _CountingEmbedder(HashingEmbedder):
    """A hashing embedder that tells queries apart (as e5 does) and counts its calls."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def embed_batch(self, texts: Sequence[str]) -> Any:
        self.calls.append(("passages", tuple(texts)))
        return super().embed_batch(texts)

    def embed_queries(self, texts: Sequence[str]) -> Any:
        self.calls.append(("queries", tuple(texts)))
        return super().embed_batch(texts)


@pytest.mark.parametrize("perspective", [0.0, 1.0])
def test_a_search_of_one_namespace_leaves_the_embedding_to_recall_in_one_call(perspective: float) -> None:
    embedder = _CountingEmbedder()
    with Memory.open(":memory:", embedder=embedder, policy=RecallPolicy(perspective_weight=perspective)) as mem:
        store = TiermemStore(mem, fields=("text",), source="user")
        store.put(ANN, "t1", {"text": "Ann: I bought my son a red bike for his birthday."})
        embedder.calls.clear()
        hits = store.search(ANN, query="What did Ann buy for her son?")
    assert hits and "red bike" in hits[0].value["text"] and hits[0].score is not None
    assert [kind for kind, _ in embedder.calls] == ["queries"]  # one model call for the question (and its score)
    # ... and, opted in, its first-person form ("What did I buy for my son?") in the same call
    assert len(embedder.calls[0][1]) == (2 if perspective else 1)


def test_a_search_across_users_embeds_the_question_once_as_a_query() -> None:
    embedder = _CountingEmbedder()
    with Memory.open(":memory:", embedder=embedder) as mem:
        store = TiermemStore(mem)
        store.put(ANN, "drink", {"text": "prefers green tea"})
        store.put(BOB, "drink", {"text": "prefers black coffee"})
        embedder.calls.clear()
        hits = store.search(("notes",), query="which tea?")
    assert hits and hits[0].namespace == ANN
    assert embedder.calls == [("queries", ("which tea?",))]  # e5's query form, not the stored texts' form


# -- the index config ------------------------------------------------------------------------------------------


def test_index_config_embeds_with_langchain_embeddings(memory: Memory) -> None:  # noqa: F811
    embeddings = WordEmbeddings(dims=64)
    config = {"dims": 64, "embed": embeddings, "fields": ["title"]}
    store = TiermemStore(memory, index=config)
    assert store.index_config == config and store.embeddings is embeddings
    store.put(ANN, "a", {"title": "green tea", "body": "unindexed words"})
    store.put(ANN, "b", {"title": "black coffee"})
    [record] = [r for r in memory.list(Scope("notes", "ann")).records if r.content == "green tea"]
    assert record.embedding_model == f"langchain:{WordEmbeddings.__module__}.WordEmbeddings-64"
    results = store.search(ANN, query="green tea")
    assert [r.key for r in results] == ["a", "b"]
    assert results[0].score == pytest.approx(1.0, abs=1e-5)  # the query's unnormalised vector is scaled
    assert {"documents", "query"} <= set(embeddings.calls)
    assert store.search(ANN, query="unindexed words")[0].score == pytest.approx(0.0, abs=1e-5)


def test_index_config_takes_an_embedding_function_and_sqlites_text_fields() -> None:
    inner = HashingEmbedder(32)

    def embed(texts: Sequence[str]) -> list[list[float]]:
        return [list(map(float, row)) for row in inner.embed_batch(texts)]

    with Memory.open(":memory:", embedder=None) as mem:
        config = {"dims": 32, "embed": embed, "text_fields": ["body"], "distance_type": "cosine"}
        store = TiermemStore(mem, index=config)
        store.put(ANN, "a", {"body": "tomatoes need sun", "title": "garden"})
        [hit] = store.search(ANN, query="tomatoes need sun")
        assert hit.score == pytest.approx(1.0, abs=1e-5)
        [record] = mem.list(Scope("notes", "ann")).records
    assert record.content == "tomatoes need sun" and record.embedding_model is not None
    assert "test_index_config_takes_an_embedding_function" in record.embedding_model


def test_index_config_takes_a_tiermem_embedder_name_or_object() -> None:
    with Memory.open(":memory:", embedder=None) as mem:
        named = TiermemStore(mem, index={"dims": 384, "embed": "tiermem:hash"})
        assert named.embedder is not None and named.embedder.fingerprint == "hash-384"
        given = HashingEmbedder(16)
        assert TiermemStore(mem, index={"dims": 16, "embed": given}).embedder is given
        named.put(ANN, "a", {"text": "prefers green tea daily"})
        assert named.search(ANN, query="prefers green tea daily")[0].score == pytest.approx(1.0, abs=1e-5)


async def _async_embed(texts: Sequence[str]) -> list[list[float]]:
    return [[1.0] for _ in texts]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"embed": WordEmbeddings()}, r"index\.dims must be a positive integer"),
        ({"dims": 64}, r"index\.embed is required"),
        ({"dims": 64, "embed": WordEmbeddings(), "ann_index_config": {}}, r"unknown keys \['ann_index_config'\]"),
        ({"dims": 64, "embed": WordEmbeddings(), "distance_type": "l2"}, r"only be 'cosine'.*'l2'"),
        ({"dims": 64, "embed": "cohere:embed-english-v3.0"}, r"unknown embedder 'cohere:embed-english-v3.0'"),
        ({"dims": 64, "embed": "hash"}, r"index\.dims is 64, but embedder 'hash' makes 384-d vectors"),
        ({"dims": 8, "embed": _async_embed}, r"async function"),
        ({"dims": 8, "embed": 42}, r"given int"),
        ({"dims": 8, "embed": WordEmbeddings(8), "fields": []}, r"index\.fields must be a non-empty list"),
    ],
)
def test_index_config_refuses_what_it_cannot_use_naming_the_field(config: dict[str, Any], message: str) -> None:
    with Memory.open(":memory:", embedder=None) as mem, pytest.raises(ConfigError, match=message):
        TiermemStore(mem, index=config)


def test_fields_given_twice_are_refused() -> None:
    with Memory.open(":memory:", embedder=None) as mem, pytest.raises(ConfigError, match="given twice"):
        TiermemStore(mem, index={"dims": 8, "embed": WordEmbeddings(8), "fields": ["a"]}, fields=["b"])


def test_vectors_of_another_size_than_index_dims_are_refused_and_nothing_is_stored() -> None:
    with Memory.open(":memory:", embedder=None) as mem:
        store = TiermemStore(mem, index={"dims": 32, "embed": WordEmbeddings(dims=64)})
        with pytest.raises(EmbeddingError, match=r"index\.dims is 32, but .*WordEmbeddings returned 64-d vectors"):
            store.put(ANN, "a", {"text": "green tea"})
        assert store.get(ANN, "a") is None and mem.store.count() == 0


def test_langchain_embedder_scales_vectors_to_unit_length() -> None:
    embedder = LangChainEmbedder(WordEmbeddings(dims=16), 16, fingerprint="words-v1")
    queries = embedder.embed_queries(["green tea", "harbour"])
    assert embedder.fingerprint == "words-v1" and queries.shape == (2, 16) and queries.dtype == np.float32
    assert np.linalg.norm(queries, axis=1) == pytest.approx([1.0, 1.0])
    assert embedder.embed_batch([]).shape == (0, 16)
