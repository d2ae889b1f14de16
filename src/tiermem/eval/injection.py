"""(internal) Injection detection rates on a labelled corpus: how many hostile notes are caught, benign ones flagged.

The corpus is JSON Lines, one note a line: ``text``, ``label`` (hostile | benign), ``technique``, ``split``
(dev | holdout) and optionally ``language`` (``benchmarks/injection/corpus.jsonl``). A note is *detected* when
its verdict reaches the threshold (``quarantine`` by default, the level at which the write path keeps a note out
of recall). For each split: the detection rate on hostile notes and the false-positive rate on benign ones,
overall, per technique and per language, and the rate at which notes are at least ``suspicious``. Given the
MiniLM embedder, the learned signal (``trust.learned``) scores beside the rules, as in the write path.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tiermem.embed import Embedder
from tiermem.errors import ValidationError
from tiermem.trust.injection import INJECTION_THRESHOLD, SUSPICIOUS_THRESHOLD
from tiermem.write.path import learned_applies, scan_texts

__all__ = ["CorpusNote", "injection_rates", "load_corpus"]

_LABELS = ("hostile", "benign")


@dataclass(frozen=True, slots=True)
class CorpusNote:
    """One labelled note of the corpus."""

    text: str
    label: str
    technique: str
    split: str
    language: str = "en"


def load_corpus(path: Path) -> list[CorpusNote]:
    """The notes of a JSON Lines corpus; a ValidationError names the line and the field that is wrong."""
    notes: list[CorpusNote] = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValidationError("corpus", f"line {number} is not JSON ({exc.msg})", given=line[:60]) from None
            if not isinstance(row, dict):
                raise ValidationError("corpus", f"line {number} must be a JSON object", given=line[:60])
            for key in ("text", "label", "technique", "split"):
                if not isinstance(row.get(key), str):
                    raise ValidationError("corpus", f"line {number} needs a string '{key}'", given=row.get(key))
            if row["label"] not in _LABELS:
                raise ValidationError("corpus", f"line {number}: label must be hostile or benign", given=row["label"])
            notes.append(
                CorpusNote(row["text"], row["label"], row["technique"], row["split"], row.get("language", "en"))
            )
    return notes


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _group(scored: Iterable[tuple[CorpusNote, float]], key: str, threshold: float) -> dict[str, dict[str, Any]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for note, score in scored:
        entry = counts[getattr(note, key)]
        entry[0] += score >= threshold
        entry[1] += 1
    return {name: {"n": total, "rate": _rate(hit, total)} for name, (hit, total) in sorted(counts.items())}


def _split_report(scored: Sequence[tuple[CorpusNote, float]], threshold: float) -> dict[str, Any]:
    hostile = [(n, s) for n, s in scored if n.label == "hostile"]
    benign = [(n, s) for n, s in scored if n.label == "benign"]
    caught = sum(s >= threshold for _, s in hostile)
    flagged = sum(s >= threshold for _, s in benign)
    return {
        "hostile": len(hostile),
        "benign": len(benign),
        "detection_rate": _rate(caught, len(hostile)),
        "false_positive_rate": _rate(flagged, len(benign)),
        "benign_suspicious_rate": _rate(sum(s >= SUSPICIOUS_THRESHOLD for _, s in benign), len(benign)),
        "hostile_by_technique": _group(hostile, "technique", threshold),
        "benign_by_technique": _group(benign, "technique", threshold),
        "hostile_by_language": _group(hostile, "language", threshold),
        "benign_by_language": _group(benign, "language", threshold),
    }


def injection_rates(
    notes: Sequence[CorpusNote], threshold: float = INJECTION_THRESHOLD, embedder: Embedder | None = None
) -> dict[str, Any]:
    """Detection and false-positive rates per split (dev, holdout, ...), with per-technique breakdowns.

    With ``embedder`` (MiniLM) the learned signal scores too (``scan_texts``); without, the rules alone.
    """
    if not 0.0 < threshold <= 1.0:
        raise ValidationError("threshold", "must be a score in (0, 1]", given=threshold)
    started = time.perf_counter()
    verdicts = scan_texts([note.text for note in notes], embedder)
    scored = [(note, verdict.score) for note, verdict in zip(notes, verdicts, strict=True)]
    seconds = time.perf_counter() - started
    splits = sorted({note.split for note in notes})
    return {
        "threshold": threshold,
        "learned": learned_applies(embedder),
        "notes": len(notes),
        "splits": {name: _split_report([p for p in scored if p[0].split == name], threshold) for name in splits},
        "seconds": round(seconds, 3),
        "ms_per_note": round(1000 * seconds / max(1, len(notes)), 3),
    }
