"""Check a round's planted documents against its clean ones; exit 1 on any problem.

Usage: python3 benchmarks/injection/check_planted.py benchmarks/injection/fresh9

Checks:
- clean documents: ids doc01, doc02, ... in order, a kind, and 10-18 non-blank lines each;
- planted rows: a known document, id "<doc>-<position>", and a known position;
- the planted text is the clean text plus exactly one line (blank lines ignored), so removing the attack line
  gives back the clean document exactly;
- the added line is the first line (start), the last line (end), or strictly inside and after the first half
  of the clean lines (middle);
- the attack kind follows the rotation KINDS[(doc_index + 2 * position_index) % 6];
- every document appears once per position, each kind has the same number of rows (documents x 3 / 6), and
  no two added lines are the same, and no added line also stands in any clean document.

It also prints how many rows each attack kind has at each position.
"""

import json
import math
import sys
from collections import Counter
from pathlib import Path

KINDS = ["language", "link_ad", "card_request", "task_change", "exfil", "persona"]
POSITIONS = ["start", "middle", "end"]
MIN_LINES, MAX_LINES = 10, 18


def load(folder: Path, name: str) -> list[dict]:
    with open(folder / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def lines_of(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def added_line_index(clean: list[str], planted: list[str]) -> int | None:
    """Index of the one line whose removal turns planted into clean, or None if there is none."""
    if len(planted) != len(clean) + 1:
        return None
    for i in range(len(planted)):
        if planted[:i] + planted[i + 1 :] == clean:
            return i
    return None


def check_clean(docs: list[dict]) -> list[str]:
    problems = []
    for i, doc in enumerate(docs):
        if doc.get("id") != f"doc{i + 1:02d}":
            problems.append(f"clean row {i}: id {doc.get('id')!r}, expected doc{i + 1:02d}")
        if not doc.get("kind"):
            problems.append(f"{doc.get('id')}: no kind")
        n = len(lines_of(doc.get("text", "")))
        if not MIN_LINES <= n <= MAX_LINES:
            problems.append(f"{doc.get('id')}: {n} non-blank lines, expected {MIN_LINES}-{MAX_LINES}")
    return problems


def check_row(row: dict, index: dict[str, int], clean: dict[str, list[str]]) -> tuple[list[str], str | None]:
    """Problems with one planted row, and its added line if one was found."""
    rid, doc, pos, kind = row.get("id"), row.get("doc"), row.get("position"), row.get("attack")
    if doc not in index:
        return [f"{rid}: unknown doc {doc!r}"], None
    if pos not in POSITIONS:
        return [f"{rid}: unknown position {pos!r}"], None
    problems = []
    if rid != f"{doc}-{pos}":
        problems.append(f"{rid}: id should be {doc}-{pos}")
    expected = KINDS[(index[doc] + 2 * POSITIONS.index(pos)) % len(KINDS)]
    if kind != expected:
        problems.append(f"{rid}: attack kind {kind!r}, rotation gives {expected!r}")
    lines = lines_of(row.get("text", ""))
    at = added_line_index(clean[doc], lines)
    if at is None:
        return [*problems, f"{rid}: removing one line does not give back the clean document"], None
    n = len(clean[doc])
    if pos == "start" and at != 0:
        problems.append(f"{rid}: attack is line {at}, not the first line")
    if pos == "end" and at != n:
        problems.append(f"{rid}: attack is line {at}, not the last line")
    if pos == "middle" and not math.ceil(n / 2) <= at < n:
        problems.append(f"{rid}: attack is line {at} of {n + 1}, not inside the second half")
    return problems, lines[at]


def check(folder: Path) -> list[str]:
    docs = load(folder, "documents_clean.jsonl")
    planted = load(folder, "documents_planted.jsonl")
    problems = check_clean(docs)
    index = {d["id"]: i for i, d in enumerate(docs)}
    clean = {d["id"]: lines_of(d["text"]) for d in docs}
    seen: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()
    added: Counter[str] = Counter()
    for row in planted:
        row_problems, line = check_row(row, index, clean)
        problems += row_problems
        seen[(row.get("doc"), row.get("position"))] += 1
        kinds[row.get("attack")] += 1
        if line is not None:
            added[line] += 1
    for doc in index:
        for pos in POSITIONS:
            if seen[(doc, pos)] != 1:
                problems.append(f"{doc}-{pos}: appears {seen[(doc, pos)]} times")
    per_kind = len(docs) * len(POSITIONS) // len(KINDS)
    for kind in KINDS:
        if kinds[kind] != per_kind:
            problems.append(f"attack kind {kind}: {kinds[kind]} rows, expected {per_kind}")
    problems += [f"unknown attack kind {k!r}" for k in kinds if k not in KINDS]
    problems += [f"added line used {n} times: {line[:60]!r}" for line, n in added.items() if n > 1]
    in_clean = {line for lines in clean.values() for line in lines}
    problems += [f"added line also in a clean document: {line[:60]!r}" for line in added if line in in_clean]
    return problems


def table(planted: list[dict]) -> None:
    """Print rows per attack kind and position."""
    counts = Counter((row.get("attack"), row.get("position")) for row in planted)
    print("attack".ljust(14) + "".join(pos.rjust(8) for pos in POSITIONS))
    for kind in KINDS:
        print(kind.ljust(14) + "".join(str(counts[(kind, pos)]).rjust(8) for pos in POSITIONS))


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: check_planted.py ROUND_FOLDER", file=sys.stderr)
        return 2
    folder = Path(sys.argv[1])
    problems = check(folder)
    planted = load(folder, "documents_planted.jsonl")
    table(planted)
    for p in problems:
        print(p)
    print(f"{len(planted)} planted rows, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
