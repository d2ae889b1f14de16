"""(internal) The context window's messages in order, with their cost and the form prompts show them in.

The queue keeps what a prompt needs beside each message (its record id, its API form, its token cost) and the
rules for which messages may stand in a prompt: the newest is never evicted, and a tool result stands only with
the call it answers (chat APIs refuse a result whose call is missing, and a call left without its results).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from tiermem.context.messages import Message, Role, message_tokens
from tiermem.errors import ValidationError
from tiermem.tokens import TokenCounter
from tiermem.trust.prompt_gate import withheld
from tiermem.types import MemoryRecord

__all__ = ["Entry", "MessageQueue", "answered", "entry_for", "finished_calls"]


@dataclass(frozen=True, slots=True)
class Entry:
    """A message in the window with its record id, and its API form as prompts show it (with its cost)."""

    message: Message
    tokens: int
    record_id: str
    api: dict[str, Any]


class MessageQueue:
    """The window's entries oldest first, with their record ids, API forms and total cost kept beside them."""

    def __init__(self) -> None:
        self.entries: deque[Entry] = deque()
        # Kept beside the entries so saving and compiling copy a deque in C instead of looping in Python.
        self.ids: deque[str] = deque()
        self.api: deque[dict[str, Any]] = deque()
        self.with_calls = 0  # entries carrying tool calls: their nested dicts need a deeper copy
        self.total = 0

    def push(self, entry: Entry) -> None:
        """Add ``entry`` as the newest."""
        self.entries.append(entry)
        self.ids.append(entry.record_id)
        self.api.append(entry.api)
        self.total += entry.tokens
        self.with_calls += bool(entry.message.tool_calls)

    def pop(self, into: list[Entry]) -> None:
        """Move the oldest entry to ``into``."""
        entry = self.entries.popleft()
        self.ids.popleft()
        self.api.popleft()
        self.total -= entry.tokens
        self.with_calls -= bool(entry.message.tool_calls)
        into.append(entry)

    def replace(self, entries: Iterable[Entry]) -> None:
        """The queue holds ``entries`` instead of what it held."""
        entries = list(entries)  # may be read from the queues cleared here
        for queue in (self.entries, self.ids, self.api):
            queue.clear()
        self.total = self.with_calls = 0
        for entry in entries:
            self.push(entry)

    def evict(self, limit: int) -> list[Entry]:
        """Pop the oldest entries until the queue costs at most ``limit``; never the newest."""
        evicted: list[Entry] = []
        while self.total > limit and len(self.entries) > 1:
            self.pop(evicted)
            # A tool result left at the head has lost its call, and chat APIs refuse it, so it goes too.
            while len(self.entries) > 1 and self.entries[0].message.role is Role.TOOL:
                self.pop(evicted)
        return evicted

    def check_fits(self, message: Message, cost: int, limit: int) -> None:
        """Refuse a message that cannot fit even alone (with the tool call it answers) before anything is written."""
        unit = cost
        if message.role is Role.TOOL:
            unit += self._call_cost(message)
        if unit <= limit:
            return
        with_call = f" ({unit} with the tool call it answers)" if unit != cost else ""
        raise ValidationError(
            "message",
            f"the newest message costs {cost} tokens{with_call}, more than the message budget {limit}; "
            "shorten it or raise the window",
            given=unit,
            limit=limit,
        )

    def _call_cost(self, message: Message) -> int:
        """Tokens from the assistant message that made the call ``message`` answers to the end of the queue."""
        cost = 0
        for entry in reversed(self.entries):
            cost += entry.tokens
            if any(call.id == message.tool_call_id for call in entry.message.tool_calls):
                return cost
        raise ValidationError(
            "tool_call_id",
            "answers no tool call of an assistant message in the context window",
            given=message.tool_call_id,
        )


def entry_for(message: Message, record: MemoryRecord, cost: int, counter: TokenCounter) -> Entry:
    """The window's entry of ``message``: prompts see it as the prompt gate shows it (``as_shown``)."""
    shown = as_shown(message, record)
    if shown is not message:
        cost = message_tokens(shown, counter)
    return Entry(message, cost, record.id, shown.to_openai())


def answered(entries: Iterable[Entry]) -> list[Entry]:
    """``entries`` without a tool result whose call is not among them (chat APIs refuse one)."""
    calls: set[str] = set()
    out: list[Entry] = []
    for entry in entries:
        if entry.message.role is not Role.TOOL or entry.message.tool_call_id in calls:
            calls.update(call.id for call in entry.message.tool_calls)
            out.append(entry)
    return out


def finished_calls(entries: list[Entry]) -> list[Entry]:
    """``entries`` without a model message whose tool calls were not all answered (its turn ended in the middle:
    its process died, or it lost the session), which chat APIs refuse; ``answered`` then drops its results."""
    answered_ids = {e.message.tool_call_id for e in entries if e.message.role is Role.TOOL}
    return [e for e in entries if all(call.id in answered_ids for call in e.message.tool_calls)]


def as_shown(message: Message, record: MemoryRecord) -> Message:
    """``message`` as every prompt shows it: its words and its calls' arguments withheld when the prompt gate says
    so; each call keeps its id and name, so the tool result that follows still answers it."""
    marker = withheld(record)
    if marker is None:
        return message
    arguments = json.dumps({"withheld": marker})
    calls = tuple(replace(call, arguments=arguments) for call in message.tool_calls)
    return replace(message, content=marker, tool_calls=calls)
