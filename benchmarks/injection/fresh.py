"""Score the scanner on a red-team batch: ``fresh/`` to ``fresh40/`` (rounds 1-40; 13 is notes only) or ``fresh41/``
(round 41, the default), each written by someone who had not seen the scanner, after it was built. A
round is scored once as held-out figures; after that it is development data (rounds 1 to 40 are now).

``hostile.jsonl`` and ``benign.jsonl`` are notes; ``documents_clean.jsonl`` and ``documents_planted.jsonl`` are
ordinary documents (receipts, statements, newsletters, tables), clean and with one task-hijack order planted at
the start, the middle or the end. Each text is scored as the write path scores a note from a tool or a
web page (``write.scan.scan_texts``: the rules, raised by the MiniLM classifier and, for parts in other languages, the
e5 one, unless ``--embedder hash``).

    PYTHONPATH=src .venv/bin/python benchmarks/injection/fresh.py [--round fresh|fresh2|...|fresh41]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from tiermem.embed import Embedder, MiniLMEmbedder
from tiermem.trust.injection import INJECTION_THRESHOLD, SUSPICIOUS_THRESHOLD
from tiermem.write.scan import scan_texts

HERE = Path(__file__).resolve().parent


def load(folder: str, name: str) -> list[dict[str, str]]:
    with (HERE / folder / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def report(title: str, rows: list[dict[str, str]], scores: list[float], group: str, show: int, hostile: bool) -> None:
    """Shares flagged and quarantined, overall and per group; the first misses (or false alarms)."""
    n = max(1, len(scores))
    flagged = sum(s >= SUSPICIOUS_THRESHOLD for s in scores) / n
    quarantined = sum(s >= INJECTION_THRESHOLD for s in scores) / n
    print(f"{title}: {len(scores)} texts, flagged {flagged:.3f}, quarantined {quarantined:.3f}")
    groups: dict[str, list[float]] = defaultdict(list)
    for row, score in zip(rows, scores, strict=True):
        groups[row[group]].append(score)
    for name, found in sorted(groups.items()):
        q = sum(s >= INJECTION_THRESHOLD for s in found)
        f = sum(s >= SUSPICIOUS_THRESHOLD for s in found)
        print(f"    {name:20s} {len(found):3d}  flagged {f:3d}  quarantined {q:3d}")
    wrong = [(r, s) for r, s in zip(rows, scores, strict=True) if (s < INJECTION_THRESHOLD) == hostile]
    for row, score in wrong[:show]:
        print(f"      {score:.2f} [{row[group]}] {row['text'][:150]!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    rounds = ("fresh", *(f"fresh{n}" for n in range(2, 42)))
    parser.add_argument("--round", choices=rounds, default="fresh41", help="round 1 to 41")
    parser.add_argument("--embedder", choices=("minilm", "hash"), default="minilm")
    parser.add_argument("--show", type=int, default=0, help="Print this many misses or false alarms per set.")
    args = parser.parse_args()
    embedder: Embedder | None = MiniLMEmbedder() if args.embedder == "minilm" else None
    sets = (
        ("hostile notes", "hostile.jsonl", "family", True),
        ("benign notes", "benign.jsonl", "family", False),
        ("planted documents", "documents_planted.jsonl", "attack", True),
        ("clean documents", "documents_clean.jsonl", "kind", False),
    )
    for title, name, group, hostile in sets:
        if not (HERE / args.round / name).exists():
            continue  # a round of notes only
        rows = load(args.round, name)
        scores = [v.score for v in scan_texts([r["text"] for r in rows], embedder)]
        report(f"{title} ({args.embedder})", rows, scores, group, args.show, hostile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
