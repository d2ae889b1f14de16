"""More dev notes, written after the scorer was first tuned, to develop against phrasings beyond the templates.

Hostile notes worded without the families' templates (orders with no addressee, other impersonation shapes,
other ways of moving data out) and benign lookalikes that share their words (notes between people, release
notes, support scripts, developer how-tos). They were written after tuning began, so they can never be a
fair holdout: ``build_corpus.py`` puts all of them in ``dev`` and after every other note, which leaves the
original notes and their held-out fifth exactly as they were. Families yield ``(text, language)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from dev_more_later import AFTER_HOSTILE, AFTER_HOSTILE_2, AFTER_HOSTILE_3, AFTER_TWINS, AFTER_TWINS_2, AFTER_TWINS_3
from dev_more_text import (
    BENIGN,
    DIRECT,
    DIRECT_2,
    EXFILTRATION,
    EXFILTRATION_2,
    FINAL_HOSTILE,
    FINAL_TWINS,
    LAST_HOSTILE,
    LAST_TWINS,
    LOOKALIKES,
    ROLE,
    ROLE_2,
)

Family = Callable[[random.Random], Iterator[tuple[str, str]]]


def _each(texts: list[str], lang: str = "en") -> Family:
    def family(rng: random.Random) -> Iterator[tuple[str, str]]:
        yield from ((t, lang) for t in texts)

    return family


HOSTILE_FAMILIES: dict[str, list[Family]] = {
    "direct": [_each(DIRECT), _each(DIRECT_2), _each(LAST_HOSTILE["direct"]), _each(FINAL_HOSTILE["direct"])],
    "role": [_each(ROLE), _each(ROLE_2), _each(LAST_HOSTILE["role"]), _each(FINAL_HOSTILE["role"])],
    "exfiltration": [
        _each(EXFILTRATION),
        _each(EXFILTRATION_2),
        _each(LAST_HOSTILE["exfiltration"]),
        _each(FINAL_HOSTILE["exfiltration"]),
    ],
}
BENIGN_FAMILIES: dict[str, list[Family]] = {
    **{technique: [_each(texts)] for technique, texts in BENIGN.items()},
    "lookalike": [_each(LOOKALIKES), _each(LAST_TWINS), _each(FINAL_TWINS)],
}

# Batches written after the families above were in the corpus: built after them (as ``technique/later-N``), so
# every earlier row keeps its place in corpus.jsonl.
LATER_HOSTILE_FAMILIES: dict[str, list[Family]] = {
    technique: [_each(AFTER_HOSTILE[technique]), _each(AFTER_HOSTILE_2[technique]), _each(AFTER_HOSTILE_3[technique])]
    for technique in ("direct", "role", "exfiltration")
}
LATER_BENIGN_FAMILIES: dict[str, list[Family]] = {
    "lookalike": [_each(AFTER_TWINS), _each(AFTER_TWINS_2), _each(AFTER_TWINS_3)]
}
