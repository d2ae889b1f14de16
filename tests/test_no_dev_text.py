"""No development-benchmark text in the product: no six words in a row from a dev set in code, tests or docs.

The dev sets (LoCoMo, LongMemEval, knowledge update, kept beside the repository) measure the method; an example copied
from them into a docstring or a test fits the method to them. Words are compared lowercased, with punctuation
and apostrophes dropped, so a quote reflowed over lines or re-punctuated is still found.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SHINGLE = 6  # words in a row: long enough that a shared run is a copy, not a common phrase
# Where text is written by people; the package's data/ holds model assets (a tokenizer's vocabulary), not prose.
SCANNED = ("src", "tests", "benchmarks", "docs")
SUFFIXES = {".py", ".md", ".rst", ".txt", ".toml", ".sql", ".html", ".json", ".jsonl", ".yaml", ".yml"}
ASSETS = ROOT / "src" / "tiermem" / "data"

_KEEP = b"abcdefghijklmnopqrstuvwxyz0123456789"
_TABLE = bytes(c + 32 if 65 <= c <= 90 else c if c in _KEEP else 32 for c in range(256))

Shingle = tuple[bytes, ...]


def _words(text: str) -> list[bytes]:
    """Lowercase ASCII words; every other character separates them, apostrophes join ("I'm" is "im")."""
    return text.replace("\u2019", "'").encode().translate(_TABLE, b"'").split()


def _shingles(words: list[bytes]) -> Iterator[Shingle]:
    return zip(*(words[i:] for i in range(SHINGLE)), strict=False)


def _locomo(path: Path) -> Iterator[str]:
    for sample in json.loads(path.read_text(encoding="utf-8")):
        for qa in sample["qa"]:
            yield qa["question"]
            yield str(qa.get("answer", ""))
        for turns in sample["conversation"].values():
            if isinstance(turns, list):
                yield from (turn.get("text", "") for turn in turns)


def _longmemeval(path: Path) -> Iterator[str]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        entries: list[dict[str, Any]] = json.load(f)
    seen: set[str] = set()  # the haystacks share many sessions
    for entry in entries:
        yield entry["question"]
        yield str(entry.get("answer", ""))
        for session in entry["haystack_sessions"]:
            for turn in session:
                if turn["content"] not in seen:
                    seen.add(turn["content"])
                    yield turn["content"]


def _knowledge_update(path: Path) -> Iterator[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            extra = item["agent_args"]["extra"]
            yield item["input"]
            yield str(item.get("ground_truth", ""))
            yield from extra["facts"]
            yield extra["contradicting_fact"]


DEV_SETS = {
    "LoCoMo": (DATA / "locomo" / "locomo-dev.json", _locomo),
    "LongMemEval": (DATA / "longmemeval" / "longmemeval_s_subset60.json.gz", _longmemeval),
    "knowledge update": (DATA / "knowledge-update" / "update-dev.jsonl", _knowledge_update),
}


def _product_files() -> Iterator[Path]:
    if (ROOT / "README.md").is_file():
        yield ROOT / "README.md"
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            if (
                path.suffix in SUFFIXES
                and path.is_file()
                and path != Path(__file__).resolve()
                and ASSETS not in path.parents
                and "__pycache__" not in path.parts
            ):
                yield path


def _product_shingles() -> dict[Shingle, set[str]]:
    where: dict[Shingle, set[str]] = {}
    for path in _product_files():
        name = str(path.relative_to(ROOT))
        for shingle in _shingles(_words(path.read_text(encoding="utf-8", errors="replace"))):
            where.setdefault(shingle, set()).add(name)
    return where


def _copied(product: set[Shingle], texts: Iterable[str]) -> set[Shingle]:
    found: set[Shingle] = set()
    for text in texts:
        found.update(product.intersection(_shingles(_words(text))))
    return found


@pytest.fixture(scope="module")
def copies() -> list[tuple[str, str]]:
    """(file, copied words and the dev set they come from) for every dev-set shingle in the product."""
    present = {name: (path, read) for name, (path, read) in DEV_SETS.items() if path.exists()}
    if not present:
        pytest.skip(f"needs the dev sets in {DATA}")
    where = _product_shingles()
    product = set(where)
    return [
        (file, f"{' '.join(w.decode() for w in shingle)!r} ({name})")
        for name, (path, read) in present.items()
        for shingle in sorted(_copied(product, read(path)))
        for file in sorted(where[shingle])
    ]


# Each part of the repository is checked on its own, so a failure names the part that holds the copy.
AREAS = ("README.md", "docs/", "benchmarks/", "tests/", "src/tiermem/recall/", "src/")


@pytest.mark.parametrize("area", AREAS)
def test_no_dev_set_text_in_code_tests_or_docs(copies: list[tuple[str, str]], area: str) -> None:
    found = [f"{file}: {words}" for file, words in copies if next(a for a in AREAS if file.startswith(a)) == area]
    assert not found, "dev-set text in the product; write a neutral example instead:\n" + "\n".join(found)


def test_a_copy_is_found_across_case_punctuation_quotes_and_line_breaks() -> None:
    source = '''"""The Harbour pilot's boat,
    it's said, LEAVES at dawn."""'''
    product = set(_shingles(_words(source)))
    assert _copied(product, ["harbour pilot\u2019s boat: it\u2019s said \u2013 leaves at dawn!"]) == {
        (b"harbour", b"pilots", b"boat", b"its", b"said", b"leaves"),
        (b"pilots", b"boat", b"its", b"said", b"leaves", b"at"),
        (b"boat", b"its", b"said", b"leaves", b"at", b"dawn"),
    }
    assert not _copied(product, ["the harbour pilot's boat, it is said, leaves"])
