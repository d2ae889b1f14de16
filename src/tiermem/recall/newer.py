"""(internal) Newer facts first: of two retrieved facts that compete to answer a question, the newer ranks above."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from tiermem.embed import Vectors
from tiermem.english.statements import read
from tiermem.recall.rows import Row
from tiermem.recall.speakers import utterance
from tiermem.types import MemoryRecord, MemoryType, Scope

__all__ = ["FactStore", "newer_rows_first"]


class FactStore(Protocol):
    """What the rule reads of a store: records by id and their vectors."""

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The records with these ids in the scope."""
        ...

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        """The stored vectors of these records."""
        ...


def _competing(
    older: MemoryRecord,
    faces: list[tuple[str, Vectors]],
    older_vector: Vectors,
    what: frozenset[str],
    update_cosine: float,
) -> bool:
    """Two facts give rival answers: one topic, and one subject or one statement about two people."""
    mine = read(older.content)
    said = mine.answered(what) if what else frozenset()
    for content, vector in faces:
        theirs = read(content)
        # One topic: close vectors, or the newer fact answers every word of the question the older one answers
        # (vectors of two facts about one person are dominated by the name, so a change of topic words hides).
        topic = float(older_vector @ vector) >= update_cosine or (bool(said) and said <= theirs.answered(what))
        if topic and (mine.same_subject(theirs) or mine.same_frame(theirs)):
            return True
    return False


def _faces(
    record: MemoryRecord, predecessors: dict[str, MemoryRecord], vectors: dict[str, Vectors]
) -> list[tuple[str, Vectors]]:
    """The texts and vectors a fact competes with: its own, and the predecessor it closed, if any."""
    faces = [(record.content, vectors[record.id])]
    previous = predecessors.get(record.supersedes or "")
    if previous is not None and previous.id in vectors:
        faces.append((previous.content, vectors[previous.id]))
    return faces


def newer_rows_first(
    store: FactStore,
    scope: Scope,
    rows: list[Row],
    *,
    update_cosine: float,
    competing_ratio: float,
    asked: Callable[[], frozenset[str]] = frozenset,
) -> list[Row]:
    """Rank the newest of competing facts first (see RecallPolicy: newer facts first), rows changed in place.

    ``asked``: gives the stems of what the question asks beyond its names (``EnglishQuestion.asked``; none when
    it is not English, and then only the facts' vectors tell one topic), read only when two facts compete."""
    # A transcript line stored as a note ("Ann: we moved the party to Sunday") is what was said then, not a
    # standing fact: a later line on the same topic adds to it, so it is ranked like an event, by its words.
    facts = [i for i, r in enumerate(rows) if r.record.type is MemoryType.SEMANTIC and not utterance(r.record)]
    if len(facts) < 2:
        return rows
    # A fact that closed an older one is its current version: it competes wherever its predecessor would.
    before = {p for i in facts if (p := rows[i].record.supersedes) is not None}
    predecessors = store.get_many(scope, sorted(before)) if before else {}
    vectors = store.vectors_of(scope, [rows[i].record.id for i in facts] + sorted(predecessors))
    facts = [i for i in facts if rows[i].record.id in vectors]
    if len(facts) < 2:
        return rows
    faces = {i: _faces(rows[i].record, predecessors, vectors) for i in facts}
    what = asked()
    similarity = {i: faces[i][0][1] for i in facts}
    order = list(range(len(rows)))
    lifted: set[int] = set()
    for a, i in enumerate(facts):  # i: the higher-ranked, possibly older fact
        if i in lifted:
            continue
        older = rows[i]
        rivals = [
            j
            for j in facts[a + 1 :]
            if j not in lifted
            and rows[j].record.valid_from > older.record.valid_from
            and rows[j].score >= competing_ratio * older.score
            and _competing(older.record, faces[j], similarity[i], what, update_cosine)
        ]
        if not rivals:
            continue
        j = max(rivals, key=lambda r: rows[r].record.valid_from)
        newer = rows[j]
        cosine = float(similarity[i] @ similarity[j])
        newer.added.append(("newer_fact", None, cosine, older.score / max(newer.score, 1e-12)))
        # Just above the older fact, by position: an equal score must not carry it past a fact tied above.
        newer.score = older.score
        older.flags = (*older.flags, "possibly_outdated")
        order.remove(j)
        order.insert(order.index(i), j)
        lifted.update((i, j))
    return [rows[x] for x in order]
