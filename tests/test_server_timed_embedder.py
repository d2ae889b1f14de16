"""The server's model stopwatch keeps the model's query form: a query embedder's questions are not passages."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tiermem.embed import HashingEmbedder, Vectors, embed_queries
from tiermem.server.metrics import Metrics, TimedEmbedder


class QueryPrefixed(HashingEmbedder):
    """A hashing embedder that embeds queries with a prefix, as e5 does."""

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self.embed_batch([f"query: {t}" for t in texts])


def test_timed_embedder_embeds_queries_as_its_model_does_and_counts_them() -> None:
    metrics = Metrics()
    inner = QueryPrefixed()
    timed = TimedEmbedder(inner, metrics)
    asked = embed_queries(timed, ["where is the spare key?"])
    assert np.allclose(asked, inner.embed_queries(["where is the spare key?"]))
    assert not np.allclose(asked, inner.embed_batch(["where is the spare key?"]))
    assert metrics.model_calls == 1 and metrics.model_texts == 1


def test_timed_embedder_of_a_plain_model_embeds_queries_as_passages() -> None:
    inner = HashingEmbedder()
    timed = TimedEmbedder(inner, Metrics())
    assert np.allclose(embed_queries(timed, ["the blue bike"]), inner.embed_batch(["the blue bike"]))
