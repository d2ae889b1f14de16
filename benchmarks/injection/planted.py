"""Planted attacks in ordinary documents: how often the scanner flags them, and how often it flags the documents clean.

Every document of ``planted_text`` is scored clean, and with each attack instruction planted at its start, in
its middle (between two lines) and at its end, the way ``tiermem scan`` scores a file passed whole (the write
path's scan of one note: the rules, raised by the MiniLM classifier unless ``--embedder hash``). A case is
*flagged* at the suspicious threshold and *quarantined* at the quarantine threshold. ``dev`` documents and
attacks were developed against; ``held`` ones (``--held``) were written at the same time and are the figure
to report, scored once; ``held-2`` (``--held-2``) was written after ``held`` was scored and two generic fixes
were made for what it flagged, and scored once after them.

    PYTHONPATH=src .venv/bin/python benchmarks/injection/planted.py                  # dev, rules + classifier
    PYTHONPATH=src .venv/bin/python benchmarks/injection/planted.py --embedder hash  # dev, the rules alone
    PYTHONPATH=src .venv/bin/python benchmarks/injection/planted.py --held           # the held part, once
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from planted_text import ATTACKS_DEV, ATTACKS_HELD, ATTACKS_HELD_2, DOCS_DEV, DOCS_HELD, DOCS_HELD_2

from tiermem.embed import Embedder, MiniLMEmbedder
from tiermem.trust.injection import INJECTION_THRESHOLD, SUSPICIOUS_THRESHOLD
from tiermem.write.scan import scan_texts

POSITIONS = ("start", "middle", "end")


@dataclass(frozen=True, slots=True)
class Case:
    """One document, clean or with one attack planted at one position."""

    doc: str
    attack: str | None
    position: str | None
    text: str


def plant(doc: str, attack: str, position: str) -> str:
    """``doc`` with ``attack`` as a line of its own at its start, in its middle or at its end."""
    lines = doc.split("\n")
    at = {"start": 0, "middle": len(lines) // 2, "end": len(lines)}[position]
    return "\n".join([*lines[:at], attack, *lines[at:]])


def cases(docs: dict[str, str], attacks: list[str]) -> list[Case]:
    """Each document clean, then with every attack at every position."""
    out = [Case(name, None, None, text) for name, text in docs.items()]
    for name, text in docs.items():
        for attack in attacks:
            out.extend(Case(name, attack, where, plant(text, attack, where)) for where in POSITIONS)
    return out


def rates(scores: list[float]) -> tuple[float, float]:
    """Share flagged (suspicious or worse) and share quarantined."""
    n = max(1, len(scores))
    return sum(s >= SUSPICIOUS_THRESHOLD for s in scores) / n, sum(s >= INJECTION_THRESHOLD for s in scores) / n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held", action="store_true", help="Score the held documents and attacks (once).")
    parser.add_argument("--held-2", action="store_true", help="Score the second held part (once).")
    parser.add_argument("--embedder", choices=("minilm", "hash"), default="minilm")
    parser.add_argument("--show", type=int, default=0, help="Print this many missed attacks and flagged clean docs.")
    args = parser.parse_args()
    docs, attacks = (DOCS_HELD, ATTACKS_HELD) if args.held else (DOCS_DEV, ATTACKS_DEV)
    if args.held_2:
        docs, attacks = DOCS_HELD_2, ATTACKS_HELD_2
    embedder: Embedder | None = MiniLMEmbedder() if args.embedder == "minilm" else None
    all_cases = cases(docs, attacks)
    verdicts = scan_texts([case.text for case in all_cases], embedder)
    scores = [v.score for v in verdicts]
    clean = [s for c, s in zip(all_cases, scores, strict=True) if c.attack is None]
    planted = [s for c, s in zip(all_cases, scores, strict=True) if c.attack is not None]
    split = "held-2" if args.held_2 else "held" if args.held else "dev"
    print(f"{split}, {args.embedder}: {len(docs)} documents, {len(attacks)} attacks, {len(planted)} planted cases")
    flagged, quarantined = rates(planted)
    print(f"  planted: flagged {flagged:.3f}  quarantined {quarantined:.3f}")
    flagged, quarantined = rates(clean)
    print(f"  clean:   flagged {flagged:.3f}  quarantined {quarantined:.3f}")
    for where in POSITIONS:
        at = [s for c, s in zip(all_cases, scores, strict=True) if c.position == where]
        flagged, quarantined = rates(at)
        print(f"    at the {where:6s} flagged {flagged:.3f}  quarantined {quarantined:.3f}")
    per_attack = {}
    for c, s in zip(all_cases, scores, strict=True):
        if c.attack is not None:
            per_attack.setdefault(c.attack, []).append(s)
    for attack, found in per_attack.items():
        flagged, quarantined = rates(found)
        print(f"    {flagged:.2f} {quarantined:.2f}  {attack[:90]}")
    shown = 0
    for c, s, v in zip(all_cases, scores, verdicts, strict=True):
        missed = c.attack is not None and s < SUSPICIOUS_THRESHOLD
        false = c.attack is None and s >= SUSPICIOUS_THRESHOLD
        if (missed or false) and shown < args.show:
            shown += 1
            what = f"missed at {c.position}: {c.attack}" if missed else "clean but flagged"
            print(f"\n[{c.doc}] {s:.2f} {what}\n  {v.reasons}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
