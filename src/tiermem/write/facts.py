"""(internal) An extracted fact: its kind and checks, and the (role, text) conversation every extractor reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tiermem.errors import ValidationError

__all__ = ["MAX_FACT_CHARS", "ExtractedFact", "FactKind", "check_messages"]

MAX_FACT_CHARS = 500
_ROLES = ("user", "assistant")


class FactKind(StrEnum):
    """What a fact is about."""

    PREFERENCE = "preference"
    IDENTITY = "identity"
    RELATION = "relation"
    LOCATION = "location"
    PLAN = "plan"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """A candidate fact: the statement, its kind, who said it, the index of its message and how sure we are."""

    text: str
    kind: FactKind
    speaker: str
    source_message: int
    confidence: float

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not 1 <= len(self.text.strip()) <= MAX_FACT_CHARS:
            raise ValidationError("text", f"must be 1 to {MAX_FACT_CHARS} characters", given=self.text)
        if not isinstance(self.kind, FactKind):
            raise ValidationError("kind", "must be a FactKind", given=self.kind)
        if isinstance(self.source_message, bool) or not isinstance(self.source_message, int) or self.source_message < 0:
            raise ValidationError("source_message", "must be a message index >= 0", given=self.source_message)
        if not isinstance(self.confidence, int | float) or not 0.0 <= self.confidence <= 1.0:
            raise ValidationError("confidence", "must be a number from 0 to 1", given=self.confidence)


def check_messages(messages: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The conversation as (role, text) pairs; ValidationError naming the first message that is not one."""
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise ValidationError("messages", "must be a sequence of (role, text) pairs", given=type(messages).__name__)
    for i, message in enumerate(messages):
        # Catches the easy mistake of (text, role): it would otherwise silently extract nothing.
        pair = isinstance(message, tuple | list) and len(message) == 2
        if not pair or message[0] not in _ROLES or not isinstance(message[1], str):
            raise ValidationError(
                f"messages[{i}]", "must be a (role, text) pair, role 'user' or 'assistant'", given=message
            )
    return [(str(role), text) for role, text in messages]
