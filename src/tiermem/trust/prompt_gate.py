"""(internal) The prompt gate: stored text on its way to a model passes here, whatever the path.

Recall results, messages of the context window, conversation search, the memory tools' results (in the agent
loop, over MCP and for the OpenAI Agents SDK) and what a summariser reads are records turned into prompt text.
Each of those paths asks this module what it may show:

- ``admit_hits``: which hits may be shown. A quarantined note never is (its stored verdict, or, for a note never
  judged, the read-time check); the others keep their flags, and a hit made from a listing rather than by recall
  gets the flags recall would have given it (``untrusted`` from its source, ``suspicious`` from its stored verdict).
- ``withheld``: what a message of the window says. A quarantined message keeps its place (a tool result must
  follow its call) but its words are withheld, and so are the arguments of its tool calls, which its record's
  text holds too (each call keeps its id and name, which its result answers to): ``context.window_queue`` shows it so.
- ``summarisable``: whether a summariser may read a message. Only clean text: what a summary holds is pasted into
  every prompt as core memory, without the quotes and flags a flagged message keeps in the window.

How admitted hits are written into a prompt (quoted, with provenance and flags) is ``trust.provenance``.
"""

from __future__ import annotations

from collections.abc import Iterable

from tiermem.trust.injection import QUARANTINE_TAG, SCORE_KEY, SUSPICIOUS_TAG, ScanLevel, level_of, stored_level
from tiermem.types import Hit, MemoryRecord

__all__ = ["UNTRUSTED_FLAG", "WITHHELD", "admit_hits", "admitted", "summarisable", "withheld"]

UNTRUSTED_FLAG = "untrusted"  # recall's flag for a note from a tool, the web or an import
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
        added: list[str] = []
        if hit.record.source.untrusted and UNTRUSTED_FLAG not in hit.flags:
            added.append(UNTRUSTED_FLAG)
        if SUSPICIOUS_TAG not in hit.flags and stored_level(hit.record) is ScanLevel.SUSPICIOUS:
            added.append(SUSPICIOUS_TAG)
        out.append(Hit(hit.record, hit.score, hit.parts, (*hit.flags, *added), hit.relevance) if added else hit)
    return out


def summarisable(record: MemoryRecord) -> bool:
    """Whether a summariser may read the record's message: neither quarantined nor flagged suspicious."""
    return level_of(record) is ScanLevel.CLEAN


def withheld(record: MemoryRecord) -> str | None:
    """What a model sees in place of the record's words (its message's text and its tool calls' arguments): the
    withheld marker when the record is quarantined, else None (it is shown as it is)."""
    if admitted(record):
        return None
    score = record.metadata.get(SCORE_KEY)
    return WITHHELD.format(score=f" (injection score {score:.2f})" if isinstance(score, float) else "")
