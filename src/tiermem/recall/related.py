"""What memory holds around one named person, place or thing, and how those records connect; no model is asked.

The records naming the entity are found by the store's full-text index (the same words recall asks with) and
kept only when their text names it as a whole word ("Ann" is not in "Annual"): the index stems words and also
reads a record's search context, neither of which names anything. Around them come the records of the same
session and of the same day (by ``valid_from``, the time a record is about), and the versions a naming record
supersedes or is superseded by. Neighbours are the other names (``english.names.name_phrases``) the naming
records hold, counted by record. As in recall, notes quarantined at write time are never returned, expired ones
neither; a naming record whose validity a newer one closed is returned with its successor, which is the point of
showing supersession.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from typing import Any

from tiermem.english.names import name_phrases
from tiermem.errors import ValidationError
from tiermem.recall.traits import verdict
from tiermem.store.base import Store
from tiermem.text_index import fold, is_cjk, query_words
from tiermem.trust.injection import ScanLevel
from tiermem.types import Filter, MemoryRecord, Scope, including_closed

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_ENTITY_CHARS",
    "MAX_LIMIT",
    "Connection",
    "Link",
    "Neighbour",
    "Related",
    "RelatedRecord",
    "check_related",
    "related",
]

DEFAULT_LIMIT = 20
MAX_LIMIT = 200
MAX_ENTITY_CHARS = 200
_POOL = 4  # naming candidates asked of the index per record returned: some fail the whole-word check


class Connection(StrEnum):
    """How a record connects to the entity."""

    MENTIONS = "mentions"  # its text names the entity
    SAME_SESSION = "same_session"  # it shares a session with a naming record
    SAME_DAY = "same_day"  # its valid_from is on the same UTC day as a naming record's
    SUPERSEDES = "supersedes"  # it is the newer version of a naming record
    SUPERSEDED_BY = "superseded_by"  # it is the older version a naming record replaced


Add = Callable[[Iterable[MemoryRecord], Connection, str], None]  # (records, how, via): keep them with a link


@dataclass(frozen=True, slots=True)
class Link:
    """One connection of a record: how, and through which naming record (None when it names the entity itself)."""

    how: Connection
    via: str | None = None


@dataclass(frozen=True, slots=True)
class RelatedRecord:
    """A record around the entity: what it says, its kind, session and times, and every way it connects."""

    id: str
    text: str
    kind: str
    session: str | None
    created_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    links: tuple[Link, ...]


@dataclass(frozen=True, slots=True)
class Neighbour:
    """Another name the entity's records hold: how many of them, and which."""

    name: str
    count: int
    record_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Related:
    """What memory knows around ``entity``: naming records first (newest first), then the connected ones."""

    entity: str
    records: tuple[RelatedRecord, ...]
    neighbours: tuple[Neighbour, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON data (times as ISO 8601 strings)."""
        return {
            "entity": self.entity,
            "records": [
                {
                    "id": r.id,
                    "text": r.text,
                    "kind": r.kind,
                    "session": r.session,
                    "created_at": r.created_at.isoformat(),
                    "valid_from": r.valid_from.isoformat(),
                    "valid_to": None if r.valid_to is None else r.valid_to.isoformat(),
                    "links": [{"how": link.how.value, "via": link.via} for link in r.links],
                }
                for r in self.records
            ],
            "neighbours": [
                {"name": n.name, "count": n.count, "record_ids": list(n.record_ids)} for n in self.neighbours
            ],
        }


def check_related(entity: object, limit: object) -> str:
    """The entity stripped; ValidationError naming the field unless it has a word and ``limit`` is in range."""
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise ValidationError("limit", f"must be an integer from 1 to {MAX_LIMIT}", given=limit, limit=MAX_LIMIT)
    if not isinstance(entity, str):
        raise ValidationError("entity", "must be a string", given=type(entity).__name__)
    if len(entity) > MAX_ENTITY_CHARS:
        raise ValidationError("entity", "is too long", given=f"{len(entity)} characters", limit=MAX_ENTITY_CHARS)
    if not query_words(entity):
        raise ValidationError("entity", "must hold a word", given=entity)
    return entity.strip()


def related(store: Store, scope: Scope, entity: str, *, limit: int = DEFAULT_LIMIT, now: datetime) -> Related:
    """The records around ``entity`` in ``scope`` (at most ``limit``) and the names that occur with it."""
    entity = check_related(entity, limit)
    words = query_words(entity)
    found = store.keyword_candidates(
        scope, [" ".join(words)], including_closed(Filter()), now=now, limit=min(limit * _POOL, MAX_LIMIT * _POOL)
    )
    names_it = _matcher(words)
    candidates = store.get_many(scope, [c.id for c in found])
    mentions = sorted(
        (r for r in candidates.values() if _shown(r, now) and names_it(r.content)),
        key=lambda r: (r.valid_from, r.id),
        reverse=True,
    )[:limit]
    links: dict[str, list[Link]] = {r.id: [Link(Connection.MENTIONS)] for r in mentions}
    kept: dict[str, MemoryRecord] = {r.id: r for r in mentions}

    def add(records: Iterable[MemoryRecord], how: Connection, via: str) -> None:
        for record in records:
            if record.id in kept or (len(kept) < limit and _shown(record, now)):
                kept.setdefault(record.id, record)
                links.setdefault(record.id, []).append(Link(how, via))

    _versions(store, scope, mentions, add)
    _same_session(store, scope, mentions, add, limit, now)
    _same_day(store, scope, mentions, add, limit, now)
    records = tuple(_out(kept[rid], tuple(dict.fromkeys(found_links))) for rid, found_links in links.items())
    return Related(entity, records, _neighbours(mentions, names_it, limit))


def _shown(record: MemoryRecord, now: datetime) -> bool:
    """Not quarantined at write time (recall's rule) and not expired."""
    expired = record.expires_at is not None and record.expires_at <= now
    return not expired and verdict(record) is not ScanLevel.QUARANTINE


def _matcher(words: list[str]) -> Callable[[str], bool]:
    """A test of text naming ``words`` in order as whole words (CJK has no word edges: there a run suffices)."""
    joined = r"\W+".join(re.escape(w) for w in words)
    if is_cjk(" ".join(words)):
        pattern = re.compile(r"\W*".join(re.escape(w) for w in words))
    else:
        pattern = re.compile(rf"(?<!\w){joined}(?!\w)")
    return lambda text: pattern.search(fold(text)) is not None


def _versions(store: Store, scope: Scope, mentions: list[MemoryRecord], add: Add) -> None:
    """The older version each naming record replaced, and the newer one that closed a naming record."""
    older = store.get_many(scope, [r.supersedes for r in mentions if r.supersedes])
    for record in mentions:
        if record.supersedes and record.supersedes in older:
            add([older[record.supersedes]], Connection.SUPERSEDED_BY, record.id)
    newer = store.successors(scope, [r.id for r in mentions if r.valid_to is not None])
    for record in mentions:
        add(newer.get(record.id, ()), Connection.SUPERSEDES, record.id)


def _same_session(
    store: Store, scope: Scope, mentions: list[MemoryRecord], add: Add, limit: int, now: datetime
) -> None:
    """The live records of each naming record's session, newest first."""
    seen: dict[str, list[MemoryRecord]] = {}
    for record in mentions:
        session = record.scope.session
        if session is None:
            continue
        if session not in seen:
            within = Scope(scope.tenant, scope.user, scope.agent, session)
            seen[session] = list(store.list_records(within, Filter(), now=now, limit=limit, cursor=None).records)
        add((r for r in seen[session] if r.id != record.id), Connection.SAME_SESSION, record.id)


def _same_day(store: Store, scope: Scope, mentions: list[MemoryRecord], add: Add, limit: int, now: datetime) -> None:
    """The live records whose valid_from falls on a naming record's UTC day, newest first."""
    seen: dict[datetime, list[MemoryRecord]] = {}
    for record in mentions:
        day = datetime.combine(record.valid_from.astimezone(UTC).date(), time(), UTC)
        if day not in seen:
            on_day = Filter(time_from=day, time_to=day + timedelta(days=1) - timedelta(microseconds=1))
            seen[day] = list(store.list_records(scope, on_day, now=now, limit=limit, cursor=None).records)
        add((r for r in seen[day] if r.id != record.id), Connection.SAME_DAY, record.id)


def _neighbours(mentions: list[MemoryRecord], names_it: Callable[[str], bool], limit: int) -> tuple[Neighbour, ...]:
    """The other names of the naming records, by how many records hold each, then by name."""
    holders: dict[str, list[str]] = {}
    for record in mentions:
        for name in name_phrases(record.content):
            if not names_it(name):
                holders.setdefault(name, []).append(record.id)
    ranked = sorted(holders.items(), key=lambda item: (-len(item[1]), item[0]))[:limit]
    return tuple(Neighbour(name, len(ids), tuple(ids)) for name, ids in ranked)


def _out(record: MemoryRecord, links: tuple[Link, ...]) -> RelatedRecord:
    """The record as ``Related`` shows it."""
    return RelatedRecord(
        record.id,
        record.content,
        record.type.value,
        record.scope.session,
        record.created_at,
        record.valid_from,
        record.valid_to,
        links,
    )
