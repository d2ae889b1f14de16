"""Per-turn cost of the context runtime: append one message (persist, evict) + compile the prompt.

A 128k-token window is pre-filled until about 1,000 messages are in context; each timed turn appends a user
message (evicting the oldest) and compiles the prompt with a few retrieved memories. Recall writes go
through the real write path into a SQLite file, without an embedder by default, so the figure measures the
runtime and the store, not a model. The baseline does the same but re-counts every message's tokens each
turn, as a runtime without cached counts must.

    .venv/bin/python benchmarks/context_bench.py [--turns 300] [--messages 1000] [--embedder none|hash]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tiermem.context.budget import ContextBudget
from tiermem.context.messages import Message, message_tokens
from tiermem.context.window import ContextManager, StoreRecall
from tiermem.embed import Embedder, HashingEmbedder
from tiermem.store import open_store
from tiermem.tokens import TiktokenCounter
from tiermem.types import Hit, Scope

WINDOW = 128_000
SYSTEM, CORE, OUTPUT, RESERVE = 2_000, 4_000, 8_000, 4_000
_SENTENCE = (
    "the user asked about the deployment plan for the new billing service and whether the migration to "
    "postgres would finish before the quarterly review while the team in Lisbon reported latency spikes "
    "after the cache change so we agreed to roll back on Friday and measure again next week with real traffic"
)
_WORDS = _SENTENCE.split(" ")


@dataclass(frozen=True, slots=True)
class BenchResult:
    """Per-turn timings in milliseconds and the state they were measured at."""

    median_ms: float
    p95_ms: float
    cpu_median_ms: float  # this thread's CPU time: what the runtime costs, without time lost to other processes
    baseline_median_ms: float
    baseline_p95_ms: float
    messages_in_context: int
    message_tokens: int
    prompt_tokens: int
    prompt_limit: int
    retrieved: int
    embedder: str

    @property
    def speedup(self) -> float:
        """Baseline median over ours."""
        return self.baseline_median_ms / self.median_ms


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(
    *, turns: int = 300, messages: int = 1000, embedder: str = "none", retrieved: int = 5, baseline: bool = True
) -> BenchResult:
    """Run the benchmark in a temporary SQLite file and return its figures (baseline turns interleaved)."""
    rng = random.Random(7)
    counter = TiktokenCounter("o200k_base")
    budget = ContextBudget(window=WINDOW, system=SYSTEM, core=CORE, output_reserve=OUTPUT, retrieval_reserve=RESERVE)
    # Message size such that `messages` of them fill the message budget.
    words = max(1, round((budget.message_budget / messages - 4) / 1.05))
    chosen: Embedder | None = HashingEmbedder() if embedder == "hash" else None
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bench.db")
        recall = StoreRecall(store, chosen)
        manager = ContextManager(
            store,
            recall,
            Scope("bench", "user", "agent", "s1"),
            budget=budget,
            counter=counter,
            system_prompt="You are a helpful assistant with long-term memory.",
        )
        manager.core.define("persona", limit=500, value="I am a careful assistant.", read_only=True)
        manager.core.define("human", limit=1000, value="Name: Ada. Lives in Lisbon.")
        while len(manager.messages) < messages and manager.message_tokens + 200 < budget.message_budget:
            manager.append(Message.user(_text(rng, words)))
        for _ in range(messages):  # fill to steady state: every further append evicts
            manager.append(Message.user(_text(rng, words)))
        hits: list[Hit] = recall.recall(manager.scope, "billing migration latency", k=retrieved) if retrieved else []
        ours: list[float] = []
        ours_cpu: list[float] = []
        recounting: list[float] = []
        prompt_tokens = 0
        for turn in range(2 * turns if baseline else turns):
            message = Message.user(_text(rng, words))
            is_baseline = baseline and turn % 2 == 1
            start, start_cpu = time.perf_counter(), time.thread_time()
            if is_baseline:
                # What a runtime without cached counts pays on top: every message re-counted each turn.
                sum(message_tokens(m, counter) for m in manager.messages)
            manager.append(message)
            prompt = manager.compile(hits)
            elapsed = (time.perf_counter() - start) * 1000
            (recounting if is_baseline else ours).append(elapsed)
            if not is_baseline:
                ours_cpu.append((time.thread_time() - start_cpu) * 1000)
            prompt_tokens = prompt.tokens.total
        result = BenchResult(
            median_ms=statistics.median(ours),
            p95_ms=_percentile(ours, 0.95),
            cpu_median_ms=statistics.median(ours_cpu),
            baseline_median_ms=statistics.median(recounting) if recounting else float("nan"),
            baseline_p95_ms=_percentile(recounting, 0.95) if recounting else float("nan"),
            messages_in_context=len(manager.messages),
            message_tokens=manager.message_tokens,
            prompt_tokens=prompt_tokens,
            prompt_limit=budget.prompt_limit,
            retrieved=len(hits),
            embedder=embedder,
        )
        store.close()
    return result


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--retrieved", type=int, default=5)
    parser.add_argument("--embedder", choices=("none", "hash"), default="none")
    args = parser.parse_args()
    r = measure(turns=args.turns, messages=args.messages, embedder=args.embedder, retrieved=args.retrieved)
    print(
        f"context runtime, {WINDOW:,}-token window, {r.messages_in_context} messages in context "
        f"({r.message_tokens:,} tokens), {r.retrieved} retrieved memories, prompt {r.prompt_tokens:,} "
        f"<= limit {r.prompt_limit:,}"
    )
    print(f"recall writes: SQLite file, embedder={r.embedder} (measures the runtime and the store, not a model)")
    print(
        f"append + compile per turn:    median {r.median_ms:.3f} ms   p95 {r.p95_ms:.3f} ms   "
        f"(CPU median {r.cpu_median_ms:.3f} ms; {args.turns} turns)"
    )
    print(f"baseline (recount each turn): median {r.baseline_median_ms:.3f} ms   p95 {r.baseline_p95_ms:.3f} ms")
    print(f"cached counts are {r.speedup:.1f}x faster per turn")


if __name__ == "__main__":
    main()
