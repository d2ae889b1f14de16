"""The checks after a run, read from the database itself (SQL, not through tiermem), once every server has stopped.

- **Lost**: every acknowledged write is there: its exact text in its user's scope (a transcript's in its session),
  or, when the answer said the text was already stored or folded into a paraphrase, the record it named; a core
  block line appended once is in the block once; an edited record holds its last acknowledged text (or one sent
  after it whose answer never came).
- **Duplicated**: no two records of one user, agent, session and type have the same content hash. The harness
  never sends one text twice on purpose except to race it, so this is the write path's dedupe key: any such pair
  is a text stored twice.
- **Forked**: among a slot user's facts (``SLOT_PREFIX``) from sources of equal trust, at most one has
  ``valid_to IS NULL``. (A less trusted source does not retire a more trusted fact: an agent's fact written
  through MCP stays current beside the user's, by design; a newer fact of equal or more trust closes the older.)
- **Audit gaps**: PostgreSQL's sequences skip numbers when a transaction rolls back, so the log's ``seq`` is not
  expected to be contiguous. Instead: every stored record's entries, in ``seq`` order, are an ``add`` at version 1
  and then exactly one entry for each later version up to the record's version (1..n, none missing, none twice),
  and every ``add`` entry names a stored record (the log never says something was written that is not there).
  Erased users are left out: their records are gone and their entries redacted.
- **Erased**: a user erased through the inspector has no row in any table with ``tenant`` and ``user_key`` columns
  except the audit log, whose entries of that user hold no record text (``before`` and ``after`` are NULL), and
  SQLite's write counter (``GENERATIONS``), whose row must count no records.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

from chaoslib.ledger import EditedTo, Erased, Expectation, InBlock, Present, PresentId
from chaoslib.workload import SLOT_PREFIX, SLOTS, TENANT
from tiermem.store.postgres.connect import parse_url

AUDIT = "audit_log"
# SQLite's per-user write counter: an erase bumps it (so other processes' caches reload) and zeroes its record
# count; it holds no text, so an erased user's row is residue only while its count is not 0.
GENERATIONS = "scope_generations"
SHOWN = 5  # findings printed per kind


@dataclass(frozen=True, slots=True)
class Rec:
    id: str
    user: str
    agent: str
    session: str
    type: str
    content: str
    content_hash: str
    current: bool  # valid_to IS NULL
    version: int
    trust: float


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    user: str
    record_id: str
    op: str
    version: int
    redacted: bool  # before and after are NULL


@dataclass
class Snapshot:
    """What one store holds for the harness's tenant."""

    records: list[Rec]
    audit: list[Entry]
    blocks: dict[tuple[str, str, str], str]  # (user, agent, name) -> value
    left: dict[str, dict[str, int]]  # erased user -> table -> rows of that user


def _sqlite(path: str, erased: Sequence[str]) -> Snapshot:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return _read(lambda q, p=(): conn.execute(q, p).fetchall(), _sqlite_tables(conn), "?", erased)
    finally:
        conn.close()


def _sqlite_tables(conn: sqlite3.Connection) -> list[str]:
    names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [n for n in names if {"tenant", "user_key"} <= {c[1] for c in conn.execute(f"PRAGMA table_info('{n}')")}]


def _postgres(url: str, erased: Sequence[str]) -> Snapshot:
    target = parse_url(url)  # the libpq URL and the store's schema (``?schema=``)
    with psycopg.connect(target.conninfo, autocommit=True) as conn:  # the superuser: row security does not apply
        conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(target.schema)))
        tables = [
            t for (t,) in conn.execute(
                "SELECT table_name FROM information_schema.columns WHERE table_schema = %s"
                " AND column_name IN ('tenant', 'user_key') GROUP BY table_name HAVING count(*) = 2",
                [target.schema],
            ).fetchall()
        ]  # fmt: skip
        return _read(lambda q, p=(): conn.execute(q.encode(), p).fetchall(), tables, "%s", erased)


def _read(run: Any, tables: list[str], mark: str, erased: Sequence[str]) -> Snapshot:
    records = [
        Rec(str(i), u, a, s, t, c, h, bool(cur), int(v), float(trust))
        for i, u, a, s, t, c, h, cur, v, trust in run(
            "SELECT id, user_key, agent, session, type, content, content_hash, valid_to IS NULL, version, trust"
            f" FROM records WHERE tenant = {mark}",
            [TENANT],
        )
    ]
    audit = [
        Entry(int(q), u, r, o, int(v), bool(red))
        for q, u, r, o, v, red in run(
            "SELECT seq, user_key, record_id, op, version, before IS NULL AND after IS NULL"
            f" FROM audit_log WHERE tenant = {mark} ORDER BY seq",
            [TENANT],
        )
    ]
    blocks = {
        (u, a, n): v
        for u, a, n, v in run(f"SELECT user_key, agent, name, value FROM core_blocks WHERE tenant = {mark}", [TENANT])
    }
    left = {
        user: {table: int(run(_count(table, mark), [TENANT, user])[0][0]) for table in tables if table != AUDIT}
        for user in erased
    }
    return Snapshot(records, audit, blocks, left)


def _count(table: str, mark: str) -> str:
    """The query counting a user's rows in ``table`` (in the write counter: a row that still counts records)."""
    where = f"tenant = {mark} AND user_key = {mark}" + (" AND n <> 0" if table == GENERATIONS else "")
    return f"SELECT count(*) FROM {table} WHERE {where}"


def snapshot(store: str, where: str, erased: Sequence[str]) -> Snapshot:
    """Read a store: ``where`` is the SQLite file, or the PostgreSQL superuser's URL."""
    return _sqlite(where, erased) if store == "sqlite" else _postgres(where, erased)


@dataclass
class Findings:
    """What failed, by kind, with examples."""

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    checked: dict[str, int] = field(default_factory=dict)  # what was looked at: the checks' sample sizes

    def add(self, kind: str, example: str) -> None:
        self.counts[kind] += 1
        if len(self.examples[kind]) < SHOWN:
            self.examples[kind].append(example)


def check(store: str, snap: Snapshot, expectations: Iterable[Expectation]) -> Findings:
    """Every check of the module docstring on one store's snapshot."""
    found = Findings()
    mine = [e for e in expectations if e.store == store]
    erased = {e.user for e in mine if isinstance(e, Erased)}
    found.checked = {
        "promises": len({e for e in mine if not isinstance(e, Erased)}),  # distinct: a re-sent transcript repeats
        "records": len(snap.records),
        "audit entries": len(snap.audit),
        "slot facts": sum(r.user in SLOTS and r.content.startswith(SLOT_PREFIX) for r in snap.records),
        "erased users": len(erased),
    }
    _lost(snap, [e for e in mine if not isinstance(e, Erased)], found)
    _duplicates(snap, found)
    _forks(snap, found)
    _audit(snap, erased, found)
    _erased(snap, erased, found)
    return found


def _lost(snap: Snapshot, expectations: list[Expectation], found: Findings) -> None:
    texts = {(r.user, r.content) for r in snap.records}
    in_session = {(r.user, r.session, r.content) for r in snap.records}
    by_id = {r.id: r for r in snap.records}
    for e in expectations:
        if isinstance(e, Present):
            ok = (e.user, e.text) in texts if e.session is None else (e.user, e.session, e.text) in in_session
        elif isinstance(e, PresentId):
            ok = e.record_id in by_id and by_id[e.record_id].user == e.user
        elif isinstance(e, InBlock):
            ok = snap.blocks.get((e.user, e.agent, e.block), "").split("\n").count(e.line) == 1
        elif isinstance(e, EditedTo):
            rec = by_id.get(e.record_id)
            ok = rec is not None and rec.user == e.user and rec.content in e.texts
        else:
            continue
        if not ok:
            found.add("lost", repr(e))


def _duplicates(snap: Snapshot, found: Findings) -> None:
    groups = Counter((r.user, r.agent, r.session, r.type, r.content_hash) for r in snap.records)
    sample = {(r.user, r.agent, r.session, r.type, r.content_hash): r.content for r in snap.records}
    for key, n in groups.items():
        if n > 1:
            found.add("duplicated", f"{n}x in {key[:4]}: {sample[key][:80]!r}")


def _forks(snap: Snapshot, found: Findings) -> None:
    for user in SLOTS:
        facts = [r for r in snap.records if r.user == user and r.content.startswith(SLOT_PREFIX)]
        for trust in sorted({r.trust for r in facts}):
            current = [r.content for r in facts if r.current and r.trust == trust]
            if len(current) > 1:
                found.add("forked", f"{user}: {len(current)} current facts of trust {trust}: {current[:3]}")


def _audit(snap: Snapshot, erased: set[str], found: Findings) -> None:
    entries: dict[str, list[Entry]] = defaultdict(list)
    for entry in snap.audit:
        if entry.user not in erased:
            entries[entry.record_id].append(entry)
    stored = {r.id for r in snap.records}
    for rec in snap.records:
        if rec.user in erased:
            continue
        trail = entries.get(rec.id, [])
        versions = [e.version for e in trail]
        if not trail or trail[0].op != "add" or versions != list(range(1, rec.version + 1)):
            ops = [(e.op, e.version) for e in trail]
            found.add("audit gap", f"record {rec.id} of {rec.user} at version {rec.version}: entries {ops}")
    for record_id, trail in entries.items():
        if record_id not in stored and any(e.op == "add" and not e.redacted for e in trail):
            found.add("audit gap", f"an add entry names record {record_id}, which is not stored")


def _erased(snap: Snapshot, erased: set[str], found: Findings) -> None:
    for user in sorted(erased):
        for table, n in snap.left.get(user, {}).items():
            if n:
                found.add("erase residue", f"{user}: {n} rows in {table}")
        kept = [e for e in snap.audit if e.user == user and e.op != "erase" and not e.redacted]
        if kept:
            found.add("erase residue", f"{user}: {len(kept)} audit entries still hold record text")
