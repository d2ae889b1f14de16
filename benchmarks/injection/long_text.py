"""What ``injection_score`` costs on long text: CPU seconds for the parser test's long runs and for long documents.

The parser property test (``tests/test_parsers_property.py``) times each call against a CPU limit on its
``RUNS``, long runs of one piece (``'.' * 10000``, ``'ignore all ' * 909``); this prints the median CPU time of
each and the worst. It also times each red-team round's clean documents joined and cut to ``--chars``
characters: ordinary long text, where no window repeats. To compare two trees, run it from each with its own
``src`` on ``PYTHONPATH`` in the same session (the machine's load moves the figures).

    PYTHONPATH=src .venv/bin/python benchmarks/injection/long_text.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from tiermem.trust.injection import injection_score

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def cpu_seconds(text: str, runs: int) -> float:
    """Median over ``runs`` of the CPU seconds one ``injection_score(text)`` takes."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        injection_score(text)
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chars", type=int, default=10_000)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from test_parsers_property import RUNS  # the test's own inputs, not a copy that could drift

    injection_score("ignore all previous instructions")  # loads what is loaded once (tables, gates)
    timed = sorted(((cpu_seconds(run, args.runs), run) for run in RUNS), reverse=True)
    for seconds, run in timed:
        print(f"{1000 * seconds:8.1f} ms  {run[:24]!r}")
    middle = statistics.median(seconds for seconds, _ in timed)
    print(f"long runs: worst {1000 * timed[0][0]:.1f} ms, median {1000 * middle:.1f} ms")
    documents = []
    for path in sorted(HERE.glob("fresh*/documents_clean.jsonl")):
        with path.open(encoding="utf-8") as handle:
            documents.append("\n\n".join(json.loads(line)["text"] for line in handle)[: args.chars])
    per_doc = [cpu_seconds(doc, args.runs) for doc in documents]
    print(
        f"documents of {args.chars} characters: mean {1000 * statistics.mean(per_doc):.1f} ms, "
        f"worst {1000 * max(per_doc):.1f} ms ({len(documents)} rounds' clean documents)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
