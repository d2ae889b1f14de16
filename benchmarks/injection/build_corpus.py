"""Build the injection corpus (``corpus.jsonl``) from the hostile and benign families beside this file.

One JSON object a line: ``text``, ``label`` (hostile | benign), ``technique``, ``language``, ``family`` and
``split`` (dev | holdout). The build is deterministic (seeded), so the committed file can be re-made and
checked. A fifth of every family is held out, chosen by a seeded shuffle when the corpus was first built and
before any tuning of the scorer; tune only on ``dev``, report both. Notes written after tuning began
(``dev_more``) come after them and are all ``dev``, so the original notes and their holdout stay as they were.
The generalisation round (``general_text``) comes last: its dev notes in ``dev``, its final batch in ``holdout``.

    .venv/bin/python benchmarks/injection/build_corpus.py            # writes corpus.jsonl
    .venv/bin/python benchmarks/injection/build_corpus.py --check    # exits 1 if the file is stale
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benign
import dev_more
import general_text
import hostile

OUT = Path(__file__).resolve().parent / "corpus.jsonl"
SEED = 20261201
HOLDOUT_EVERY = 5


def build() -> list[dict[str, str]]:
    """Every note of the corpus, in a fixed order, with its split."""
    rows: list[dict[str, str]] = []
    seen: set[str] = set()
    for label, families in (("hostile", hostile.FAMILIES), ("benign", benign.FAMILIES)):
        for technique, members in families.items():
            for number, family in enumerate(members):
                name = f"{technique}/{getattr(family, '__name__', 'family')}-{number}"
                rng = random.Random(f"{SEED}:{name}")
                notes = []
                for text, lang in family(rng):
                    if text not in seen:  # a note appears once in the corpus, in one split
                        seen.add(text)
                        notes.append((text, lang))
                order = list(range(len(notes)))
                random.Random(f"{SEED}:split:{name}").shuffle(order)
                held = set(order[: max(1, round(len(notes) / HOLDOUT_EVERY))]) if len(notes) >= 3 else set()
                for k, (text, lang) in enumerate(notes):
                    rows.append(
                        {
                            "text": text,
                            "label": label,
                            "technique": technique,
                            "language": lang,
                            "family": name,
                            "split": "holdout" if k in held else "dev",
                        }
                    )
    later = (
        ("hostile", dev_more.HOSTILE_FAMILIES, "more"),
        ("benign", dev_more.BENIGN_FAMILIES, "more"),
        ("hostile", dev_more.LATER_HOSTILE_FAMILIES, "later"),
        ("benign", dev_more.LATER_BENIGN_FAMILIES, "later"),
    )
    for label, families, batch in later:
        for technique, members in families.items():
            for number, family in enumerate(members):
                name = f"{technique}/{batch}-{number}"
                for text, lang in family(random.Random(f"{SEED}:{name}")):
                    if text not in seen:
                        seen.add(text)
                        row = {"text": text, "label": label, "technique": technique, "language": lang}
                        rows.append(row | {"family": name, "split": "dev"})
    # The generalisation round (``general_text``): its dev notes, then its final batch, held out whole.
    general = (
        ("hostile", general_text.DEV_HOSTILE, "general", "dev"),
        ("benign", {**general_text.DEV_BENIGN, "ordinary_mail": general_text.DEV_MAIL}, "general", "dev"),
        ("hostile", general_text.FINAL_HOSTILE, "general-final", "holdout"),
        ("benign", {**general_text.FINAL_BENIGN, "ordinary_mail": general_text.FINAL_MAIL}, "general-final", "holdout"),
    )
    for label, notes_by_technique, batch, split in general:
        for technique, notes in notes_by_technique.items():
            name = f"{technique}/{batch}"
            for text, lang in notes:
                if text not in seen:
                    seen.add(text)
                    row = {"text": text, "label": label, "technique": technique, "language": lang}
                    rows.append(row | {"family": name, "split": split})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Only check that corpus.jsonl is up to date.")
    args = parser.parse_args()
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in build())
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        return 0 if current == text else 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
