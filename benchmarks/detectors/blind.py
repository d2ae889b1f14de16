"""A blind round of mixed cases: credentials refused by the write gate, PII masked by the outbound masker.

Each round's cases (``blind78.json``, ``blind79.json``) were written by someone who had not read the detectors, in
several languages, in prose, configuration, shell history, code, JSON and chat, and scored once on the tree they
were written against before any change was made for them (``blind90.json`` holds ordinary notes only, each read as
a credential's and as PII's near miss). A credential counts as refused when
``Memory.remember`` raises ``SecretRefusedError`` (its metadata, tags and source given too); a PII value counts as
masked only when it is gone whole from ``PiiMasker.mask``'s output; a near miss counts as altered when the masked
text differs from the text.

    PYTHONPATH=src .venv/bin/python benchmarks/detectors/blind.py [--cases FILE ...]  # default: every round
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tiermem import Memory, Scope, SecretRefusedError
from tiermem.errors import ValidationError
from tiermem.trust.pii import PiiMasker

HERE = Path(__file__).resolve().parent


def _refused(memory: Memory, i: int, case: dict[str, Any]) -> bool:
    try:
        memory.remember(
            Scope("blind", f"u{i}"),
            case["text"],
            metadata=case.get("metadata"),
            tags=case.get("tags", ()),
            source=case.get("source", "user"),
        )
    except SecretRefusedError:
        return True
    except ValidationError:  # refused as malformed, not as a credential: a miss
        return False
    return False


def _masked_whole(case: dict[str, Any]) -> bool:
    masked = PiiMasker().mask(case["text"])
    return all(value not in masked for value in case["values"])


def score(cases: list[dict[str, Any]]) -> dict[str, list[bool]]:
    """Each case's outcome, by group: refused, masked whole, or altered."""
    counts: dict[str, list[bool]] = {"cred_real": [], "cred_near": [], "pii_real": [], "pii_near": []}
    with Memory.open(":memory:", embedder="hash") as memory:
        for i, case in enumerate(cases):
            group = case["group"]
            if group.startswith("cred"):
                counts[group].append(_refused(memory, i, case))
            elif group == "pii_real":
                counts[group].append(_masked_whole(case))
            else:
                counts[group].append(PiiMasker().mask(case["text"]) != case["text"])
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, nargs="+", default=sorted(HERE.glob("blind*.json")))
    labels = {
        "cred_real": "real credentials refused",
        "cred_near": "credential near misses refused",
        "pii_real": "real PII masked (whole)",
        "pii_near": "PII near misses altered",
    }
    for path in parser.parse_args().cases:
        counts = score(json.loads(path.read_text(encoding="utf-8")))
        print(path.name)
        for group, label in labels.items():
            hits = counts[group]
            if not hits:  # a round of ordinary notes only holds near misses
                continue
            print(f"  {label}: {sum(hits)} / {len(hits)} ({sum(hits) / max(len(hits), 1):.3f})")


if __name__ == "__main__":
    main()
