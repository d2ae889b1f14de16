"""(internal) Search context for a note that follows another: "Yes, last Sunday!" is found by what it answers.

With ``WritePolicy.follow_window`` set (off by default), a note written within that time of the previous note
of the same scope, or after an earlier item of the same batch, gets the end of that note
(``write.neighbours``) as its search context: full-text indexed beside the content at a lower weight, never
embedded, never returned as the content. It is what ``remember_messages`` does for a conversation's turns, for
callers that write a stream one ``remember`` at a time with no session or speaker. A note written after a
longer pause, a note of another scope (a session's scope included), or one with a context of its own is left
as it is. Off by default because standalone facts gain nothing from the fact written before them, only noise.

Transcript lines follow each other whatever the policy: a user note shaped like one ("Ann: Saturday at nine",
``english.transcript``) written within ``TRANSCRIPT_WINDOW`` of another such line of its scope is a turn of the
same conversation, and gets that line's end as context, as the messages API gives a turn the one before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from tiermem.english.transcript import transcript_speaker
from tiermem.store.base import Store
from tiermem.types import Filter, Scope, Source, SourceKind
from tiermem.write.neighbours import neighbour_context
from tiermem.write.path import NewMemory

__all__ = ["TRANSCRIPT_WINDOW", "with_preceding"]

TRANSCRIPT_WINDOW = timedelta(minutes=30)
"""How soon after a transcript line the next one still follows it without ``follow_window`` (as its example)."""


def _previous(store: Store, scope: Scope, now: datetime, window: timedelta) -> str | None:
    """The content of the scope's newest live note when it was written within ``window`` of ``now``."""
    page = store.list_records(scope, Filter(), now=now, limit=1, cursor=None)
    if not page.records:
        return None
    newest = page.records[0]
    # A scope without a session also lists its sessions' records: only a note of this very scope is followed.
    if newest.scope != scope or now - newest.created_at > window:
        return None
    return newest.content


def with_preceding(
    store: Store, scope: Scope, items: Sequence[NewMemory], now: datetime, window: timedelta | None
) -> list[NewMemory]:
    """``items`` (in write order), each without a context of its own given the end of the note before it."""
    listed = list(items)
    if not listed or not isinstance(scope, Scope):  # a bad scope is the write path's error
        return listed
    if window is None and not any(_line(item) for item in listed):
        return listed
    before = _previous(store, scope, now, window or TRANSCRIPT_WINDOW)
    out: list[NewMemory] = []
    for item in listed:
        follows = window is not None or (_line(item) and before is not None and transcript_speaker(before) is not None)
        if follows and item.context is None and before is not None and isinstance(item.content, str):
            item = replace(item, context=neighbour_context([before, item.content], 1))
        out.append(item)
        before = item.content if isinstance(item.content, str) else None
    return out


def _line(item: NewMemory) -> bool:
    """Whether ``item`` is a user's note shaped like a transcript line ("Ann: ...")."""
    source = item.source if isinstance(item.source, Source) else None
    kind = source.kind if source is not None else (SourceKind.USER if item.source == "user" else None)
    return kind is SourceKind.USER and isinstance(item.content, str) and transcript_speaker(item.content) is not None
