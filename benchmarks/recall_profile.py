"""Where plain recall spends its time outside the model: p50/p95 with and without the query embedding, and a profile.

Builds two scopes of one conversation (~600 turns) with the default model (MiniLM): one written turn by turn
with plain ``remember(scope, "Speaker: text")`` (semantic records, as the peers benchmark writes them), one
with ``remember_messages`` (episodic records with their speakers). Then asks each ~200 questions with
``recall(scope, question, k=10)``. "Without model" subtracts the time spent inside the model (the model sits
behind a stopwatch with its single-text cache off, as in ``benchmarks/peers``). The turns and questions are
generated from neutral templates; ``--locomo FILE`` reads one dev conversation's turns and questions instead, at
run time.

    .venv/bin/python benchmarks/recall_profile.py [--turns 600] [--queries 200] [--runs 3] [--profile 25]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from tiermem import Memory, Scope
from tiermem.embed import Embedder, EmbedderWrapper, MiniLMEmbedder, Vectors

SPEAKERS = ("Orla", "Teodor")
_PLACES = "the harbour|the old library|a mountain cabin|the night market|the botanical garden|a small island".split("|")
_THINGS = "a bicycle|a sourdough starter|a telescope|a pottery wheel|a kayak|a chess set|a sewing machine".split("|")
_HOBBIES = "painting|rock climbing|birdwatching|baking bread|playing the cello|running|gardening|woodworking".split("|")
_PEOPLE = "my sister|my neighbour|an old classmate|my cousin|a colleague|my landlord".split("|")
_FEELINGS = "happy|tired|excited|nervous|proud|relaxed".split("|")
_DAYS = "last weekend|yesterday|on Friday|two weeks ago|this morning|last month".split("|")
_TURNS = (
    "I went to {place} {day} and it made me feel {feeling}.",
    "I finally bought {thing}! I have wanted one for years.",
    "Have you tried {hobby}? I started {day} and I love it.",
    "{person} came over {day}. We talked about {hobby} for hours.",
    "That sounds great. How did {person} like {place}?",
    "I'm {feeling} about the trip to {place}. We leave soon.",
    "My kids gave me {thing} for my birthday. They know me well.",
    "I spent the whole afternoon {hobby} with {person}. It was lovely.",
    "Thanks for asking! I've been {feeling} lately, mostly because of work.",
    "Did you ever go back to {place}? You said it was your favourite spot.",
    "I sold {thing} {day}. I never used it anymore.",
    "{person} is teaching me {hobby}. I am slow but it is fun.",
)
_QUESTIONS = (
    "Where did {speaker} go {day}?",
    "What did {speaker} buy?",
    "Which hobby did {speaker} start?",
    "Who visited {speaker}?",
    "How does {speaker} feel about the trip to {place}?",
    "What did {speaker}'s kids give {speaker} for the birthday?",
    "What is {speaker} learning from {person}?",
    "When did {speaker} sell {thing}?",
    "What did I say about {hobby}?",
    "Where is the favourite spot?",
)


@dataclass(frozen=True, slots=True)
class Turn:
    """One line of the conversation."""

    speaker: str
    text: str
    time: datetime


class TimedModel(EmbedderWrapper):
    """The model behind a stopwatch: ``seconds`` is the time spent inside it."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.seconds = 0.0
        self.cpu = 0.0  # CPU seconds of the whole process inside the model (nothing else runs meanwhile)
        self.calls = 0

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        started, cpu = time.perf_counter(), time.process_time()
        try:
            return self.inner.embed_batch(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.cpu += time.process_time() - cpu
            self.calls += 1


def _fill(template: str, rng: random.Random, speaker: str = "") -> str:
    return template.format(
        place=rng.choice(_PLACES),
        thing=rng.choice(_THINGS),
        hobby=rng.choice(_HOBBIES),
        person=rng.choice(_PEOPLE),
        feeling=rng.choice(_FEELINGS),
        day=rng.choice(_DAYS),
        speaker=speaker,
    )


def generated(turns: int, queries: int, seed: int = 7) -> tuple[list[Turn], list[str]]:
    """A conversation of neutral template turns between two speakers, and questions about it."""
    rng = random.Random(seed)
    start = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    lines: list[Turn] = []
    for i in range(turns):
        parts = [_fill(rng.choice(_TURNS), rng) for _ in range(rng.choice((1, 1, 2, 3)))]
        lines.append(Turn(SPEAKERS[i % 2], " ".join(parts), start + timedelta(hours=7 * i)))
    asked = [_fill(rng.choice(_QUESTIONS), rng, rng.choice(SPEAKERS)) for _ in range(queries)]
    return lines, asked


def from_locomo(path: Path, conversation: int, queries: int) -> tuple[list[Turn], list[str]]:
    """One LoCoMo conversation's turns and questions, read at run time."""
    from tiermem.eval.locomo import load_locomo

    conv = load_locomo(path)[conversation]
    lines = [Turn(t.speaker, t.text, t.time) for t in conv.turns]
    return lines, [q.question for q in conv.questions if q.category != 5][:queries]


def build(memory: Memory, turns: list[Turn], *, messages: bool, reuse: bool = False) -> Scope:
    """One scope holding the conversation, by plain ``remember`` or by ``remember_messages`` (``reuse``: the
    file holds it already)."""
    if messages:
        scope = Scope("bench", "messages")
        if reuse:
            return scope
        batch = [{"role": "user", "name": t.speaker, "content": t.text, "created_at": t.time} for t in turns]
        for start in range(0, len(batch), 50):
            memory.remember_messages(scope, batch[start : start + 50], session="s1")
        return scope
    scope = Scope("bench", "plain")
    for t in turns if not reuse else ():
        memory.remember(scope, f"{t.speaker}: {t.text}", valid_from=t.time)
    return scope


def measure(memory: Memory, model: TimedModel, scope: Scope, questions: list[str], now: datetime) -> dict[str, float]:
    """p50/p95 of recall in ms, with and without the model's time; and the CPU ms outside the model (all threads),
    which a busy machine disturbs less than the wall clock."""
    wall: list[float] = []
    bare: list[float] = []
    cpu: list[float] = []
    for q in questions:
        before, before_cpu = model.seconds, model.cpu
        started, started_cpu = time.perf_counter(), time.process_time()
        memory.recall(scope, q, k=10, now=now)
        elapsed, elapsed_cpu = time.perf_counter() - started, time.process_time() - started_cpu
        wall.append(elapsed * 1000)
        bare.append((elapsed - (model.seconds - before)) * 1000)
        cpu.append((elapsed_cpu - (model.cpu - before_cpu)) * 1000)
    return {
        "p50": _pct(wall, 50),
        "p95": _pct(wall, 95),
        "bare_p50": _pct(bare, 50),
        "bare_p95": _pct(bare, 95),
        "bare_cpu_p50": _pct(cpu, 50),
        "bare_cpu_p95": _pct(cpu, 95),
    }


def _pct(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def profile(memory: Memory, scope: Scope, questions: list[str], now: datetime, top: int) -> str:
    """The ``top`` functions by own time over one pass of the questions."""
    profiler = cProfile.Profile()
    profiler.enable()
    for q in questions:
        memory.recall(scope, q, k=10, now=now)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime")
    stats.print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def _reopen(memory: Memory, path: Path, model: TimedModel, scope: Scope, now: datetime) -> Memory:
    """The file opened anew: nothing read for earlier questions is cached, the scope's vectors are loaded (a store
    that wrote them keeps them) by a question about none of the turns."""
    memory.close()
    memory = Memory.open(path, embedder=model)
    memory.recall(scope, "hello", k=10, now=now)
    return memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=600)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3, help="passes over the questions; medians reported")
    parser.add_argument("--profile", type=int, default=25, help="functions listed by the profile (0: none)")
    parser.add_argument("--locomo", type=Path, help="read one LoCoMo conversation at run time instead")
    parser.add_argument("--conversation", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    parser.add_argument("--db", type=Path, help="keep the scopes' files in this folder and reuse them on the next run")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="reopen the file before each pass, so every question meets an empty cache (as the peers benchmark asks)",
    )
    args = parser.parse_args()
    if args.locomo:
        turns, questions = from_locomo(args.locomo, args.conversation, args.queries)
    else:
        turns, questions = generated(args.turns, args.queries)
    model = TimedModel(MiniLMEmbedder(cache_size=0))
    now = max(t.time for t in turns) + timedelta(days=1)
    results: dict[str, dict[str, float]] = {}
    profiles: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.db or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for name, messages in (("remember", False), ("remember_messages", True)):
            # One file per scope: a single user's embedded file, as the peers benchmark and the evaluations
            # hold one conversation (another scope's rows would change what the full-text index walks).
            path = folder / f"{name}.db"
            reuse = path.exists()
            memory = Memory.open(path, embedder=model)
            try:
                scope = build(memory, turns, messages=messages, reuse=reuse)
                memory.recall(scope, questions[0], k=10, now=now)  # warm: model loaded, vectors cached
                runs = []
                for _ in range(args.runs):
                    if args.fresh:
                        memory = _reopen(memory, path, model, scope, now)
                    runs.append(measure(memory, model, scope, questions, now))
                results[name] = {key: round(statistics.median(r[key] for r in runs), 2) for key in runs[0]}
                if args.profile:
                    if args.fresh:
                        memory = _reopen(memory, path, model, scope, now)
                    profiles[name] = profile(memory, scope, questions, now, args.profile)
            finally:
                memory.close()
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"turns": len(turns), "queries": len(questions), "load": load, "results": results}))
        return
    print(f"{len(turns)} turns, {len(questions)} questions, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for name, figures in results.items():
        print(
            f"{name}: recall p50 {figures['p50']:.1f} / p95 {figures['p95']:.1f} ms; "
            f"without model p50 {figures['bare_p50']:.1f} / p95 {figures['bare_p95']:.1f} ms "
            f"(CPU p50 {figures['bare_cpu_p50']:.1f} / p95 {figures['bare_cpu_p95']:.1f} ms)"
        )
    for name, text in profiles.items():
        print(f"\n=== profile: {name} ===\n{text}")


if __name__ == "__main__":
    main()
