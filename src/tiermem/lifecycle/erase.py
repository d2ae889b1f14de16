"""(internal) Forget one record, erase a user or a tenant, and compact the store so deleted text is really gone.

Deleting a row is not always enough to remove its text from storage: a database file keeps freed pages, logs
keep earlier page images, a full-text index keeps tokens in older segments, the audit log keeps every version
of a record, the records (or writes held for approval) written after it may carry the end of its text as search
context, and the service's answers kept for retries may quote it. So these jobs delete through the store's
``purge`` and ``erase_scope`` (which leave nothing recoverable where the backend can), take the deleted text out
of the others' context and drop the kept answers that quote it (``drop_quotes``), redact the audit entries of
what they deleted (the fact that something happened stays, its content goes), and ``compact`` the store
afterwards. How a backend does that is its own business; the store's ``residue`` (or
``tiermem.store.databases.database_files_holding`` for a database named by URL) checks its files' bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType

from tiermem.store.base import AuditEntry, Store, scope_writes, stored_record, tenant_writes
from tiermem.types import MemoryRecord, Scope
from tiermem.write.neighbours import quoted_lines

__all__ = ["ERASE_KEEPS", "MENTION_REDACTED", "EraseReport", "answer_needles", "drop_quotes", "erase", "forget"]

# The detail a superseded record's audit entry gets when the record that superseded it is deleted: the
# supersession's reason may quote the newer record's values ("new value: 555-0199").
MENTION_REDACTED = "superseded by a record since deleted"
# Audit entries an erase leaves as they are: earlier erases, which hold only counts.
ERASE_KEEPS = frozenset({"erase"})


@dataclass(frozen=True, slots=True)
class EraseReport:
    """What an erase removed, per table, and whether the file was scrubbed."""

    tenant: str
    user: str | None  # None: the whole tenant (every user and the shared memory)
    removed: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    audit_redacted: int = 0
    scrubbed: bool = False  # False: another connection kept the WAL from being truncated; run erase again


def drop_quotes(store: Store, scope: Scope, deleted: Iterable[MemoryRecord]) -> int:
    """Take what other records and held writes of ``scope`` quote of ``deleted`` out of their search context, and
    drop the service's kept answers of the scope's (tenant, user) that quote them; how many changed."""
    records = list(deleted)
    lines: set[str] = set()
    for record in records:
        lines |= quoted_lines(record.content)
    changed = store.drop_answers(scope, answer_needles(records, lines))
    if not lines:
        return changed
    return changed + store.drop_context_lines(scope, lines) + store.drop_held_context_lines(scope, lines)


def answer_needles(records: Iterable[MemoryRecord], lines: Iterable[str] = ()) -> set[bytes]:
    """What a kept answer that quotes one of ``records`` holds of it: its id, its text and the ``lines`` other
    records quote of it, each as it is and as JSON writes it inside a string (escaped, or ASCII only)."""
    texts = set(lines)
    for record in records:
        texts |= {record.id, record.content}
    out: set[bytes] = set()
    for text in filter(None, texts):
        out |= {text.encode(), json.dumps(text)[1:-1].encode(), json.dumps(text, ensure_ascii=False)[1:-1].encode()}
    return out


def forget(
    store: Store,
    scope: Scope,
    record_id: str,
    *,
    now: datetime,
    actor: str = "user",
    scrub_file: bool = False,
    also: Callable[[Scope, list[MemoryRecord]], object] | None = None,
) -> MemoryRecord:
    """Delete one record with its index and vector rows and redact its audit trail; the record deleted.

    NotFoundError if absent. ``also`` runs in the deletion's transaction with the record's scope and the record
    (as sweep's does: the context runtime's summaries drop what they quote of it).

    The freed bytes are zeroed at once; the full-text index and the WAL keep traces until the next sweep or
    erase compacts the store, or at once with ``scrub_file``.
    """
    # Serialised with the user's other writes: one that read the record before this deletes it must not write it
    # back after (a release, a supersession, a refresh), and one after it finds it gone.
    with scope_writes(store, scope):
        record = stored_record(store, scope, record_id)
        store.purge(scope, [record_id])
        drop_quotes(store, record.scope, [record])
        store.redact_audit(scope, [record_id], detail="redacted by forget", mention_detail=MENTION_REDACTED)
        entry = AuditEntry(record_id, now, actor, "forget", record.version, None, None, "")
        store.append_audit(record.scope, [entry])
        if also is not None:
            also(record.scope, [record])
    if scrub_file:
        store.compact(full=False)
    return record


def erase(store: Store, tenant: str, user: str | None = None, *, now: datetime, actor: str = "system") -> EraseReport:
    """Remove every trace of a user (or, with ``user`` None, of the whole tenant) and compact the store."""
    scope = Scope(tenant, user)  # validates the names before anything is touched
    # Every writer of the user (or of any user of the tenant) waits: none commits between the tables' deletes.
    with scope_writes(store, scope) if user is not None else tenant_writes(store, tenant):
        erased = store.erase_scope(tenant, user, audit_detail="redacted by erase", keep_ops=ERASE_KEEPS)
        whom = "the whole tenant" if user is None else "one user"
        counts = ", ".join(f"{t} {n}" for t, n in erased.removed.items() if n) or "nothing"
        store.append_audit(scope, [AuditEntry("", now, actor, "erase", 0, None, None, f"{whom}: {counts}")])
    scrubbed = store.compact(full=True)
    return EraseReport(tenant, user, MappingProxyType(dict(erased.removed)), erased.audit_redacted, scrubbed)
