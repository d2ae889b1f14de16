"""The maintenance part of the Store protocol: erasure, retention, scrubbing and the rows of an export.

Lifecycle jobs (``lifecycle/erase.py``, ``retention.py``, ``export.py``) decide what goes, what is reported and
what is audited; a store carries that out on its own tables through these methods, so every backend implements
one protocol and passes one conformance suite (``tests/store_contract.py``).

Table names are the vocabulary of counts and export rows: ``records``, ``records_fts`` (a record's full-text
entry), ``vectors``, ``audit_log``, ``pending_writes``, ``core_blocks``, ``core_block_edits``,
``context_windows``; a backend names its own tables like that, or maps them onto those names.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Protocol

from tiermem.embed import Vectors
from tiermem.errors import ValidationError
from tiermem.types import MemoryRecord, MemoryType, Scope

__all__ = [
    "HELD_TABLES",
    "ROW_COUNTS",
    "ErasedScope",
    "FieldKind",
    "MaintenanceStore",
    "Orphans",
    "RecordRef",
    "RecordVectors",
    "RowField",
    "changed_contexts",
    "held_without_lines",
    "refuse_unknown_fields",
    "snapshots_without_lines",
    "without_lines",
]

# What ``row_counts`` counts, in this order.
ROW_COUNTS = ("records", "records_fts", "vectors", "audit_log")
# The tables a user's data is kept in beside records (what a migration copies besides records and their vectors).
HELD_TABLES = ("audit_log", "pending_writes", "core_blocks", "core_block_edits", "context_windows")
# A record's own vector and its passage vectors (None: it has none), as stored.
RecordVectors = dict[str, tuple[Vectors, Vectors | None]]


def without_lines(context: str | None, lines: Collection[str]) -> str | None:
    """``context`` without its lines that are in ``lines`` (None once nothing is left)."""
    if not context:
        return context
    kept = [line for line in context.split("\n") if line not in lines]
    return "\n".join(kept) or None


def changed_contexts(rows: Iterable[tuple[str, str]], lines: Collection[str]) -> dict[str, str | None]:
    """Of (record id, context) rows, the ids whose context holds one of ``lines``, with the context without them."""
    out: dict[str, str | None] = {}
    for record_id, context in rows:
        kept = without_lines(context, lines)
        if kept != context:
            out[record_id] = kept
    return out


def held_without_lines(rows: Iterable[tuple[str, dict[str, Any]]], lines: Collection[str]) -> dict[str, dict[str, Any]]:
    """Of (id, serialised record) rows of held writes, those whose context holds one of ``lines``, without them."""
    out: dict[str, dict[str, Any]] = {}
    for pending_id, record in rows:
        context = record.get("context")
        kept = without_lines(context, lines) if isinstance(context, str) else context
        if kept != context:
            out[pending_id] = {**record, "context": kept}
    return out


def snapshots_without_lines(
    before: dict[str, Any] | None, after: dict[str, Any] | None, lines: Collection[str]
) -> tuple[dict[str, Any] | None, dict[str, Any] | None] | None:
    """An audit entry's record snapshots with ``lines`` taken out of their ``context``; None when unchanged."""
    out: list[dict[str, Any] | None] = []
    for snapshot in (before, after):
        context = None if snapshot is None else snapshot.get("context")
        if isinstance(context, str) and snapshot is not None:
            snapshot = {**snapshot, "context": without_lines(context, lines)}
        out.append(snapshot)
    if out[0] == before and out[1] == after:
        return None
    return out[0], out[1]


def refuse_unknown_fields(where: str, row: Mapping[str, Any], known: Collection[str]) -> None:
    """ValidationError naming ``where`` when an imported row has a field not in ``known``."""
    unknown = sorted(set(row) - set(known))
    if unknown:
        raise ValidationError(where, f"has fields this store does not know: {', '.join(unknown)}")


class FieldKind(StrEnum):
    """How a field of an exported row is held: text, a number, a moment (aware datetime) or JSON data."""

    TEXT = "text"
    NUMBER = "number"
    TIME = "time"
    JSON = "json"


@dataclass(frozen=True, slots=True)
class RowField:
    """A field of an exported table: its name, its kind, and whether a restored row must give it."""

    name: str
    kind: FieldKind
    required: bool = False


@dataclass(frozen=True, slots=True)
class RecordRef:
    """A record named for deletion: its (tenant, user) scope, id and version."""

    scope: Scope
    id: str
    version: int


@dataclass(frozen=True, slots=True)
class ErasedScope:
    """Rows ``erase_scope`` removed per table (full-text entries as ``records_fts``) and audit entries redacted."""

    removed: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    audit_redacted: int = 0


@dataclass(frozen=True, slots=True)
class Orphans:
    """Index rows whose record is gone; a consistent store has none."""

    full_text: int
    vectors: int


class MaintenanceStore(Protocol):
    """Erase, retention, scrubbing and export rows; part of every Store."""

    def purge(self, scope: Scope, record_ids: Sequence[str]) -> int:
        """``delete``, leaving none of the records' content recoverable where the backend can (SQLite: zeroed)."""
        ...

    def redact_audit(self, scope: Scope, record_ids: Sequence[str], *, detail: str, mention_detail: str) -> int:
        """Strip these records' audit entries of their content; returns how many.

        An entry keeps that something happened: ``before`` and ``after`` become None, its detail becomes
        ``detail`` and its actor keeps only its kind (``tool``, not ``tool:<name>``: a name or URL may be personal
        data). The scope's supersession entries (op ``supersede``) whose detail ends with one of these ids (the
        write path names the newer record last, and its reason may quote it) get ``mention_detail`` as detail.
        """
        ...

    def drop_context_lines(self, scope: Scope, lines: Collection[str]) -> int:
        """Take these whole lines out of the search context of the scope's records; how many records changed.

        A record written after another may carry the end of that one's text as context (``write/neighbours.py``);
        when that one is deleted, its words must go from the others too. A changed record is re-indexed (its
        context None once empty) and keeps its version; the copies of its context in its audit entries change
        alike. Nothing of the removed lines stays recoverable where the backend can. Joins the caller's
        transaction.
        """
        ...

    def drop_held_context_lines(self, scope: Scope, lines: Collection[str]) -> int:
        """Take these whole lines out of the context of the scope's writes held for approval; how many changed.

        A held write's serialised record carries the context it was given (a note following the deleted one);
        approving it later would store those words again. Nothing of the removed lines stays recoverable where
        the backend can. Joins the caller's transaction.
        """
        ...

    def drop_answers(self, scope: Scope, needles: Collection[bytes]) -> int:
        """Delete the service's kept ``Idempotency-Key`` answers of the scope's (tenant, user) whose body holds one
        of ``needles``; how many.

        A kept answer may quote a record (a write's answer, a search's hits): when the record is deleted, a retry
        must not replay its words, so that answer goes and a retry runs again. Nothing of the deleted answers stays
        recoverable where the backend can. Joins the caller's transaction.
        """
        ...

    def drop_answers_before(self, before: datetime) -> int:
        """Delete every kept ``Idempotency-Key`` answer (or claim) made before ``before``, of every tenant and user;
        how many. Nothing of them stays recoverable where the backend can."""
        ...

    def erase_scope(
        self, tenant: str, user: str | None, *, audit_detail: str, keep_ops: Collection[str] = ()
    ) -> ErasedScope:
        """Delete every row of a user (``user`` None: of the whole tenant, its shared memory included).

        Every table but the audit log is emptied of that scope, leaving nothing recoverable where the backend
        can; its audit entries are redacted as ``redact_audit`` does with ``audit_detail`` (entries whose op is in
        ``keep_ops`` are left as they are); anything cached about it is dropped. Joins the caller's transaction.
        """
        ...

    def compact(self, *, full: bool) -> bool:
        """Remove what deleted rows left in storage (index segments, write-ahead log); ``full`` also rebuilds the
        full-text index and rewrites the storage. True when done; False when another connection kept part of it
        (run again later). A ``full`` compaction inside a transaction raises StoreError."""
        ...

    def residue(self, needles: Sequence[bytes]) -> list[bytes] | None:
        """Which of ``needles`` still occur anywhere in the store's own files, read without opening them in this
        process; None where the store has no files a client can read (a server database, ``:memory:``)."""
        ...

    def expired_records(self, now: datetime, scope: Scope | None = None) -> list[RecordRef]:
        """Records with ``expires_at <= now`` in the scope's (tenant, user), or in the whole store."""
        ...

    def over_limit_records(
        self, type_: MemoryType, keep_last: int, now: datetime, scope: Scope | None = None
    ) -> list[RecordRef]:
        """Unexpired records of ``type_`` beyond the newest ``keep_last`` of each (tenant, user), live or superseded
        alike; newest by ``valid_from``, then by order of insertion. In the scope's (tenant, user) or everywhere."""
        ...

    def row_counts(self) -> Mapping[str, int]:
        """Rows in the whole store, for each name of ``ROW_COUNTS``."""
        ...

    def orphans(self) -> Orphans:
        """Full-text entries and vectors without their record."""
        ...

    def held_rows(self, scope: Scope) -> Mapping[str, int]:
        """Rows the scope's (tenant, user) holds per table (full-text entries as ``records_fts``), audit log aside."""
        ...

    def held_scopes(self) -> list[Scope]:
        """Every (tenant, user) holding a row in ``records`` or a table of ``HELD_TABLES``, sorted."""
        ...

    def stored_vectors(self, scope: Scope, ids: Sequence[str]) -> RecordVectors:
        """The vectors of these records of the scope's (tenant, user) exactly as stored; a record without one
        (or not there) is left out."""
        ...

    def scope_records(self, scope: Scope) -> list[MemoryRecord]:
        """Every record of the scope's (tenant, user), live, expired or superseded; agent and session ignored."""
        ...

    def row_fields(self, table: str) -> tuple[RowField, ...]:
        """The fields of a scoped table that export and import carry: not the scope, not store-assigned keys."""
        ...

    def export_rows(self, scope: Scope, table: str) -> list[dict[str, Any]]:
        """The table's rows of the scope's (tenant, user) by ``row_fields``, in a stable order (primary key);
        TIME fields as aware datetimes, JSON fields decoded."""
        ...

    def import_rows(self, scope: Scope, table: str, rows: Sequence[Mapping[str, Any]]) -> int:
        """Insert rows shaped as ``export_rows`` gives them into the scope's (tenant, user), in the caller's
        transaction; ConflictError naming the row when it clashes with a stored one."""
        ...
