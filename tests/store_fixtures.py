"""What the store conformance suites share: sample scopes and records, and the fixture a backend supplies."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from tiermem.embed import HashingEmbedder
from tiermem.store import Store, StoredItem
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope, Source, content_hash, new_id

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
ANY = Filter()
EMB = HashingEmbedder(dim=64)
ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
OTHER_TENANT_ALICE = Scope("globex", "alice")


def make_record(scope: Scope, text: str, **changes: object) -> MemoryRecord:
    record = MemoryRecord(
        id=new_id(),
        scope=scope,
        type=MemoryType.SEMANTIC,
        content=text,
        source=Source.parse("user"),
        trust=0.9,
        created_at=NOW,
        valid_from=NOW - timedelta(days=1),
        content_hash=content_hash(text),
        embedding_model=EMB.fingerprint,
    )
    return replace(record, **changes)  # type: ignore[arg-type]


def item(record: MemoryRecord) -> StoredItem:
    return StoredItem(record, EMB.embed_batch([record.content])[0])


def ids(cands: list[object]) -> list[str]:
    return [c.id for c in cands]  # type: ignore[attr-defined]


class StoreFixture:
    """A fresh store per test from ``make_store`` (the one thing a backend supplies), and helpers on it."""

    @pytest.fixture
    def store(self) -> Iterator[Store]:
        store = self.make_store()
        yield store
        store.close()

    def make_store(self) -> Store:
        raise NotImplementedError

    def put(self, store: Store, *records: MemoryRecord) -> None:
        store.put_many([item(r) for r in records])

    def keyword(self, store: Store, scope: Scope, *terms: str, f: Filter = ANY) -> list[str]:
        return ids(store.keyword_candidates(scope, list(terms), f, now=NOW, limit=50))

    def vector(self, store: Store, scope: Scope, text: str, f: Filter = ANY) -> list[str]:
        q = EMB.embed_batch([text])[0]
        return ids(store.vector_candidates(scope, q, EMB.fingerprint, f, now=NOW, limit=50))

    @pytest.fixture
    def empty_store(self) -> Iterator[Store]:
        """A second store of the same backend, empty: the target of an export's import."""
        store = self.make_store()
        yield store
        store.close()
