"""(internal) The embedder protocols, the vector type and what every embedder shares: unit rows, query embedding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = [
    "Embedder",
    "EmbedderWrapper",
    "QueryEmbedder",
    "Vectors",
    "embed_queries",
    "pools_passages",
    "unit_rows",
]

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def dim(self) -> int:
        """Vector dimension."""
        ...

    @property
    def fingerprint(self) -> str:
        """Identifies the model and dimension; vectors of different fingerprints never mix."""
        ...

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """One normalised row per text."""
        ...


def pools_passages(embedder: object) -> bool:
    """Whether a multi-sentence text's vector may be the mean of its sentences' (``pools_passages`` set True)."""
    return getattr(embedder, "pools_passages", False) is True


class EmbedderWrapper:
    """An embedder around another that keeps its dimension, fingerprint and pooling, so stored vectors match."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner

    @property
    def dim(self) -> int:
        """The wrapped model's dimension."""
        return self.inner.dim

    @property
    def fingerprint(self) -> str:
        """The wrapped model's fingerprint."""
        return self.inner.fingerprint

    @property
    def pools_passages(self) -> bool:
        """The wrapped model's, so its texts get the vectors they get without the wrapper."""
        return pools_passages(self.inner)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """The wrapped model's vectors."""
        return self.inner.embed_batch(texts)


@runtime_checkable
class QueryEmbedder(Protocol):
    """An embedder that embeds search queries differently from stored texts (e5's ``query:`` prefix)."""

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """One normalised row per query."""
        ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """``texts`` embedded as search queries: by ``embed_queries`` where the model tells them apart."""
    # ``QueryEmbedder`` read as its one attribute: a protocol check costs microseconds before every query.
    queries = getattr(embedder, "embed_queries", None)
    if queries is not None:
        vectors: Vectors = queries(texts)
        return vectors
    return embedder.embed_batch(texts)


def unit_rows(matrix: npt.NDArray[Any]) -> Vectors:
    """Each row scaled to length 1 (a zero row stays zero), as float32."""
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (m / norms).astype(np.float32, copy=False)
    return out
