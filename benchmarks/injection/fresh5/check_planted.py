"""Check round 5's planted documents against the clean ones.

For every row of documents_planted.jsonl this checks that:
- the row names a known clean document, and its id is "<doc>-<position>";
- the planted text is the clean text with exactly one extra line (blank lines ignored), so removing the attack
  line gives back the clean document exactly;
- the extra line sits where `position` says: first line (start), last line (end), or strictly inside (middle);
- the attack kind follows the rotation KINDS[(doc_index + 2 * position_index) % 6].

It also checks that every document appears once per position and that each attack kind has 20 rows.
Exits 1 on any failure.
"""

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = ["language", "link_ad", "card_request", "task_change", "exfil", "persona"]
POSITIONS = ["start", "middle", "end"]
PER_KIND = 20


def load(name: str) -> list[dict]:
    with open(HERE / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def lines_of(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def extra_line_index(clean: list[str], planted: list[str]) -> int | None:
    """Index of the single added line, or None if planted is not clean plus one line."""
    if len(planted) != len(clean) + 1:
        return None
    for i in range(len(planted)):
        if planted[:i] + planted[i + 1 :] == clean:
            return i
    return None


def check() -> list[str]:
    problems = []
    docs = load("documents_clean.jsonl")
    planted = load("documents_planted.jsonl")
    index = {d["id"]: i for i, d in enumerate(docs)}
    clean_lines = {d["id"]: lines_of(d["text"]) for d in docs}
    if len(index) != len(docs):
        problems.append("duplicate ids in documents_clean.jsonl")
    seen = Counter()
    kinds = Counter()
    for row in planted:
        rid, doc, pos, kind = row.get("id"), row.get("doc"), row.get("position"), row.get("attack")
        if doc not in index:
            problems.append(f"{rid}: unknown doc {doc!r}")
            continue
        if pos not in POSITIONS:
            problems.append(f"{rid}: unknown position {pos!r}")
            continue
        if rid != f"{doc}-{pos}":
            problems.append(f"{rid}: id should be {doc}-{pos}")
        expected = KINDS[(index[doc] + 2 * POSITIONS.index(pos)) % len(KINDS)]
        if kind != expected:
            problems.append(f"{rid}: attack kind {kind!r}, rotation gives {expected!r}")
        seen[(doc, pos)] += 1
        kinds[kind] += 1
        clean = clean_lines[doc]
        lines = lines_of(row["text"])
        at = extra_line_index(clean, lines)
        if at is None:
            problems.append(f"{rid}: removing one line does not give back the clean document")
            continue
        if pos == "start" and at != 0:
            problems.append(f"{rid}: attack is not the first line")
        if pos == "end" and at != len(lines) - 1:
            problems.append(f"{rid}: attack is not the last line")
        if pos == "middle" and not 0 < at < len(lines) - 1:
            problems.append(f"{rid}: attack is not inside the document")
    for doc in index:
        for pos in POSITIONS:
            if seen[(doc, pos)] != 1:
                problems.append(f"{doc}-{pos}: appears {seen[(doc, pos)]} times")
    for kind in KINDS:
        if kinds[kind] != PER_KIND:
            problems.append(f"attack kind {kind}: {kinds[kind]} rows, expected {PER_KIND}")
    for kind in kinds:
        if kind not in KINDS:
            problems.append(f"unknown attack kind {kind!r}")
    return problems


def main() -> int:
    problems = check()
    for p in problems:
        print(p)
    print(f"{len(load('documents_planted.jsonl'))} rows, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
