"""(internal) The prompt gate: stored text on its way to a model passes here, whatever the path.

Recall results, messages of the context window, conversation search, the memory tools' results (in the agent
loop, over MCP and for the OpenAI Agents SDK) and what a summariser reads are records turned into prompt text.
Each of those paths asks this module two things:

- ``admit_hits``: which hits may be shown. A quarantined note never is (its stored verdict, or, for a note never
  judged, the read-time check); the others keep their flags, and a hit made from a listing rather than by recall
  gets the flags recall would have given it (``suspicious`` from its stored verdict).
- ``shown_text``: what a message of the window says. A quarantined message keeps its place (a tool result must
  follow its call) but its words are withheld.

How admitted hits are written into a prompt (quoted, with provenance and flags) is ``trust.provenance``.
"""

from __future__ import annotations

from collections.abc import Iterable

from tiermem.trust.injection import QUARANTINE_TAG, SCORE_KEY, SUSPICIOUS_TAG, ScanLevel, level_of, stored_level
from tiermem.types import Hit, MemoryRecord

__all__ = ["WITHHELD", "admit_hits", "admitted", "shown_text"]

WITHHELD = (
    "[withheld: this text was quarantined because it reads like instructions to the model{score}; an operator can "
    "release it]"
)


def admitted(record: MemoryRecord) -> bool:
    """Whether the record's text may reach a model."""
    return level_of(record) is not ScanLevel.QUARANTINE


def admit_hits(hits: Iterable[Hit]) -> list[Hit]:
    """The hits whose text may reach a model, in their order, each flagged as its stored verdict says."""
    out: list[Hit] = []
    for hit in hits:
        if QUARANTINE_TAG in hit.flags or not admitted(hit.record):
            continue
        if SUSPICIOUS_TAG not in hit.flags and stored_level(hit.record) is ScanLevel.SUSPICIOUS:
            hit = Hit(hit.record, hit.score, hit.parts, (*hit.flags, SUSPICIOUS_TAG), hit.relevance)
        out.append(hit)
    return out


def shown_text(record: MemoryRecord, text: str) -> str:
    """``text`` (the record's message as sent) if the record may reach a model, else the withheld marker."""
    if admitted(record):
        return text
    score = record.metadata.get(SCORE_KEY)
    return WITHHELD.format(score=f" (injection score {score:.2f})" if isinstance(score, float) else "")
