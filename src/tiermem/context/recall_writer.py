"""(internal) Where a context window writes and searches its messages: ``RecallWriter``, and ``StoreRecall``.

``tiermem.context.window`` re-exports both, and users import them from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from tiermem.context.messages import Message
from tiermem.embed import Embedder
from tiermem.recall.search import RecallPolicy, hybrid_recall
from tiermem.store.base import Store
from tiermem.types import Filter, Hit, Scope, utcnow
from tiermem.write.conversation import write_messages
from tiermem.write.path import NewMemory, WriteResult, write_many

__all__ = ["RecallWriter", "StoreRecall"]


class RecallWriter(Protocol):
    """Writes and searches records; ``tiermem.memory.Memory`` is one, ``StoreRecall`` another."""

    def remember_many(self, scope: Scope, items: Iterable[NewMemory]) -> list[WriteResult]: ...

    def remember_messages(
        self, scope: Scope, messages: Sequence[Message], *, session: str | None = None
    ) -> list[WriteResult]: ...

    def recall(self, scope: Scope, query: str, *, k: int = 10, filter: Filter | None = None) -> list[Hit]: ...


class StoreRecall:
    """A RecallWriter straight on a store and an embedder, for use without the Memory facade."""

    def __init__(self, store: Store, embedder: Embedder | None, policy: RecallPolicy | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.policy = policy or RecallPolicy()

    def remember_many(self, scope: Scope, items: Iterable[NewMemory]) -> list[WriteResult]:
        """Write through the normal write path."""
        return write_many(self.store, self.embedder, scope, list(items), utcnow())

    def remember_messages(
        self, scope: Scope, messages: Sequence[Message], *, session: str | None = None
    ) -> list[WriteResult]:
        """Write conversation messages through the conversation path (``write.conversation``)."""
        return write_messages(self.store, self.embedder, scope, messages, now=utcnow(), session=session)

    def recall(self, scope: Scope, query: str, *, k: int = 10, filter: Filter | None = None) -> list[Hit]:
        """Hybrid recall with this object's policy."""
        return hybrid_recall(
            self.store, self.embedder, scope, query, k=k, filter_=filter or Filter(), now=utcnow(), policy=self.policy
        )
