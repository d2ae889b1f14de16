"""Embedders: the protocol, the default ONNX MiniLM, an OpenAI-compatible client and a hashing embedder.

Each embedder has a module of its own (``minilm``, ``e5``, ``openai``, ``hashing``; the protocols and shared
helpers in ``base``); every public name is imported from here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from tiermem.config import EMBED_URL_ENV, EMBEDDERS, check_embedder_name, model_sessions
from tiermem.embed.base import (
    Embedder,
    EmbedderWrapper,
    QueryEmbedder,
    Vectors,
    embed_queries,
    pools_passages,
    unit_rows,
)
from tiermem.embed.e5 import E5Embedder
from tiermem.embed.hashing import HashingEmbedder
from tiermem.embed.minilm import MiniLMEmbedder
from tiermem.embed.openai import OpenAIEmbedder
from tiermem.errors import ConfigError

__all__ = [
    "EMBEDDERS",
    "EMBED_URL_ENV",
    "E5Embedder",
    "Embedder",
    "EmbedderWrapper",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "QueryEmbedder",
    "Vectors",
    "embed_queries",
    "get_embedder",
    "pools_passages",
    "unit_rows",
]


def get_embedder(name: str = "minilm", environ: Mapping[str, str] | None = None) -> Embedder:
    """An embedder by name: ``minilm`` (default, ONNX), ``e5`` / ``multilingual`` (multilingual-e5-small),
    ``hash`` (for tests) or ``openai:<model>`` (a server)."""
    check_embedder_name(name)
    env = os.environ if environ is None else environ
    if name == "minilm":
        return MiniLMEmbedder(sessions=model_sessions(env))
    if name == "hash":
        return HashingEmbedder()
    if name in ("e5", "multilingual"):
        return E5Embedder()
    # Any model an OpenAI-compatible server runs (Ollama, vLLM, llama.cpp, ...): a stronger one than the default
    # can be measured with `tiermem eval` and used; vectors of two models never mix (see the fingerprint).
    url = env.get(EMBED_URL_ENV, "")
    if not url:
        raise ConfigError(f"embedder {name!r} needs ${EMBED_URL_ENV}, the server's base URL (http://host:port/v1)")
    return OpenAIEmbedder(url, name.partition(":")[2].strip(), environ=env)
