"""The full scanner on every red-team row and corpus note with a part in another language, or two such runs compared.

A change to how the scanner reads other languages (which lines count as another language, what e5 reads, the
classifiers' rebuild) moves only these texts, so scoring them alone (a few thousand of the rounds' and the corpus's
twelve thousand) shows what it moved in a quarter of an hour. Run it on the tree after a change, on the tree
before with ``--also`` that file, and on the tree after again with ``--also`` the first tree's file, so that both
score the texts either tree finds:

    PYTHONPATH=src .venv/bin/python benchmarks/injection/foreign_rows.py AFTER.json
    PYTHONPATH=src .venv/bin/python benchmarks/injection/foreign_rows.py BEFORE.json --also AFTER.json  # older tree
    PYTHONPATH=src .venv/bin/python benchmarks/injection/foreign_rows.py AFTER.json --also BEFORE.json
    PYTHONPATH=src .venv/bin/python benchmarks/injection/foreign_rows.py --compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = ("hostile", "benign", "documents_clean", "documents_planted")
FLAGGED, QUARANTINED = 0.3, 0.5


def rows(skip: set[str]) -> dict[str, dict[str, str]]:
    """Every row of every round (``fresh``, ``fresh2``...) and of the corpus, by a key naming where it is."""
    out: dict[str, dict[str, str]] = {}
    for folder in sorted(HERE.glob("fresh*/")):
        if folder.name in skip:
            continue
        for name in FILES:
            path = folder / f"{name}.jsonl"
            if path.exists():
                lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
                out |= {f"{folder.name}/{name}/{i}": json.loads(line) for i, line in enumerate(lines)}
    for i, line in enumerate((HERE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()):
        row = json.loads(line)
        out[f"corpus/{row['label']}/{row.get('split')}/{i}"] = row
    return out


def score(out: Path, also: Path | None, skip: set[str]) -> None:
    """Score the texts with a part in another language (and those of ``also``) and write them to ``out``."""
    from tiermem.embed import MiniLMEmbedder
    from tiermem.write.scan import scan_texts
    from tiermem.write.scan_foreign import foreign_lines, foreign_parts

    every = rows(skip)
    extra = set(json.loads(also.read_text(encoding="utf-8"))) if also else set()

    def foreign(text: str) -> bool:
        whole, marked = foreign_parts(text)
        return whole or any(marked) or bool(foreign_lines(text))

    keys = [k for k, row in every.items() if k in extra or foreign(row["text"])]
    print(f"{len(every)} texts; {len(keys)} scored", flush=True)
    verdicts = scan_texts([every[k]["text"] for k in keys], MiniLMEmbedder())
    out.write_text(json.dumps({k: v.score for k, v in zip(keys, verdicts, strict=True)}), encoding="utf-8")


def kind(key: str) -> str:
    """What a key's row is: a round's file, or the corpus's label."""
    part = key.split("/")
    return f"corpus {part[1]}" if part[0] == "corpus" else part[1]


def compare(before: Path, after: Path) -> None:
    """Per kind of row, over the texts both runs scored: how many flagged and quarantined, before and after."""
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (before, after))
    common = sorted(set(a) & set(b))
    total: Counter[str] = Counter()
    counts: Counter[tuple[str, str, str]] = Counter()
    for key in common:
        total[kind(key)] += 1
        for run, scores in (("before", a), ("after", b)):
            counts[(kind(key), run, "flagged")] += scores[key] >= FLAGGED
            counts[(kind(key), run, "quarantined")] += scores[key] >= QUARANTINED
    print(f"{len(common)} texts scored by both runs")
    print(f"{'kind':24s}{'texts':>7s}  flagged before/after  quarantined before/after")
    for name in sorted(total):
        f0, f1 = counts[(name, "before", "flagged")], counts[(name, "after", "flagged")]
        q0, q1 = counts[(name, "before", "quarantined")], counts[(name, "after", "quarantined")]
        print(f"{name:24s}{total[name]:7d}  {f0:7d} / {f1:<7d}         {q0:7d} / {q1:<7d}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="Where to write this tree's scores (JSON).")
    parser.add_argument("--also", type=Path, help="Also score the texts another run scored.")
    parser.add_argument("--skip", default="", help="Rounds to leave out, comma-separated (e.g. the newest).")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="Compare two runs.")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return 0
    if args.out is None:
        parser.error("give OUT.json, or --compare BEFORE AFTER")
    score(args.out, args.also, {s for s in args.skip.split(",") if s})
    return 0


if __name__ == "__main__":
    sys.exit(main())
