"""Score the credential and PII detectors on the case files beside this file.

Credentials: a ``secret`` case is found when ``find_secrets`` names any kind for it (a metadata case is read as
``key: value``, as the write gate reads it); a ``near_miss`` case must get none. PII: a ``pii`` case is masked
when ``find_pii``'s spans cover every character of its value; a ``near_miss`` case must be left as it was.

    .venv/bin/python benchmarks/detectors/run.py                 # the development cases
    .venv/bin/python benchmarks/detectors/run.py --set heldout   # the held-out cases (scored once, then fixed)
    .venv/bin/python benchmarks/detectors/run.py --set fresh     # written after those fixes, scored once
    .venv/bin/python benchmarks/detectors/run.py --set fresh2    # written blind after the fresh set's fixes
    .venv/bin/python benchmarks/detectors/run.py --misses        # also print each miss
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from tiermem.trust.pii import find_pii
from tiermem.trust.secrets import find_secrets

HERE = Path(__file__).resolve().parent
FILES = {
    "dev": ("credentials.jsonl", "pii.jsonl"),
    "heldout": ("heldout_credentials.jsonl", "heldout_pii.jsonl"),
    "fresh": ("fresh_credentials.jsonl", "fresh_pii.jsonl"),
    "fresh2": ("fresh2_credentials.jsonl", "fresh2_pii.jsonl"),
}


@dataclass
class Score:
    """Hits and totals per kind, for the positive cases and the near misses."""

    found: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    altered: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    misses: list[str] = field(default_factory=list)

    def add(self, positive: bool, kind: str, hit: bool, text: str) -> None:
        table = self.found if positive else self.altered
        table[kind][0] += hit
        table[kind][1] += 1
        if hit != positive:
            self.misses.append(f"{'missed' if positive else 'altered'} [{kind}] {text[:110]!r}")

    @property
    def recall(self) -> float:
        return sum(h for h, _ in self.found.values()) / max(1, sum(n for _, n in self.found.values()))

    @property
    def false_rate(self) -> float:
        return sum(h for h, _ in self.altered.values()) / max(1, sum(n for _, n in self.altered.values()))


def load(name: str) -> list[dict[str, str]]:
    with (HERE / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def score_credentials(rows: list[dict[str, str]]) -> Score:
    score = Score()
    for row in rows:
        text = f"{row['name']}: {row['text']}" if row.get("name") else row["text"]  # as the write gate reads metadata
        kinds = find_secrets(text)
        score.add(row["label"] == "secret", row["kind"], bool(kinds), row["text"])
    return score


def covered(text: str, value: str) -> bool:
    """Whether every occurrence of ``value`` in ``text`` lies inside found PII spans."""
    spans = find_pii(text)
    start = text.find(value)
    while start >= 0:
        chars = set(range(start, start + len(value)))
        for span in spans:
            chars -= set(range(span.start, span.end))
        if chars - {i for i in range(start, start + len(value)) if text[i] in " -."}:
            return False
        start = text.find(value, start + 1)
    return True


def score_pii(rows: list[dict[str, str]]) -> Score:
    score = Score()
    for row in rows:
        if row["label"] == "pii":
            kind = f"{row['kind']}:{row['region']}" if row.get("region") else row["kind"]
            score.add(True, kind, covered(row["text"], row["value"]), row["text"])
        else:
            score.add(False, row["kind"], bool(find_pii(row["text"])), row["text"])
    return score


def by_family(table: dict[str, list[int]]) -> dict[str, list[int]]:
    """Per-kind counts with phone regions folded into one ``phone`` line (regions are listed apart)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for kind, (hit, total) in table.items():
        out[kind.split(":")[0]][0] += hit
        out[kind.split(":")[0]][1] += total
    return out


def report(title: str, score: Score, *, misses: bool) -> None:
    print(f"\n{title}: found {score.recall:.3f}, near misses altered {score.false_rate:.3f}")
    for name, table in (("found", by_family(score.found)), ("near misses altered", score.altered)):
        print(f"  {name}:")
        for kind, (hit, total) in sorted(table.items()):
            print(f"    {kind:34} {hit:3d} / {total:3d}")
    if misses:
        for line in score.misses:
            print("  ", line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", choices=sorted(FILES), default="dev")
    parser.add_argument("--misses", action="store_true", help="print every case scored wrong")
    args = parser.parse_args()
    cred_file, pii_file = FILES[args.set]
    credentials = score_credentials(load(cred_file))
    formats = len({r["kind"] for r in load(cred_file) if r["label"] == "secret"})
    report(f"credentials ({args.set}, {formats} formats)", credentials, misses=args.misses)
    pii = score_pii(load(pii_file))
    report(f"PII ({args.set})", pii, misses=args.misses)
    regions = sorted({k.split(":")[1] for k in pii.found if k.startswith("phone:")})
    phone = [pii.found[f"phone:{r}"] for r in regions]
    listed = ", ".join(f"{r} {h}/{n}" for r, (h, n) in zip(regions, phone, strict=True))
    print(f"  phone regions: {len(regions)} ({listed})")


if __name__ == "__main__":
    main()
