"""Side effects behind approval: a side-effecting tool call that repeats untrusted memory is held, not run.

The tracing rule (what "the arguments trace back to untrusted memory" means):

1. **Tainted hits.** Every memory hit recalled during the turn (the agent's own retrieval and the results of
   ``archival_memory_search`` and ``conversation_search``) whose record is quarantined (tagged at write time
   or directive-shaped when read), is tagged or flagged ``quarantined``/``flagged``, or has a trust below
   ``UNTRUSTED_BELOW`` (tool and web sources); and the scope's quarantined notes that a search for the call's
   arguments finds, because recall hides them from the model yet their words can reach a call another way.
2. **Fragments.** Each string (and number) in the call's JSON arguments, NFKC-normalised, case-folded and with
   whitespace collapsed; arguments that are not JSON count as one string. Fragments shorter than
   ``MIN_FRAGMENT_CHARS`` or without a letter or digit are ignored.
3. **Trace.** A fragment traces to a tainted hit when it occurs in the hit's normalised text as whole words
   ("first class" in "always book first class"), or when the two share a run of ``SHARED_WORDS`` consecutive
   words (a free-text argument that paraphrases around a copied sentence).
4. **Excused.** Evidence (the fragment, or the shared run of words) that also occurs as whole words in the
   user's own message of the turn is the user's request, not the memory's: it does not trace.

One traced fragment holds the call. The held call is kept, with its reasons, in the agent's ``HeldCalls``
(in the process: ``Agent.held``); ``Agent.approve`` runs it and ``Agent.reject`` drops it.
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from tiermem.errors import ConflictError, NotFoundError
from tiermem.trust.injection import QUARANTINE_TAG, quarantined
from tiermem.types import Hit, new_id, utcnow

__all__ = [
    "MIN_FRAGMENT_CHARS",
    "SHARED_WORDS",
    "TAINT_TAGS",
    "UNTRUSTED_BELOW",
    "HeldCall",
    "HeldCalls",
    "HoldStatus",
    "Taint",
    "taint_of",
    "trace_call",
]

UNTRUSTED_BELOW = 0.5
"""A hit whose record's trust is below this (tool 0.4, web 0.3) is untrusted."""
MIN_FRAGMENT_CHARS = 3
SHARED_WORDS = 4
TAINT_TAGS = frozenset({QUARANTINE_TAG, "flagged"})
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Taint:
    """Why a call was held: which argument text repeats which untrusted record."""

    evidence: str  # the normalised text the argument and the record share
    record_id: str
    source: str
    reason: str  # "quarantined", "flagged", "untrusted source (trust 0.30)"


class HoldStatus(StrEnum):
    """Where a held call stands."""

    HELD = "held"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class HeldCall:
    """A side-effecting tool call that was not run, waiting for a person's decision."""

    id: str
    call_id: str
    name: str
    arguments: str
    reasons: tuple[Taint, ...]
    held_at: datetime
    status: HoldStatus = HoldStatus.HELD
    result: str | None = None  # the tool's result once approved and run


class HeldCalls:
    """Held calls of one agent, in the process (thread-safe); a service can keep its own store behind this API."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: dict[str, HeldCall] = {}

    def hold(self, call_id: str, name: str, arguments: str, reasons: Sequence[Taint]) -> HeldCall:
        """Record a call as held and return it."""
        held = HeldCall(new_id(), call_id, name, arguments, tuple(reasons), utcnow())
        with self._lock:
            self._calls[held.id] = held
        return held

    def get(self, held_id: str) -> HeldCall:
        """The held call ``held_id``; NotFoundError if there is none."""
        with self._lock:
            held = self._calls.get(held_id)
        if held is None:
            raise NotFoundError(f"no held tool call with id {held_id!r}")
        return held

    def calls(self, status: HoldStatus | None = HoldStatus.HELD) -> list[HeldCall]:
        """Held calls, oldest first (only those in ``status``; all if None)."""
        with self._lock:
            calls = list(self._calls.values())
        return [c for c in calls if status is None or c.status is status]

    def resolve(self, held_id: str, status: HoldStatus, result: str | None = None) -> HeldCall:
        """Mark a held call approved or rejected (once: ConflictError after that); the updated call."""
        with self._lock:
            held = self._calls.get(held_id)
            if held is None:
                raise NotFoundError(f"no held tool call with id {held_id!r}")
            if held.status is not HoldStatus.HELD:
                raise ConflictError(f"held tool call {held_id!r} was already {held.status.value}")
            held = self._calls[held_id] = replace(held, status=status, result=result)
        return held


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def taint_of(hit: Hit) -> str | None:
    """Why a recalled hit is untrusted ("quarantined", "flagged", "untrusted source ..."), or None if it is not."""
    record = hit.record
    if QUARANTINE_TAG in hit.flags or quarantined(record):
        return "quarantined"
    marked = sorted((TAINT_TAGS & set(record.tags)) | (TAINT_TAGS & set(hit.flags)))
    if marked:
        return marked[0]
    if record.trust < UNTRUSTED_BELOW:
        return f"untrusted source (trust {record.trust:.2f})"
    return None


def _fragments(arguments: str) -> Iterator[str]:
    try:
        value: Any = json.loads(arguments)
    except (ValueError, RecursionError):
        value = arguments
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str | int | float) and not isinstance(item, bool):
            text = _normal(str(item))
            if len(text) >= MIN_FRAGMENT_CHARS and any(ch.isalnum() for ch in text):
                yield text


def _says(text: str, piece: str) -> bool:
    """``piece`` occurs in ``text`` as whole words (both normalised)."""
    return re.search(r"(?<!\w)" + re.escape(piece) + r"(?!\w)", text) is not None


def _runs(text: str) -> set[str]:
    words = _WORD.findall(text)
    return {" ".join(words[i : i + SHARED_WORDS]) for i in range(len(words) - SHARED_WORDS + 1)}


def trace_call(arguments: str, recalled: Sequence[Hit], *, user_text: str) -> tuple[Taint, ...]:
    """Why a call with these arguments repeats untrusted memory recalled this turn; empty when it does not."""
    tainted = [(hit, reason) for hit in recalled if (reason := taint_of(hit)) is not None]
    if not tainted:
        return ()
    user = _normal(user_text)
    user_runs = _runs(user)
    found: dict[tuple[str, str], Taint] = {}
    for fragment in _fragments(arguments):
        fragment_runs = _runs(fragment)
        for hit, reason in tainted:
            text = _normal(hit.record.content)
            evidence: str | None = None
            if _says(text, fragment) and not _says(user, fragment):
                evidence = fragment
            else:
                shared = sorted((fragment_runs & _runs(text)) - user_runs)
                evidence = shared[0] if shared else None
            if evidence is not None:
                record = hit.record
                found.setdefault((evidence, record.id), Taint(evidence, record.id, str(record.source), reason))
    return tuple(found.values())
