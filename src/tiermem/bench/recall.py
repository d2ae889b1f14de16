"""(internal) ``tiermem bench``: ingest rate, search latency and bytes per record on synthetic memories.

Search latency does not depend on the values in the vectors, only on their count and dimension, so the large
scopes are filled through the real write path with random unit vectors under the default model's fingerprint;
queries are embedded with the real model. Ingest rate is measured separately, with the real model.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from tiermem.embed import Embedder, Vectors, get_embedder, pools_passages
from tiermem.memory import Memory
from tiermem.recall.search import hybrid_recall
from tiermem.types import Filter, Scope, utcnow
from tiermem.write.path import NewMemory

__all__ = ["print_report", "run_bench", "synthetic_texts", "zipf_texts"]

_PEOPLE = """Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent
    Victor""".split()
_VERBS = (
    "met",
    "called",
    "visited",
    "emailed",
    "cooked dinner with",
    "went hiking with",
    "argued with",
    "planned a trip with",
    "borrowed a book from",
    "played chess with",
    "adopted a cat with",
    "moved in with",
)
_PLACES = (
    "in Seattle",
    "at the office",
    "near the lake",
    "in Austin",
    "at the gym",
    "in a small cafe",
    "at the airport",
    "in Lisbon",
    "at the farmers market",
    "on the train",
    "at home",
    "in Kyoto",
)
_TOPICS = (
    "about the budget",
    "about a new job",
    "about their dog",
    "about vacation plans",
    "about a recipe",
    "about the wedding",
    "about a concert",
    "about taxes",
    "about a broken bike",
    "about piano lessons",
    "about the garden",
    "about a marathon",
    "about photography",
    "about a startup idea",
)
_WHEN = (
    "on Monday",
    "last weekend",
    "in March",
    "yesterday",
    "two weeks ago",
    "on her birthday",
    "at noon",
    "after work",
    "before the holidays",
    "early in the morning",
)


_COMMON = """the a and to of i in was it my for on with that we at but he she they had is be this went about from
    you have so her his just like one time day really then all when got out""".split()
_SYLLABLES = """ka lo mi ne ru ta vo shi pe da gu ri so be na zu te ma ko li fa xo qui we""".split()


def zipf_texts(n: int, seed: int = 7, vocabulary: int = 30_000) -> list[str]:
    """n records of 10-25 words drawn Zipf-like (s = 1.07, as in natural text) from a fixed vocabulary.

    Natural language is Zipfian: a few words are everywhere (and are stop words), most are rare. Search cost
    depends on that shape (how many records a query word matches), so the search corpora follow it; the
    words past the common head are pronounceable pseudo-words.
    """
    rng = random.Random(seed)
    words = list(_COMMON)
    seen = set(words)
    while len(words) < vocabulary:
        w = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    weights = 1.0 / np.arange(1, vocabulary + 1) ** 1.07
    probs = weights / weights.sum()
    gen = np.random.default_rng(seed)
    lengths = gen.integers(10, 26, size=n)
    draws = gen.choice(vocabulary, size=int(lengths.sum()), p=probs)
    out, pos = [], 0
    for i, length in enumerate(lengths):
        out.append(" ".join(words[j] for j in draws[pos : pos + length]) + f" n{i}")
        pos += length
    return out


def synthetic_texts(n: int, seed: int = 7) -> list[str]:
    """n distinct English memory-like sentences (12-20 words): realistic length for timing the embedder."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(_PEOPLE)} {rng.choice(_VERBS)} {rng.choice(_PEOPLE)} {rng.choice(_PLACES)} "
        f"{rng.choice(_WHEN)} and talked {rng.choice(_TOPICS)}, note {i}"
        for i in range(n)
    ]


class _RandomVectors:
    """Random unit vectors under another embedder's fingerprint: fills stores fast, same search cost."""

    def __init__(self, like: Embedder, seed: int = 11) -> None:
        self.dim = like.dim
        self.fingerprint = like.fingerprint
        self.pools_passages = pools_passages(like)
        self._rng = np.random.default_rng(seed)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        m: Vectors = self._rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        m /= np.linalg.norm(m, axis=1, keepdims=True)
        return m


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _ms(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {"p50_ms": round(statistics.median(ms), 3), "p95_ms": round(_pct(ms, 95), 3)}


def _fill(mem: Memory, scopes: list[Scope], texts: list[str], batch: int, tick: Callable[[int], None]) -> float:
    per_scope = len(texts) // len(scopes)
    start = time.perf_counter()
    for s, scope in enumerate(scopes):
        chunk = texts[s * per_scope : (s + 1) * per_scope]
        for i in range(0, len(chunk), batch):
            mem.remember_many(scope, [NewMemory(t, type="episodic") for t in chunk[i : i + batch]])
            tick(min(batch, len(chunk) - i))
    return time.perf_counter() - start


def _search(mem: Memory, real: Embedder, scopes: list[Scope], queries: list[str]) -> dict[str, Any]:
    qvecs = real.embed_batch(queries[:1])  # warm the model before timing
    embed_times, without, with_embed = [], [], []
    rng = random.Random(3)
    for q in queries:
        scope = rng.choice(scopes)
        t0 = time.perf_counter()
        qvecs = real.embed_batch([q])
        t1 = time.perf_counter()
        hybrid_recall(mem.store, mem.embedder, scope, q, k=10, filter_=Filter(), now=utcnow(), query_vector=qvecs[0])
        t2 = time.perf_counter()
        embed_times.append(t1 - t0)
        without.append(t2 - t1)
        with_embed.append(t2 - t0)
    return {
        "search_excluding_embedding": _ms(without),
        "search_including_embedding": _ms(with_embed),
        "query_embedding": _ms(embed_times),
    }


@runtime_checkable
class _Shortlisting(Protocol):
    """A store whose vector search shortlists a scope of ``shortlist_from`` records or more (None: never)."""

    shortlist_from: int | None


def _db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def run_bench(
    *, records: int, scopes: int, queries: int, embed_sample: int, embedder: str, progress: bool = False
) -> dict[str, Any]:
    """Run every measurement in a temporary directory and return the figures."""
    real = get_embedder(embedder)
    # Queries: a question wrapped around a few words of a record-like text from another seed.
    query_texts = [f"what do you remember about {' '.join(t.split()[:6])}?" for t in zipf_texts(queries, seed=99)]
    report: dict[str, Any] = {"embedder": real.fingerprint, "records": records, "scopes": scopes, "queries": queries}
    tick, close = _progress(progress, embed_sample + records + scopes * 100)
    with tempfile.TemporaryDirectory(prefix="tiermem-bench-") as tmp:
        # 1. Ingest with real embeddings, batched, through the full write path.
        with Memory.open(Path(tmp) / "ingest.db", embedder=real) as mem:
            real.embed_batch(["warm up"])
            seconds = _fill(mem, [Scope("bench", "ingest")], synthetic_texts(embed_sample), 256, tick)
            report["ingest"] = {
                "records": embed_sample,
                "seconds": round(seconds, 2),
                "records_per_s": round(embed_sample / seconds, 1),
            }
        # 2. One scope of `records`; 3. `scopes` scopes of 100.
        for name, scope_list, per in (
            ("one_scope", [Scope("bench", "big")], records),
            ("many_scopes", [Scope("bench", f"u{i}") for i in range(scopes)], 100),
        ):
            path = Path(tmp) / f"{name}.db"
            with Memory.open(path, embedder=_RandomVectors(real)) as mem:
                fill = _fill(mem, scope_list, zipf_texts(per * len(scope_list)), 2000, tick)
                hybrid_recall(
                    mem.store,
                    mem.embedder,
                    scope_list[0],
                    "warm",
                    k=10,
                    filter_=Filter(),
                    now=utcnow(),
                    query_vector=real.embed_batch(["warm"])[0],
                )  # loads the vector cache
                figures = _search(mem, real, scope_list, query_texts)
                if name == "one_scope" and isinstance(mem.store, _Shortlisting):
                    # Baseline in the same process, on the same data: every vector search exact.
                    mem.store.shortlist_from, default = None, mem.store.shortlist_from
                    figures["exact_vector_baseline"] = _search(mem, real, scope_list, query_texts)
                    mem.store.shortlist_from = default
                total = mem.store.count()
            # Measured after close, which folds the write-ahead log into the file.
            figures["fill_records_per_s_without_embedding"] = round(total / fill, 1)
            figures["db_bytes_per_record"] = round(_db_bytes(path) / total, 1)
            figures["records"] = total
            report[name] = figures
    close()
    return report


def _progress(enabled: bool, total: int) -> tuple[Callable[[int], None], Callable[[], None]]:
    if not enabled:
        return (lambda n: None), (lambda: None)
    from rich.progress import Progress

    bar = Progress(transient=True)
    bar.start()
    task = bar.add_task("writing", total=total)
    return (lambda n: bar.advance(task, n)), bar.stop


def print_report(report: dict[str, Any]) -> None:
    """The figures as a table."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    ing = report["ingest"]
    console.print(
        f"embedder {report['embedder']}: ingest {ing['records_per_s']} records/s "
        f"({ing['records']} records, batched, with embeddings)"
    )
    table = Table(title="search latency, k=10 (ms)")
    for col in (
        "run",
        "records",
        "p50 excl. embed",
        "p95 excl. embed",
        "p50 incl. embed",
        "p95 incl. embed",
        "bytes/record",
    ):
        table.add_column(col, justify="right")
    for name in ("one_scope", "many_scopes"):
        f = report[name]
        table.add_row(
            name,
            str(f["records"]),
            str(f["search_excluding_embedding"]["p50_ms"]),
            str(f["search_excluding_embedding"]["p95_ms"]),
            str(f["search_including_embedding"]["p50_ms"]),
            str(f["search_including_embedding"]["p95_ms"]),
            str(f["db_bytes_per_record"]),
        )
    console.print(table)
    base = report["one_scope"].get("exact_vector_baseline")
    if base:
        mine, theirs = report["one_scope"]["search_excluding_embedding"], base["search_excluding_embedding"]
        console.print(
            f"one_scope with every vector search exact (baseline, same process): p50 {theirs['p50_ms']} ms, "
            f"p95 {theirs['p95_ms']} ms excl. embedding; shortlist speed-up at p95 "
            f"x{theirs['p95_ms'] / max(mine['p95_ms'], 1e-9):.2f}"
        )
