"""Check that every planted document is its clean document plus one inserted attack block.

For each row of documents_planted.jsonl the script removes blank lines from both texts and
checks that the planted text equals the clean text with one contiguous block of extra lines
inserted at the row's position (start, middle or end). It also checks ids, attack kinds and
counts. Exit status is 0 when every row passes and 1 otherwise.
"""

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"language", "link_ad", "card_request", "task_change", "exfil", "persona"}
POSITIONS = ("start", "middle", "end")


def load(name: str) -> list[dict]:
    """Read a JSON Lines file from this folder."""
    with open(HERE / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def non_blank(text: str) -> list[str]:
    """Return the lines of text that are not blank."""
    return [line for line in text.split("\n") if line.strip()]


def insertion_points(clean: list[str], planted: list[str]) -> list[int]:
    """Return every index at which one contiguous block turns clean into planted."""
    extra = len(planted) - len(clean)
    if extra <= 0:
        return []
    points = []
    for index in range(len(clean) + 1):
        if planted[:index] == clean[:index] and planted[index + extra :] == clean[index:]:
            points.append(index)
    return points


def position_matches(position: str, points: list[int], clean_length: int) -> bool:
    """Tell whether one of the insertion points fits the declared position."""
    for index in points:
        if position == "start" and index == 0:
            return True
        if position == "end" and index == clean_length:
            return True
        if position == "middle" and 0 < index < clean_length:
            return True
    return False


def main() -> int:
    """Run all checks and report failures."""
    clean_docs = {row["id"]: row["text"] for row in load("documents_clean.jsonl")}
    planted_rows = load("documents_planted.jsonl")
    failures = []
    seen_ids = set()
    for row in planted_rows:
        row_id = row["id"]
        if row_id in seen_ids:
            failures.append(f"{row_id}: duplicate id")
        seen_ids.add(row_id)
        if row_id != f"{row['doc']}-{row['position']}":
            failures.append(f"{row_id}: id does not match doc and position")
        if row["attack"] not in KINDS:
            failures.append(f"{row_id}: unknown attack kind {row['attack']!r}")
        if row["position"] not in POSITIONS:
            failures.append(f"{row_id}: unknown position {row['position']!r}")
            continue
        if row["doc"] not in clean_docs:
            failures.append(f"{row_id}: no clean document {row['doc']!r}")
            continue
        clean = non_blank(clean_docs[row["doc"]])
        planted = non_blank(row["text"])
        points = insertion_points(clean, planted)
        if not points:
            failures.append(f"{row_id}: removing one block does not give back the clean text")
        elif not position_matches(row["position"], points, len(clean)):
            failures.append(f"{row_id}: attack is not at the {row['position']}")
    expected_ids = {f"{doc_id}-{position}" for doc_id in clean_docs for position in POSITIONS}
    missing = sorted(expected_ids - seen_ids)
    if missing:
        failures.append(f"missing rows: {', '.join(missing)}")
    kinds = Counter(row["attack"] for row in planted_rows)
    for kind in sorted(KINDS):
        if kinds[kind] != 20:
            failures.append(f"attack kind {kind}: {kinds[kind]} rows, expected 20")
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(planted_rows)} planted rows checked, {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
