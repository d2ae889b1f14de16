"""(internal) Prometheus text exposition, written here (a few counters and a histogram need no client library).

Requests are counted by method, route template (``/v1/memories/{record_id}``, never the id itself, so the
series stay few) and status; latency is a histogram by route template; the model's time is measured by
wrapping the embedder; records and store bytes are read when ``/metrics`` is asked for.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from tiermem.embed import Embedder, EmbedderWrapper, Vectors, embed_queries
from tiermem.trust.pii import PROCESS_PII_COUNTS

__all__ = ["BUCKETS", "Metrics", "TimedEmbedder"]

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class Metrics:
    """The service's counters; thread-safe, rendered as Prometheus text 0.0.4."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: dict[tuple[str, str, int], int] = {}
        self._latency: dict[str, list[float]] = {}  # route -> bucket counts..., sum, count
        self.model_seconds = 0.0
        self.model_calls = 0
        self.model_texts = 0

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one finished request."""
        with self._lock:
            key = (method, route, status)
            self._requests[key] = self._requests.get(key, 0) + 1
            row = self._latency.setdefault(route, [0.0] * (len(BUCKETS) + 2))
            for i, bound in enumerate(BUCKETS):
                if seconds <= bound:
                    row[i] += 1
            row[-2] += seconds
            row[-1] += 1

    def latency(self, route: str) -> tuple[list[int], float, int]:
        """A route's cumulative bucket counts (one per ``BUCKETS`` bound), total seconds and request count."""
        with self._lock:
            row = list(self._latency.get(route, [0.0] * (len(BUCKETS) + 2)))
        return [int(n) for n in row[: len(BUCKETS)]], row[-2], int(row[-1])

    def observe_model(self, seconds: float, texts: int) -> None:
        """Count one embedding call."""
        with self._lock:
            self.model_seconds += seconds
            self.model_calls += 1
            self.model_texts += texts

    def render(self, *, records: int | None, store_bytes: int | None, model_loaded: bool) -> str:
        """The exposition text."""
        out: list[str] = []

        def head(name: str, kind: str, text: str) -> None:
            out.append(f"# HELP {name} {text}")
            out.append(f"# TYPE {name} {kind}")

        with self._lock:
            head("tiermem_http_requests_total", "counter", "Requests by method, route template and status.")
            for (method, route, status), n in sorted(self._requests.items()):
                out.append(
                    f'tiermem_http_requests_total{{method="{_label(method)}",route="{_label(route)}",'
                    f'status="{status}"}} {n}'
                )
            head("tiermem_http_request_duration_seconds", "histogram", "Request latency by route template.")
            for route, row in sorted(self._latency.items()):
                r = _label(route)
                for bound, count in zip(BUCKETS, row, strict=False):
                    out.append(f'tiermem_http_request_duration_seconds_bucket{{route="{r}",le="{bound}"}} {count:g}')
                out.append(f'tiermem_http_request_duration_seconds_bucket{{route="{r}",le="+Inf"}} {row[-1]:g}')
                out.append(f'tiermem_http_request_duration_seconds_sum{{route="{r}"}} {row[-2]:.6f}')
                out.append(f'tiermem_http_request_duration_seconds_count{{route="{r}"}} {row[-1]:g}')
            head("tiermem_model_seconds_total", "counter", "Time spent in the embedding model.")
            out.append(f"tiermem_model_seconds_total {self.model_seconds:.6f}")
            head("tiermem_model_calls_total", "counter", "Embedding calls.")
            out.append(f"tiermem_model_calls_total {self.model_calls}")
            head("tiermem_model_texts_total", "counter", "Texts embedded.")
            out.append(f"tiermem_model_texts_total {self.model_texts}")
        head("tiermem_pii_masked_total", "counter", "Values masked in outbound prompts, by kind (the PII guard).")
        for kind, n in sorted(PROCESS_PII_COUNTS.snapshot().items()):
            out.append(f'tiermem_pii_masked_total{{kind="{kind}"}} {n}')
        head("tiermem_model_loaded", "gauge", "1 when the embedding model is loaded and answered.")
        out.append(f"tiermem_model_loaded {int(model_loaded)}")
        if records is not None:
            head("tiermem_records", "gauge", "Records in the store (live, expired and superseded).")
            out.append(f"tiermem_records {records}")
        if store_bytes is not None:
            what = "Bytes of the store (SQLite: file and log; PostgreSQL: its tables and indexes)."
            head("tiermem_store_bytes", "gauge", what)
            out.append(f"tiermem_store_bytes {store_bytes}")
        return "\n".join(out) + "\n"


class TimedEmbedder(EmbedderWrapper):
    """An Embedder that reports the time of every batch to ``metrics``."""

    def __init__(self, inner: Embedder, metrics: Metrics) -> None:
        super().__init__(inner)
        self.metrics = metrics

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Embed and measure."""
        start = time.perf_counter()
        try:
            return self.inner.embed_batch(texts)
        finally:
            self.metrics.observe_model(time.perf_counter() - start, len(texts))

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Embed search queries as the wrapped model does (e5's ``query:`` prefix), and measure.

        Without it the wrapper hid the model's query form: a server on e5 embedded questions as passages.
        """
        start = time.perf_counter()
        try:
            return embed_queries(self.inner, texts)
        finally:
            self.metrics.observe_model(time.perf_counter() - start, len(texts))
