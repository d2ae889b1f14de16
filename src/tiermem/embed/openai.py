"""(internal) An embedder that posts to any OpenAI-compatible ``/embeddings`` endpoint."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence

import numpy as np

from tiermem.config import embed_endpoint
from tiermem.embed.base import Vectors, unit_rows
from tiermem.errors import EmbeddingError

__all__ = ["OpenAIEmbedder"]


class OpenAIEmbedder:
    """Any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint (Ollama, vLLM, llama.cpp, ...).

    The texts are sent as they are, PII unmasked: a masked text would get another vector than the text searched
    for (docs/security.md). The key and the URL are checked by ``config.embed_endpoint``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        dim: int | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        batch_size: int = 64,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._key = embed_endpoint(base_url, api_key, os.environ if environ is None else environ)
        self._url = base_url.rstrip("/") + "/embeddings"
        self._model = model
        self._dim = dim
        self._timeout = timeout
        self._batch_size = batch_size

    @property
    def dim(self) -> int:
        if self._dim is None:  # not configured: learned from the server's first answer
            return int(self.embed_batch(["dimension"]).shape[1])
        return self._dim

    @property
    def fingerprint(self) -> str:
        return f"openai:{self._model}-{self.dim}"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            rows.extend(self._post(list(texts[start : start + self._batch_size])))
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        matrix = np.array(rows, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[1] == 0:
            raise EmbeddingError(f"{self._url} returned no vectors of one dimension")
        if self._dim is None:
            self._dim = int(matrix.shape[1])
        if matrix.shape[1] != self._dim:
            raise EmbeddingError(f"{self._url} returned {matrix.shape[1]}-d vectors, configured dim is {self._dim}")
        return unit_rows(matrix)

    def _post(self, batch: list[str]) -> list[list[float]]:
        body = json.dumps({"model": self._model, "input": batch}).encode()
        request = urllib.request.Request(self._url, data=body, method="POST")
        request.add_header("Content-Type", "application/json")
        if self._key:
            request.add_header("Authorization", f"Bearer {self._key}")
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:
                payload = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise EmbeddingError(f"{self._url} answered {exc.code}: {exc.read()[:200]!r}") from exc
        except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as exc:
            raise EmbeddingError(f"{self._url} failed: {exc}") from exc
        try:
            data = sorted(payload["data"], key=lambda item: item["index"])
            vectors = [item["embedding"] for item in data]
        except (KeyError, TypeError) as exc:
            raise EmbeddingError(f"{self._url} returned no 'data[].embedding': {str(payload)[:200]}") from exc
        if len(vectors) != len(batch):
            raise EmbeddingError(f"{self._url} returned {len(vectors)} vectors for {len(batch)} texts")
        return vectors
