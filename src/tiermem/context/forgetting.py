"""(internal) Forgetting reaches the working context: summary lines taken from a forgotten message go with it.

The context runtime's summariser copies sentences of evicted messages into the ``summary`` core block, and each
block keeps its edits. When a message record is deleted (``Memory.forget``, ``Memory.sweep``), the lines that
quote it leave every core block of its user and the texts of their edits (``rewrite_core_texts``), and each
window that holds it takes a new revision, so an agent with a copy of that window reloads it before its next
prompt. A summary an LLM wrote in its own words cannot be traced back to a message this way and stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import partial

from tiermem.context.messages import message_from_record
from tiermem.context.summary import split_sentences, without_sentences
from tiermem.store.base import Store
from tiermem.store.context_base import StoreWithContext
from tiermem.types import MemoryRecord, Scope
from tiermem.write.messages import RECALL_TAG

__all__ = ["FORGET_ACTOR", "forget_in_summaries"]

FORGET_ACTOR = "forget"  # the actor of the block edit that takes a forgotten message's lines out


def forget_in_summaries(
    store: Store | StoreWithContext, scope: Scope, gone: Iterable[MemoryRecord], *, at: datetime
) -> int:
    """Take the sentences of the deleted messages in ``gone`` out of the core blocks of ``scope``'s user."""
    rewrite = getattr(store, "rewrite_core_texts", None)
    if rewrite is None:  # a store without core memory has no summary to clean
        return 0
    gone = list(gone)
    messages = [r.id for r in gone if RECALL_TAG in r.tags]
    renew = getattr(store, "renew_windows_holding", None)
    if messages and renew is not None:  # an agent with one of them in its window (any process) reloads it first
        renew(scope, messages)
    # The summariser saw the message as sent (no "Ann: " the record's text starts with, its own whitespace).
    said = [message_from_record(r).content for r in gone if RECALL_TAG in r.tags and "role" in r.metadata]
    sentences = {s for text in said for s in split_sentences(text)}
    if not sentences:
        return 0
    changed: int = rewrite(scope, partial(without_sentences, sentences=sentences), actor=FORGET_ACTOR, at=at)
    return changed
