"""(internal) An on-disk cache of embeddings for eval runs: variants that embed the same texts re-run in seconds."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tiermem.embed import Embedder, EmbedderWrapper, QueryEmbedder, Vectors
from tiermem.store.vector_file import SUFFIX, VectorFile

__all__ = ["CachedEmbedder", "cache_key"]

_FILE = f"embeddings{SUFFIX}"


def cache_key(fingerprint: str, text: str) -> bytes:
    """sha256 of the model fingerprint and the text: a vector is reused only for the same model and text."""
    return hashlib.sha256(fingerprint.encode("utf-8") + b"\0" + text.encode("utf-8")).digest()


class CachedEmbedder(EmbedderWrapper):
    """Wraps an embedder; vectors are read from (and new ones written to) one file in ``directory``.

    Its pooling is the wrapped model's: the eval must make the vectors a user's store makes with the same model.
    """

    def __init__(self, inner: Embedder, directory: Path) -> None:
        super().__init__(inner)
        directory.mkdir(parents=True, exist_ok=True)
        self._file = VectorFile(directory / _FILE)
        self.hits = 0
        self.misses = 0

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._embed(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Queries, for a model that embeds them differently (kept under their own keys), else as texts."""
        return self._embed(texts, query=isinstance(self.inner, QueryEmbedder))

    def _embed(self, texts: Sequence[str], *, query: bool) -> Vectors:
        # A model embeds a query apart from the same text stored (e5's prefixes): its vectors get their own keys.
        model = self.fingerprint + (" query" if query else "")
        keys = [cache_key(model, t) for t in texts]
        found = self._file.get_many(keys)
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        self.hits += len(texts) - sum(1 for k in keys if k not in found)
        self.misses += len(missing)
        if missing:
            inner = self.inner
            fresh = (
                inner.embed_queries(missing)
                if query and isinstance(inner, QueryEmbedder)
                else inner.embed_batch(missing)
            )
            rows_new = [(cache_key(model, t), fresh[i]) for i, t in enumerate(missing)]
            self._file.put_many(rows_new)
            found.update(rows_new)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = found[key]
        return out

    def close(self) -> None:
        """Close the cache file."""
        self._file.close()
