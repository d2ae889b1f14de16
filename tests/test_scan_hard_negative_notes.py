"""Innocent notes written in the words the injection readings look for stay (nearly all) clean.

``benchmarks/injection/hard_negatives/notes.jsonl`` holds 120 notes a user would keep (dated plans, retired notes,
"no caveats", spoilers kept from themselves, what to tell a relative, honest asides), written by a helper that had
not seen the rules. A reading that catches an attack's wording also meets people writing those words innocently;
this keeps a new reading from trading the one for the other unseen.
"""

from __future__ import annotations

import json
from pathlib import Path

from tiermem.trust.injection import INJECTION_THRESHOLD, SUSPICIOUS_THRESHOLD, injection_score

NOTES = Path(__file__).resolve().parents[1] / "benchmarks" / "injection" / "hard_negatives" / "notes.jsonl"
# What the rules do to them now: two quarantined (a "without warnings" preference that also waives a safeguard, and
# a spoiler kept from the user read as a cover story) and nine flagged in all.
QUARANTINED_AT_MOST = 2
FLAGGED_AT_MOST = 9


def test_innocent_notes_in_the_readings_words_are_rarely_flagged() -> None:
    texts = [json.loads(line)["text"] for line in NOTES.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(texts) == 120
    scores = [injection_score(text).score for text in texts]
    quarantined = [t for t, s in zip(texts, scores, strict=True) if s >= INJECTION_THRESHOLD]
    flagged = [t for t, s in zip(texts, scores, strict=True) if s >= SUSPICIOUS_THRESHOLD]
    assert len(quarantined) <= QUARANTINED_AT_MOST, quarantined
    assert len(flagged) <= FLAGGED_AT_MOST, flagged
