"""Fact extraction, off the hot path: a finished conversation → candidate facts → the ordinary write path.

- ``RuleExtractor`` (the default, no model) keeps the user's first-person statements of preference, identity,
  relation, location and plans, found by anchored patterns, and rewrites each into one short standalone
  sentence that keeps the first person ("I live in Austin.", "My dog is called Pepper."): the supersession
  detector reads a first-person sentence as a fact about the user, so the form is part of the contract.
- ``LLMExtractor`` asks any ``ChatClient`` with ``EXTRACTION_PROMPT`` for JSON and validates every item;
  invalid items are dropped and counted, never repaired.

``extract_and_remember`` writes the candidates in one ``remember_keyed`` batch, so exact duplicates come back
UNCHANGED, paraphrases merge and changed facts supersede. Each fact is keyed by the conversation it came from:
re-ingesting a conversation adds zero rows and never makes its facts current again once newer ones closed them,
while the same fact said in another conversation is a new statement (a value changed back).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from tiermem.errors import ValidationError
from tiermem.llm import ChatClient, LLMError, complete_json
from tiermem.types import MemoryType, Scope, Source, normalise_text
from tiermem.write.extract_rules import RuleExtractor
from tiermem.write.facts import MAX_FACT_CHARS, ExtractedFact, FactKind, check_messages
from tiermem.write.path import NewMemory, WriteResult

__all__ = [
    "EXTRACTION_PROMPT",
    "MAX_FACT_CHARS",
    "ExtractedFact",
    "Extractor",
    "FactKind",
    "LLMExtractor",
    "MemoryWriter",
    "RuleExtractor",
    "extract_and_remember",
]


@runtime_checkable
class Extractor(Protocol):
    """Turns a conversation of (role, text) pairs, role "user" or "assistant", into candidate facts."""

    def extract(self, messages: Sequence[tuple[str, str]]) -> list[ExtractedFact]:
        """The candidate facts of this conversation."""
        ...


class MemoryWriter(Protocol):
    """Anything with the facade's batch write (a ``Memory``); extraction sits below the facade."""

    def remember_keyed(self, scope: Scope, items: Sequence[NewMemory], keys: Sequence[str]) -> list[WriteResult]:
        """Write a batch through the dedupe / supersession path; ``keys`` name the statements (a replay is one)."""
        ...


# -- LLM extraction -------------------------------------------------------------------------------------------

EXTRACTION_PROMPT = """\
You extract lasting facts about the user from a finished conversation, for the user's long-term memory.

The conversation is a JSON array of messages {"index": <n>, "role": "user" | "assistant", "text": <text>}.

Rules:
- Extract only what the user states about themselves, their people and pets, where they are, and their plans.
  Read the assistant's messages for context only; never extract what the assistant says.
- Skip questions, requests to the assistant, hypotheticals and wishes ("if I ...", "I wish ..."), small talk,
  and what other people reportedly said.
- Write each fact as one short standalone sentence in the user's own first person that needs no other message
  to be understood: "I live in Austin.", "My dog is called Pepper.", "I don't like olives.". Keep negations.
- kind is one of: preference, identity, relation, location, plan, other.
- source_message is the index of the user message the fact comes from.
- confidence is a number from 0 to 1: how sure you are that the user meant it as a lasting fact.
- No facts is a fine answer.

Reply with JSON only, in this shape:
{"facts": [{"text": "I live in Austin.", "kind": "location", "source_message": 0, "confidence": 0.9}]}
"""


class LLMExtractor:
    """Extraction by a chat model through ``EXTRACTION_PROMPT``; ``last_dropped`` counts the items it refused."""

    def __init__(self, client: ChatClient, *, max_facts: int = 30) -> None:
        if isinstance(max_facts, bool) or not isinstance(max_facts, int) or max_facts < 1:
            raise ValidationError("max_facts", "must be a positive integer", given=max_facts)
        self.client = client
        self.max_facts = max_facts
        self.last_dropped = 0  # of the last call: invalid items, repeats and those beyond max_facts

    def extract(self, messages: Sequence[tuple[str, str]]) -> list[ExtractedFact]:
        """Ask the model, then keep the valid items; LLMError when the reply is not the asked-for JSON."""
        checked = check_messages(messages)
        self.last_dropped = 0
        if not any(role == "user" for role, _ in checked):
            return []  # nothing the user said: no reason to spend a call
        transcript = [{"index": i, "role": role, "text": text} for i, (role, text) in enumerate(checked)]
        task = f"At most {self.max_facts} facts.\n\n{json.dumps(transcript, ensure_ascii=False)}"
        prompt = [{"role": "system", "content": EXTRACTION_PROMPT}, {"role": "user", "content": task}]
        items = complete_json(self.client, prompt, ["facts"])["facts"]
        if not isinstance(items, list):
            raise LLMError(f"the model's 'facts' is {type(items).__name__}, not a list", excerpt=str(items)[:300])
        facts: list[ExtractedFact] = []
        seen: set[str] = set()
        for item in items:
            fact = _validated(item, checked)
            if fact is None or fact.text.casefold() in seen or len(facts) >= self.max_facts:
                self.last_dropped += 1
                continue
            seen.add(fact.text.casefold())
            facts.append(fact)
        return facts


def _validated(item: Any, messages: list[tuple[str, str]]) -> ExtractedFact | None:
    """The fact an item describes, or None when any field is unusable."""
    if not isinstance(item, dict):
        return None
    text = normalise_text(item["text"]) if isinstance(item.get("text"), str) else ""
    index = item.get("source_message")
    if isinstance(index, float) and index.is_integer():
        index = int(index)  # JSON has one number type; 2.0 is index 2
    confidence = item.get("confidence")
    if (
        not 1 <= len(text) <= MAX_FACT_CHARS
        or isinstance(index, bool)
        or not isinstance(index, int)
        or not 0 <= index < len(messages)
        or messages[index][0] != "user"  # the assistant's words are not the user's facts
        or isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or not math.isfinite(confidence)
    ):
        return None
    kind_value = item.get("kind")
    known = isinstance(kind_value, str) and kind_value in {k.value for k in FactKind}
    kind = FactKind(str(kind_value)) if known else FactKind.OTHER
    return ExtractedFact(text, kind, messages[index][0], index, min(max(float(confidence), 0.0), 1.0))


# -- writing ---------------------------------------------------------------------------------------------------


def extract_and_remember(
    memory: MemoryWriter,
    scope: Scope,
    messages: Sequence[tuple[str, str]],
    extractor: Extractor | None = None,
    *,
    source: Source | str = "agent",
) -> list[WriteResult]:
    """Extract facts (rules by default) and write them as semantic memories in one batch; [] when none."""
    chosen = extractor if extractor is not None else RuleExtractor()
    facts = chosen.extract(messages)
    if not facts:
        return []
    items = [
        NewMemory(
            fact.text,
            MemoryType.SEMANTIC,
            source,
            metadata={
                "extracted_kind": fact.kind.value,
                "source_message": fact.source_message,
                "confidence": fact.confidence,
                "extractor": type(chosen).__name__,
            },
        )
        for fact in facts
    ]
    return memory.remember_keyed(scope, items, _fact_keys(messages, [fact.text for fact in facts]))


def _fact_keys(messages: Sequence[tuple[str, str]], texts: list[str]) -> list[str]:
    """Each fact's statement: the conversation's digest, its text, and how many times the text came before."""
    digest = hashlib.sha256(json.dumps([list(m) for m in messages]).encode()).hexdigest()
    seen: dict[str, int] = {}
    keys: list[str] = []
    for text in texts:
        seen[text] = seen.get(text, 0) + 1
        keys.append(f"extract\0{digest}\0{text}\0{seen[text]}")
    return keys
