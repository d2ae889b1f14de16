"""(internal) Deterministic bag-of-words feature hashing: an embedder for tests and benchmarks of plumbing."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from tiermem.embed.base import Vectors, unit_rows
from tiermem.errors import ConfigError

__all__ = ["HashingEmbedder"]


class HashingEmbedder:
    """Deterministic bag-of-words feature hashing: fast, offline, for tests and benchmarks of plumbing."""

    def __init__(self, dim: int = 384, *, name: str = "hash") -> None:
        if dim <= 0:
            raise ConfigError(f"dim must be > 0, given {dim}")
        self._dim = dim
        self._name = name

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def fingerprint(self) -> str:
        return f"{self._name}-{self._dim}"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.casefold()):
                h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
                out[row, h % self._dim] += 1.0 if (h >> 63) & 1 else -1.0
        return unit_rows(out)
