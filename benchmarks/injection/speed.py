"""What ``injection_score`` costs a write: milliseconds a note over the corpus, median of runs, and its parts.

Scores every note of ``corpus.jsonl`` with the rules (what every scanned write pays), and times the scan form
(``trust.normalise``) alone, so the share of normalising is seen beside the whole. To compare two trees, run
it from each with its own ``src`` on ``PYTHONPATH`` in the same session (the machine's load moves the figures).

    PYTHONPATH=src .venv/bin/python benchmarks/injection/speed.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from tiermem.trust.injection import injection_score

CORPUS = Path(__file__).resolve().parent / "corpus.jsonl"


def per_note_ms(texts: list[str], score: Callable[[str], object], runs: int) -> float:
    """Median over ``runs`` of the milliseconds per text that ``score`` takes."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for text in texts:
            score(text)
        times.append(1000 * (time.perf_counter() - started) / len(texts))
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with CORPUS.open(encoding="utf-8") as handle:
        texts = [json.loads(line)["text"] for line in handle]
    injection_score(texts[0])  # loads what is loaded once (tables, word lists)
    whole = per_note_ms(texts, injection_score, args.runs)
    print(f"injection_score: {whole:.3f} ms a note over {len(texts)} notes (median of {args.runs} runs)")
    try:
        from tiermem.trust.normalise import scan_form
    except ImportError:  # a tree from before the scan form
        return 0
    form = per_note_ms(texts, scan_form, args.runs)
    print(f"  of which scan_form: {form:.3f} ms ({form / whole:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
