"""Retention: per-type default TTLs (applied at write time) and a sweep that deletes what expired or is over
a per-type limit, with its full-text and vector rows, then checks that the indexes still agree with the records.

Retention counts every record of the type in a (tenant, user), live or superseded: superseded facts are
history, and a limit that ignored them would let history grow without bound. Newest are kept (by
``valid_from``, then insertion order); records that expired are deleted first and do not count.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType

from tiermem.errors import ValidationError
from tiermem.lifecycle.erase import redact_audit, require_sqlite, run_sql, scrub, secure_delete
from tiermem.store.base import AuditEntry, Store
from tiermem.store.sqlite import SQLiteStore
from tiermem.types import MemoryType, Scope
from tiermem.write.path import MAX_TTL

__all__ = ["KEEP_LAST_ENV", "TTL_ENV", "RetentionPolicy", "SweepReport", "parse_duration", "sweep"]

TTL_ENV = "TIERMEM_TTL"
KEEP_LAST_ENV = "TIERMEM_KEEP_LAST"
COUNTED = ("records", "records_fts", "vectors", "audit_log")
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
    store: Store, policy: RetentionPolicy, *, now: datetime, actor: str = "sweep", vacuum: bool = False
) -> SweepReport:
    """Delete expired records and records over ``policy.keep_last``, one transaction per (tenant, user)."""
    sqlite = require_sqlite(store)
    at = now.timestamp()
    before = _counts(sqlite)
    expired = over_limit = 0
    with secure_delete(sqlite):
        for tenant, user_key in _scopes_with_work(sqlite, policy, at):
            scope = Scope(tenant, user_key or None)
            with sqlite.transaction():
                doomed = _expired(sqlite, scope, now, actor) + _over_limit(sqlite, scope, policy, now, actor)
                ids = [e.record_id for e in doomed]
                sqlite.delete(scope, ids)
                redact_audit(sqlite, scope, ids, "redacted by sweep")  # before appending: the new entries stay
                sqlite.append_audit(scope, doomed)
            expired += sum(e.op == "expire" for e in doomed)
            over_limit += sum(e.op == "retention" for e in doomed)
        # Always merged and checkpointed: this also clears what earlier forgets left in the index and WAL.
        scrubbed = scrub(sqlite, full=vacuum)
    fts_orphans, vector_orphans = _orphans(sqlite)
    return SweepReport(now, expired, over_limit, before, _counts(sqlite), fts_orphans, vector_orphans, scrubbed)


def _scopes_with_work(store: SQLiteStore, policy: RetentionPolicy, at: float) -> list[tuple[str, str]]:
    expiring = "SELECT DISTINCT tenant, user_key FROM records WHERE expires_at <= ?"
    keys = {(t, u) for t, u in run_sql(store, expiring, [at])}
    for type_, n in policy.keep_last.items():
        if n is not None:
            rows = run_sql(
                store,
                "SELECT tenant, user_key FROM records WHERE type = ? AND (expires_at IS NULL OR expires_at > ?)"
                " GROUP BY tenant, user_key HAVING COUNT(*) > ?",
                [type_.value, at, n],
            )
            keys.update((t, u) for t, u in rows)
    return sorted(keys)


def _expired(store: SQLiteStore, scope: Scope, now: datetime, actor: str) -> list[AuditEntry]:
    """Audit entries (op ``expire``) for the scope's expired records, re-read inside the transaction."""
    rows = run_sql(
        store,
        "SELECT id, version FROM records WHERE tenant = ? AND user_key = ? AND expires_at <= ?",
        [scope.tenant, scope.user or "", now.timestamp()],
    )
    return [AuditEntry(rid, now, actor, "expire", version, None, None, "expired") for rid, version in rows]


def _over_limit(
    store: SQLiteStore, scope: Scope, policy: RetentionPolicy, now: datetime, actor: str
) -> list[AuditEntry]:
    """Audit entries (op ``retention``) for the scope's unexpired records beyond each type's newest N."""
    out: list[AuditEntry] = []
    for type_, n in policy.keep_last.items():
        if n is None:
            continue
        rows = run_sql(
            store,
            "SELECT id, version FROM (SELECT id, version, ROW_NUMBER() OVER (ORDER BY valid_from DESC, rowid DESC)"
            " AS rank FROM records WHERE tenant = ? AND user_key = ? AND type = ?"
            " AND (expires_at IS NULL OR expires_at > ?)) WHERE rank > ?",
            [scope.tenant, scope.user or "", type_.value, now.timestamp(), n],
        )
        why = f"over the limit of the newest {n} {type_.value} records"
        out += [AuditEntry(rid, now, actor, "retention", version, None, None, why) for rid, version in rows]
    return out


def _counts(store: SQLiteStore) -> Mapping[str, int]:
    # records_fts itself reads through to the content table; its docsize table has one row per indexed record.
    sources = {"records_fts": "records_fts_docsize"}
    return MappingProxyType(
        {name: int(run_sql(store, f"SELECT COUNT(*) FROM {sources.get(name, name)}")[0][0]) for name in COUNTED}
    )


def _orphans(store: SQLiteStore) -> tuple[int, int]:
    (fts,) = run_sql(store, "SELECT COUNT(*) FROM records_fts_docsize WHERE id NOT IN (SELECT rowid FROM records)")[0]
    (vec,) = run_sql(store, "SELECT COUNT(*) FROM vectors WHERE record_rowid NOT IN (SELECT rowid FROM records)")[0]
    return int(fts), int(vec)
