"""A blind round of mixed cases: credentials refused by the write gate, PII masked by the outbound masker.

The cases (``blind78.json``) were written by someone who had not read the detectors, in several languages, in
prose, configuration, shell history, code, JSON and chat; each was scored once on the tree it was written against
and the tree before it. A credential counts as refused when ``Memory.remember`` raises ``SecretRefusedError`` (its
metadata given too); a PII value counts as masked only when it is gone whole from ``PiiMasker.mask``'s output; a
near miss counts as altered when the masked text differs from the text.

    PYTHONPATH=src .venv/bin/python benchmarks/detectors/blind.py [--cases FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tiermem import Memory, Scope, SecretRefusedError
from tiermem.trust.pii import PiiMasker

HERE = Path(__file__).resolve().parent


def _refused(memory: Memory, i: int, case: dict[str, Any]) -> bool:
    try:
        memory.remember(Scope("blind", f"u{i}"), case["text"], metadata=case.get("metadata"))
    except SecretRefusedError:
        return True
    return False


def _masked_whole(case: dict[str, Any]) -> bool:
    masked = PiiMasker().mask(case["text"])
    return all(value not in masked for value in case["values"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=HERE / "blind78.json")
    cases = json.loads(parser.parse_args().cases.read_text(encoding="utf-8"))
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
    labels = {
        "cred_real": "real credentials refused",
        "cred_near": "credential near misses refused",
        "pii_real": "real PII masked (whole)",
        "pii_near": "PII near misses altered",
    }
    for group, label in labels.items():
        hits = counts[group]
        print(f"{label}: {sum(hits)} / {len(hits)} ({sum(hits) / max(len(hits), 1):.3f})")


if __name__ == "__main__":
    main()
