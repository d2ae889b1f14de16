"""(internal) Retention: per-type default TTLs (applied at write time) and a sweep that deletes what expired or is over
a per-type limit, with its full-text and vector rows, then checks that the indexes still agree with the records.

Retention counts every record of the type in a (tenant, user), live or superseded: superseded facts are
history, and a limit that ignored them would let history grow without bound. Newest are kept (by
``valid_from``, then insertion order); records that expired are deleted first and do not count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from types import MappingProxyType

from tiermem.errors import ValidationError
from tiermem.lifecycle.erase import MENTION_REDACTED, drop_quotes
from tiermem.store.access_base import ANSWERS_KEPT
from tiermem.store.base import AuditEntry, Store, StoredItem, scope_writes
from tiermem.types import MemoryRecord, MemoryType, Scope
from tiermem.write.prepare import MAX_TTL

__all__ = [
    "KEEP_LAST_ENV",
    "TTL_ENV",
    "RetentionPolicy",
    "SweepReport",
    "parse_duration",
    "restart_expiry",
    "sweep",
]

TTL_ENV = "TIERMEM_TTL"
KEEP_LAST_ENV = "TIERMEM_KEEP_LAST"
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw]?)")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(text: str, field: str = "ttl") -> timedelta | None:
    """``30d``, ``12h``, ``90m``, ``45s``, ``2w`` or plain seconds; ``none`` means no limit."""
    value = text.strip().lower()
    if value in ("none", "off", ""):
        return None
    match = _DURATION.fullmatch(value)
    if match is None:
        raise ValidationError(field, "must be a number with an optional unit s, m, h, d or w (or 'none')", given=text)
    return timedelta(seconds=float(match[1]) * _UNIT[match[2]])


def _pairs(text: str, what: str) -> dict[MemoryType, str]:
    out: dict[MemoryType, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep:
            raise ValidationError(what, "each entry is TYPE=VALUE, e.g. episodic=30d", given=part)
        out[MemoryType.parse(name.strip())] = value.strip()
    return out


@dataclass(frozen=True, slots=True)
class RetentionPolicy:
    """Per memory type: the TTL a write gets when it names none, and how many records a (tenant, user) keeps."""

    default_ttl: Mapping[MemoryType, timedelta | None] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    keep_last: Mapping[MemoryType, int | None] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def __post_init__(self) -> None:
        ttls = {MemoryType.parse(k): v for k, v in self.default_ttl.items()}
        for type_, ttl in ttls.items():
            if ttl is not None and not (isinstance(ttl, timedelta) and timedelta(0) < ttl <= MAX_TTL):
                raise ValidationError(
                    f"default_ttl.{type_.value}", "must be a positive timedelta", given=ttl, limit=MAX_TTL
                )
        limits = {MemoryType.parse(k): v for k, v in self.keep_last.items()}
        for type_, n in limits.items():
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
                raise ValidationError(f"keep_last.{type_.value}", "must be an integer >= 1 (or None)", given=n)
        object.__setattr__(self, "default_ttl", MappingProxyType(ttls))
        object.__setattr__(self, "keep_last", MappingProxyType(limits))

    @classmethod
    def parse(
        cls, ttl: str = "", keep_last: str = "", *, names: tuple[str, str] = ("ttl", "keep_last")
    ) -> RetentionPolicy:
        """From ``episodic=30d,semantic=none`` and ``episodic=1000``; ``names`` label the two in errors."""
        ttl_name, keep_name = names
        limits: dict[MemoryType, int | None] = {}
        for type_, value in _pairs(keep_last, keep_name).items():
            if value.lower() in ("none", "off"):
                limits[type_] = None
            elif value.isdigit():
                limits[type_] = int(value)
            else:
                raise ValidationError(f"{keep_name}.{type_.value}", "must be a whole number or 'none'", given=value)
        pairs = _pairs(ttl, ttl_name).items()
        ttls = {type_: parse_duration(value, f"{ttl_name}.{type_.value}") for type_, value in pairs}
        return cls(MappingProxyType(ttls), MappingProxyType(limits))

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> RetentionPolicy:
        """From ``$TIERMEM_TTL`` and ``$TIERMEM_KEEP_LAST``."""
        names = (f"${TTL_ENV}", f"${KEEP_LAST_ENV}")
        return cls.parse(environ.get(TTL_ENV, ""), environ.get(KEEP_LAST_ENV, ""), names=names)


@dataclass(frozen=True, slots=True)
class SweepReport:
    """What a sweep deleted, row counts before and after, and whether the indexes agree with the records."""

    at: datetime
    expired: int
    over_limit: int
    before: Mapping[str, int] = field(hash=False)
    after: Mapping[str, int] = field(hash=False)
    fts_orphans: int  # full-text entries without their record
    vector_orphans: int  # vectors without their record
    scrubbed: bool  # the WAL was checkpointed and truncated

    @property
    def consistent(self) -> bool:
        """One full-text entry per record, and every vector belongs to a record."""
        return self.after["records_fts"] == self.after["records"] and self.fts_orphans == self.vector_orphans == 0


def sweep(
    store: Store,
    policy: RetentionPolicy,
    *,
    now: datetime,
    actor: str = "sweep",
    vacuum: bool = False,
    also: Callable[[Scope, list[MemoryRecord]], object] | None = None,
) -> SweepReport:
    """Delete expired records and records over ``policy.keep_last``, one transaction per (tenant, user), each
    holding off that user's writers while it decides and deletes (one user at a time, so it waits for no other);
    then the service's kept answers older than ``ANSWERS_KEPT`` of every user.

    ``also`` runs in each (tenant, user)'s transaction with the records deleted there (the context runtime's
    summaries drop what they quote of them).
    """
    before = store.row_counts()
    expired = over_limit = 0
    for scope in _scopes_with_work(store, policy, now):
        with scope_writes(store, scope):
            # Re-read inside: another writer may have changed the scope since (a refresh of an expiry).
            doomed = _expired(store, scope, now, actor) + _over_limit(store, scope, policy, now, actor)
            ids = [e.record_id for e in doomed]
            deleted = list(store.get_many(scope, ids).values())
            store.purge(scope, ids)
            drop_quotes(store, scope, deleted)
            if also is not None:
                also(scope, deleted)
            # Before appending: the new entries stay.
            store.redact_audit(scope, ids, detail="redacted by sweep", mention_detail=MENTION_REDACTED)
            store.append_audit(scope, doomed)
        expired += sum(e.op == "expire" for e in doomed)
        over_limit += sum(e.op == "retention" for e in doomed)
    # Kept answers live a day for every user, also one who never sends the keyed request that would expire them.
    store.drop_answers_before(now - ANSWERS_KEPT)
    # Always compacted: this also clears what earlier forgets left in the index and WAL.
    scrubbed = store.compact(full=vacuum)
    orphans = store.orphans()
    after = store.row_counts()
    return SweepReport(now, expired, over_limit, before, after, orphans.full_text, orphans.vectors, scrubbed)


def restart_expiry(store: Store, scope: Scope, ttls: Mapping[str, timedelta], *, now: datetime) -> list[MemoryRecord]:
    """Each live record named in ``ttls`` that has an expiry now expires its TTL after ``now``; the changed ones.

    Not audited: it changes no content, only when the record is deleted, and a store whose reads refresh TTLs
    (LangGraph's) would write an audit entry per read.
    """
    for record_id, ttl in ttls.items():
        if not isinstance(ttl, timedelta) or not timedelta(0) < ttl <= MAX_TTL:
            raise ValidationError("ttl", f"of {record_id} must be a positive timedelta", given=ttl, limit=MAX_TTL)
    with scope_writes(store, scope):
        found = store.get_many(scope, list(ttls))
        changed = [
            replace(r, expires_at=now + ttls[r.id])
            for r in found.values()
            if r.expires_at is not None and r.is_live(now)
        ]
        store.put_many([StoredItem(r, None, keep_vector=True) for r in changed])
    return changed


def _scopes_with_work(store: Store, policy: RetentionPolicy, now: datetime) -> list[Scope]:
    refs = store.expired_records(now)
    for type_, n in policy.keep_last.items():
        if n is not None:
            refs += store.over_limit_records(type_, n, now)
    return sorted({r.scope for r in refs}, key=lambda s: (s.tenant, s.user or ""))


def _expired(store: Store, scope: Scope, now: datetime, actor: str) -> list[AuditEntry]:
    """Audit entries (op ``expire``) for the scope's expired records."""
    refs = store.expired_records(now, scope)
    return [AuditEntry(r.id, now, actor, "expire", r.version, None, None, "expired") for r in refs]


def _over_limit(store: Store, scope: Scope, policy: RetentionPolicy, now: datetime, actor: str) -> list[AuditEntry]:
    """Audit entries (op ``retention``) for the scope's unexpired records beyond each type's newest N."""
    out: list[AuditEntry] = []
    for type_, n in policy.keep_last.items():
        if n is None:
            continue
        why = f"over the limit of the newest {n} {type_.value} records"
        refs = store.over_limit_records(type_, n, now, scope)
        out += [AuditEntry(r.id, now, actor, "retention", r.version, None, None, why) for r in refs]
    return out
