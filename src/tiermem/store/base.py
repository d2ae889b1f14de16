"""The Store protocol every backend implements; stores return candidates, ranking lives in retrieval."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from tiermem.embed import Vectors
from tiermem.errors import ConflictError, EmbeddingMismatchError, NotFoundError
from tiermem.store.maintenance_base import MaintenanceStore, RecordRef
from tiermem.store.summary_base import SummaryStore
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope

__all__ = [
    "AuditEntry",
    "Candidate",
    "Page",
    "PendingWrite",
    "PreparedVectorScan",
    "Store",
    "StoredItem",
    "TermStatistics",
    "same_vectors",
    "scope_writes",
    "stored_record",
    "tenant_writes",
    "unchanged_since",
]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A record id proposed by one retrieval signal, with that signal's raw score (higher is better)."""

    id: str
    score: float


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a listing and the cursor for the next (None at the end)."""

    records: tuple[MemoryRecord, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class StoredItem:
    """A record, its vector (None: no embedding), its passages' vectors; ``keep_vector`` keeps the stored ones."""

    record: MemoryRecord
    vector: Vectors | None
    keep_vector: bool = False
    passages: Vectors | None = None

    @property
    def vector_kind(self) -> tuple[str, int]:
        """The model and dimension of the item's vector; a vector without its model's fingerprint is refused."""
        rec = self.record
        if rec.embedding_model is None or self.vector is None:
            raise EmbeddingMismatchError(f"record {rec.id} has a vector but no embedding_model fingerprint")
        return rec.embedding_model, int(self.vector.shape[-1])


def same_vectors(record: MemoryRecord, held: tuple[str, int], given: tuple[str, int]) -> None:
    """Refuse a vector of another model or dimension (``given``) than the record's scope holds (``held``)."""
    if held != given:
        raise EmbeddingMismatchError(
            f"scope {record.scope.tenant}/{record.scope.user or ''} holds {held[1]}-d vectors of "
            f"'{held[0]}'; refusing a {given[1]}-d vector of '{given[0]}' (re-embed the scope to switch)"
        )


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One recorded change to a record: who, when, what, and the record before and after (None if redacted)."""

    record_id: str
    at: datetime
    actor: str
    op: str
    version: int
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    detail: str = ""
    seq: int = 0


@dataclass(frozen=True, slots=True)
class PendingWrite:
    """A write held for approval, with the record it would store."""

    id: str
    created_at: datetime
    record: dict[str, Any]
    reason: str


class Store(MaintenanceStore, SummaryStore, Protocol):
    """Scoped persistence. Every read and write is confined to the scope passed in, inside the query.

    Scope matching: tenant and user match exactly (user None = the tenant's shared memory); agent and
    session match exactly when given and match any value when None. The maintenance methods (erase, retention,
    scrubbing, export rows) are in ``MaintenanceStore``, the aggregates (sessions, counts) in ``SummaryStore``.
    """

    def put_many(self, items: Sequence[StoredItem]) -> None:
        """Insert or replace records (by id) with their vectors, in one transaction."""
        ...

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        """The record with this id in this scope, or None (also for another scope's id)."""
        ...

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The records with these ids that exist in this scope."""
        ...

    def find_by_hash(
        self, scope: Scope, type_: MemoryType, hashes: Sequence[str], *, now: datetime
    ) -> dict[str, MemoryRecord]:
        """Current records (not closed, unexpired at ``now``) in this exact scope and type, by content hash."""
        ...

    def list_records(
        self,
        scope: Scope,
        filter_: Filter,
        *,
        now: datetime,
        limit: int,
        cursor: str | None,
        without_tags: frozenset[str] = frozenset(),
    ) -> Page:
        """Records newest first, filtered like recall, with cursor pagination; none with a tag in ``without_tags``."""
        ...

    def delete(self, scope: Scope, record_ids: Sequence[str]) -> int:
        """Delete these records (and their index and vector rows); returns how many existed."""
        ...

    def keyword_candidates(
        self, scope: Scope, terms: Sequence[str], filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        """Full-text (BM25) candidates for any of ``terms`` (a term of several words is a phrase), best first."""
        ...

    def vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[Candidate]:
        """Nearest records by cosine among vectors of ``fingerprint``, best first (a record's best passage counts)."""
        ...

    def start_vector_candidates(
        self, scope: Scope, vector: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> Future[list[Candidate]]:
        """``vector_candidates``, which a backend may compute while the caller goes on (with a keyword query)."""
        ...

    def vector_candidates_many(
        self, scope: Scope, vectors: Vectors, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> list[list[Candidate]]:
        """For each row of ``vectors``, the nearest records by their own vectors only (never one sentence)."""
        ...

    def append_audit(self, scope: Scope, entries: Sequence[AuditEntry]) -> None:
        """Append to the audit log (inside the caller's transaction)."""
        ...

    def audit(self, scope: Scope, record_id: str | None = None, *, limit: int = 1000) -> list[AuditEntry]:
        """Audit entries of the scope (or of one record), oldest first."""
        ...

    def put_pending(self, scope: Scope, pending: PendingWrite) -> None:
        """Hold a write for approval."""
        ...

    def list_pending(self, scope: Scope) -> list[PendingWrite]:
        """Writes waiting for approval in this scope."""
        ...

    def take_pending(self, scope: Scope, pending_id: str) -> PendingWrite | None:
        """Remove and return a held write (None if it is not in this scope)."""
        ...

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        """The stored vectors of these records (records without one are left out)."""
        ...

    def successors(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, list[MemoryRecord]]:
        """For each of ``record_ids`` that has any, the records naming it in ``supersedes``, oldest first."""
        ...

    def write_places(self, scope: Scope, record_ids: Sequence[str], window: int) -> dict[str, int]:
        """Each of ``record_ids`` in ``scope`` at its place in its user's write order: every record of the user
        written in between counts one, whatever its agent or session, and two places up to ``window`` apart are
        exactly that far apart (further ones are only known to be further)."""
        ...

    def unindexed(self, *, limit: int = 1000) -> list[RecordRef]:
        """Records stored with an embedding fingerprint but no vector yet (write-behind's queue), oldest first,
        across every tenant: each named with its (tenant, user) scope, so reading it back stays scoped."""
        ...

    def vector_fingerprint(self, scope: Scope) -> str | None:
        """The embedding fingerprint this scope's vectors use, or None if it holds none."""
        ...

    def count(self, scope: Scope | None = None) -> int:
        """Rows in this scope (or in the whole store)."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """Group several writes atomically; nested calls join the outer transaction."""
        ...

    def pinned(self, scope: Scope) -> AbstractContextManager[None]:
        """Within, this thread's reads of the scope's (tenant, user) may trust one read of its state (a recall's)."""
        ...

    def serialise(self, scope: Scope, *, whole_tenant: bool = False) -> None:
        """Inside the caller's transaction, wait until no other transaction writes the scope's (tenant, user),
        and keep them waiting until this one ends: what it reads then is what is stored, in every process.

        With ``whole_tenant``, the same for every user of the scope's tenant, those it does not hold yet too."""
        ...

    def iter_scopes(self) -> Iterator[Scope]:
        """Every (tenant, user) that holds records."""
        ...

    def schema_version(self) -> int:
        """The highest migration applied to the database."""
        ...

    def stored_bytes(self) -> int | None:
        """Bytes the database takes (a file with its log, a schema's tables); None when it has no size (memory)."""
        ...

    @property
    def rls_bypass(self) -> str | None:
        """Why row-level security does not bind this store's database role (a superuser, the tables' owner), or
        None: it does, or the database has no roles (a file)."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


@runtime_checkable
class PreparedVectorScan(Protocol):
    """An optional capability: a vector search's reads of the store made before its vector is known."""

    def prepare_vector_candidates(
        self, scope: Scope, fingerprint: str, filter_: Filter, *, now: datetime, limit: int
    ) -> Callable[[Vectors], list[Candidate]]:
        """``vector_candidates`` in two steps: what it reads of the store now (in the caller's thread), and the
        returned scan of a vector, which reads nothing more of the store."""
        ...


@runtime_checkable
class TermStatistics(Protocol):
    """An optional capability: how common query words are in a scope (recall weighs matched words by rarity)."""

    def term_document_counts(self, scope: Scope, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The scope's record count and, per term (as ``recall.search.query_terms`` gives it), the records
        whose content holds it as the keyword index matches it."""
        ...


@contextmanager
def scope_writes(store: Store, *scopes: Scope) -> Iterator[None]:
    """A transaction in which no other writer touches these scopes' users (``Store.serialise``, in a fixed order
    so that two such transactions never wait for each other)."""
    with store.transaction():
        for scope in sorted(set(scopes), key=lambda s: (s.tenant, s.user or "")):
            store.serialise(scope)
        yield


@contextmanager
def tenant_writes(store: Store, tenant: str) -> Iterator[None]:
    """A transaction in which no other writer touches any user of ``tenant`` (an erase of the whole tenant)."""
    with store.transaction():
        store.serialise(Scope(tenant, None), whole_tenant=True)
        yield


def stored_record(store: Store, scope: Scope, record_id: str) -> MemoryRecord:
    """The record with this id in this scope; NotFoundError otherwise (also for another scope's id)."""
    record = store.get(scope, record_id)
    if record is None:
        raise NotFoundError(f"no record {record_id} in scope {scope}")
    return record


def unchanged_since(store: Store, scope: Scope, read: MemoryRecord) -> None:
    """ConflictError unless the record is still stored as ``read`` was (call it inside ``scope_writes``)."""
    now = store.get(scope, read.id)
    if now is None or now.version != read.version:
        stored = "gone" if now is None else f"at version {now.version}"
        raise ConflictError(
            f"record {read.id} changed while this edit was prepared (read at version {read.version}, now {stored});"
            " reload it and retry"
        )
