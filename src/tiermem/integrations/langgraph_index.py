"""(internal) LangGraph's ``index`` config on tiermem: which embedder indexes the items and by which fields.

``embed`` may be a LangChain ``Embeddings``, an embedding function (texts in, vectors out), a tiermem
``Embedder``, or a name: tiermem's own embedders (``minilm``, ``e5``, ``hash``, ``openai:<model>`` on the
server ``$TIERMEM_EMBED_URL`` names; ``tiermem:minilm`` is the same as ``minilm``). LangChain's other
``provider:model`` strings need LangChain's model packages, which tiermem does not load: pass their
``Embeddings`` object instead. ``fields`` (``text_fields`` is LangGraph's SQLite store's name for it) are the
paths the item's text is read from, ``$`` (the whole value) by default; ``distance_type`` may only be ``cosine``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base import ensure_embeddings

from tiermem.embed import Embedder, OpenAIEmbedder, Vectors, get_embedder, unit_rows
from tiermem.errors import ConfigError, EmbeddingError, shown, shown_name

__all__ = ["DEFAULT_FIELDS", "Index", "LangChainEmbedder", "check_config", "index_of"]

DEFAULT_FIELDS = ("$",)
_KEYS = ("dims", "embed", "fields", "text_fields", "distance_type")


class LangChainEmbedder:
    """A LangChain ``Embeddings`` as a tiermem ``Embedder``: stored texts by ``embed_documents``, questions by
    ``embed_query``, every vector scaled to unit length (tiermem compares vectors by their dot product).

    ``fingerprint`` names the vector space: vectors of two fingerprints never mix in a scope. By default it is
    the class (or the function's name) and its ``model`` attribute, if any, with the dimension; name it yourself
    when two configurations of one class embed differently.
    """

    def __init__(self, embeddings: Embeddings, dims: int, *, fingerprint: str | None = None) -> None:
        self.embeddings = embeddings
        self._dim = dims
        self._fingerprint = fingerprint or f"langchain:{_model_name(embeddings)}-{dims}"

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def fingerprint(self) -> str:
        return self._fingerprint

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._unit(self.embeddings.embed_documents(list(texts)), len(texts))

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._unit([self.embeddings.embed_query(t) for t in texts], len(texts))

    def _unit(self, rows: Sequence[Sequence[float]], count: int) -> Vectors:
        matrix = np.asarray(rows, dtype=np.float32).reshape(count, -1) if count else np.zeros((0, self._dim))
        if matrix.shape[1] != self._dim:
            raise EmbeddingError(
                f"index.dims is {self._dim}, but {_model_name(self.embeddings)} returned {matrix.shape[1]}-d vectors"
            )
        return unit_rows(matrix)


def _model_name(embeddings: Embeddings) -> str:
    """The class (or wrapped function) and model attribute that identify an ``Embeddings``' vectors."""
    wrapped = getattr(embeddings, "func", None) or getattr(embeddings, "afunc", None) or embeddings
    kind = wrapped if inspect.isroutine(wrapped) else type(wrapped)
    name = f"{kind.__module__}.{kind.__qualname__}"
    model = getattr(embeddings, "model", None) or getattr(embeddings, "model_name", None)
    return f"{name}:{model}" if isinstance(model, str) and model else name


@dataclass(frozen=True, slots=True)
class Index:
    """What a store indexes with: its embedder (None: keyword search only), fields, and the config as given."""

    embedder: Embedder | None
    fields: tuple[str, ...]
    config: dict[str, Any] | None
    embeddings: Embeddings | None = None


def check_config(name: str, config: object, keys: Sequence[str]) -> None:
    """A ConfigError naming ``name`` unless ``config`` is a mapping holding only ``keys``."""
    if not isinstance(config, Mapping):
        raise ConfigError(f"{name} must be a mapping of {', '.join(keys)}, given {type(config).__name__}")
    unknown = sorted(set(config) - set(keys))
    if unknown:
        named = [shown_name(str(k)) for k in unknown]
        raise ConfigError(f"{name} has unknown keys {named}; it takes {', '.join(keys)}")


def index_of(config: Mapping[str, Any] | None, default: Embedder | None) -> Index:
    """The index a LangGraph ``index`` config names (``default``, the memory's embedder, when there is none)."""
    if config is None:
        return Index(default, DEFAULT_FIELDS, None)
    check_config("index", config, _KEYS)
    dims = config.get("dims")
    if isinstance(dims, bool) or not isinstance(dims, int) or dims < 1:
        given = shown(dims, "dims")
        raise ConfigError(f"index.dims must be a positive integer (the model's vector size), given {given!r}")
    distance = config.get("distance_type", "cosine")
    if distance != "cosine":
        given = shown(distance)
        raise ConfigError(f"index.distance_type may only be 'cosine' (tiermem compares by cosine), given {given!r}")
    embedder, embeddings = _embedder(config.get("embed"), dims)
    return Index(embedder, _fields(config), dict(config), embeddings)


def _fields(config: Mapping[str, Any]) -> tuple[str, ...]:
    given = config.get("fields", config.get("text_fields"))
    if given is None:
        return DEFAULT_FIELDS
    fields = [given] if isinstance(given, str) else given
    if not isinstance(fields, Sequence) or not fields or not all(isinstance(f, str) and f for f in fields):
        raise ConfigError(f"index.fields must be a non-empty list of paths (strings), given {shown(given, 'fields')!r}")
    return tuple(fields)


def _embedder(embed: object, dims: int) -> tuple[Embedder, Embeddings | None]:
    if embed is None:
        raise ConfigError("index.embed is required: an Embeddings, an embedding function or an embedder name")
    if isinstance(embed, str):
        embedder = get_embedder(embed.removeprefix("tiermem:"))  # a ConfigError naming tiermem's embedders
        # A server's model is asked its size only when it first embeds: its own check compares it then.
        if not isinstance(embedder, OpenAIEmbedder) and embedder.dim != dims:
            raise ConfigError(f"index.dims is {dims}, but embedder {shown(embed)!r} makes {embedder.dim}-d vectors")
        return embedder, None
    if isinstance(embed, Embedder):
        if embed.dim != dims:
            raise ConfigError(f"index.dims is {dims}, but the embedder makes {embed.dim}-d vectors")
        return embed, None
    if isinstance(embed, Embeddings):
        return LangChainEmbedder(embed, dims), embed
    if callable(embed):
        if inspect.iscoroutinefunction(embed) or inspect.iscoroutinefunction(type(embed).__call__):
            raise ConfigError(
                "index.embed is an async function: tiermem embeds in its synchronous core, pass a function that"
                " returns the vectors (or an Embeddings object)"
            )
        function: Callable[[Sequence[str]], list[list[float]]] = embed
        wrapped = ensure_embeddings(function)
        return LangChainEmbedder(wrapped, dims), wrapped
    raise ConfigError(
        f"index.embed must be an Embeddings, a function or an embedder name, given {type(embed).__name__}"
    )
