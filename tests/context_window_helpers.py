"""Shared pieces of the context-window tests: the scope, the budgets, message text and a prompt recount."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from tiermem.context.budget import ContextBudget
from tiermem.context.compile import CompiledPrompt
from tiermem.context.messages import (
    MESSAGE_OVERHEAD,
    REPLY_PRIMING,
    TOOL_CALL_OVERHEAD,
    Message,
    ToolCall,
)
from tiermem.context.window import ContextManager, StoreRecall
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import TiktokenCounter, TokenCounter
from tiermem.types import Hit, MemoryRecord, MemoryType, Scope, Source, content_hash, new_id

COUNTER = TiktokenCounter("o200k_base")
SCOPE = Scope("acme", "alice", "bot", "s1")
T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
SMALL = ContextBudget(window=1200, system=100, core=300, output_reserve=200, retrieval_reserve=200)  # M = 400
VOCAB = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar".split(" ")


def manager(
    store: StoreWithContext, budget: ContextBudget = SMALL, *, counter: TokenCounter = COUNTER, **kwargs: Any
) -> ContextManager:
    return ContextManager(
        store, StoreRecall(store, None), SCOPE, budget=budget, counter=counter, system_prompt="Be helpful.", **kwargs
    )


def text(i: int, words: int) -> str:
    """A message whose marker word m<i> occurs in no other message."""
    return f"m{i} " + " ".join(VOCAB[(i + j) % len(VOCAB)] for j in range(words))


def recount(prompt: CompiledPrompt, counter: TokenCounter = COUNTER) -> int:
    """The prompt's tokens counted from its messages alone, by the documented cost model."""
    total = REPLY_PRIMING
    for m in prompt.messages:
        total += counter.count(m["content"]) + MESSAGE_OVERHEAD
        total += counter.count(m["name"]) if "name" in m else 0
        total += counter.count(m["tool_call_id"]) if "tool_call_id" in m else 0
        for call in m.get("tool_calls", []):
            fn = call["function"]
            total += counter.count(fn["name"]) + counter.count(fn["arguments"]) + counter.count(call["id"])
            total += TOOL_CALL_OVERHEAD
    return total


def memory_hit(content: str, source: str = "user", flags: tuple[str, ...] = ()) -> Hit:
    src = Source.parse(source)
    record = MemoryRecord(
        id=new_id(),
        scope=SCOPE,
        type=MemoryType.SEMANTIC,
        content=content,
        source=src,
        trust=src.trust,
        created_at=T0,
        valid_from=T0,
        content_hash=content_hash(content),
    )
    return Hit(record, 1.0, (), flags)


def call_and_result(i: int, result_words: int) -> tuple[Message, Message]:
    call = ToolCall(f"call_{i}", "lookup", json.dumps({"q": f"m{i}"}))
    return Message.assistant("", tool_calls=(call,)), Message.tool(
        text(i, result_words), tool_call_id=call.id, name="lookup"
    )
