"""(internal) Newer facts first: of two retrieved facts that compete to answer a question, the newer ranks above."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from tiermem.embed import Vectors
from tiermem.english.statements import read
from tiermem.recall.speakers import utterance
from tiermem.types import Hit, MemoryRecord, MemoryType, Scope, ScorePart

__all__ = ["FactStore", "newer_facts_first"]


class FactStore(Protocol):
    """What the rule reads of a store: records by id and their vectors."""

    def get_many(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The records with these ids in the scope."""
        ...

    def vectors_of(self, scope: Scope, record_ids: Sequence[str]) -> dict[str, Vectors]:
        """The stored vectors of these records."""
        ...


def _competing(
    older: Hit,
    faces: list[tuple[str, Vectors]],
    older_vector: Vectors,
    what: frozenset[str],
    update_cosine: float,
) -> bool:
    """Two facts give rival answers: one topic, and one subject or one statement about two people."""
    mine = read(older.record.content)
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


def newer_facts_first(
    store: FactStore,
    scope: Scope,
    hits: list[Hit],
    *,
    update_cosine: float,
    competing_ratio: float,
    asked: Callable[[], frozenset[str]] = frozenset,
) -> list[Hit]:
    """Rank the newest of competing facts first (see RecallPolicy: newer facts first).

    ``asked``: gives the stems of what the question asks beyond its names (``EnglishQuestion.asked``; none when
    it is not English, and then only the facts' vectors tell one topic), read only when two facts compete."""
    # A transcript line stored as a note ("Ann: we moved the party to Sunday") is what was said then, not a
    # standing fact: a later line on the same topic adds to it, so it is ranked like an event, by its words.
    facts = [i for i, h in enumerate(hits) if h.record.type is MemoryType.SEMANTIC and not utterance(h.record)]
    if len(facts) < 2:
        return hits
    # A fact that closed an older one is its current version: it competes wherever its predecessor would.
    before = {p for i in facts if (p := hits[i].record.supersedes) is not None}
    predecessors = store.get_many(scope, sorted(before)) if before else {}
    vectors = store.vectors_of(scope, [hits[i].record.id for i in facts] + sorted(predecessors))
    facts = [i for i in facts if hits[i].record.id in vectors]
    if len(facts) < 2:
        return hits
    faces = {i: _faces(hits[i].record, predecessors, vectors) for i in facts}
    what = asked()
    similarity = {i: faces[i][0][1] for i in facts}
    out = list(hits)
    order = list(range(len(hits)))
    lifted: set[int] = set()
    for a, i in enumerate(facts):  # i: the higher-ranked, possibly older fact
        if i in lifted:
            continue
        older = out[i]
        rivals = [
            j
            for j in facts[a + 1 :]
            if j not in lifted
            and out[j].record.valid_from > older.record.valid_from
            and out[j].score >= competing_ratio * older.score
            and _competing(older, faces[j], similarity[i], what, update_cosine)
        ]
        if not rivals:
            continue
        j = max(rivals, key=lambda r: out[r].record.valid_from)
        cosine = float(similarity[i] @ similarity[j])
        lift = ScorePart("newer_fact", None, cosine, older.score / max(out[j].score, 1e-12))
        # Just above the older fact, by position: an equal score must not carry it past a fact tied above.
        out[j] = replace(out[j], score=older.score, parts=(*out[j].parts, lift))
        out[i] = replace(older, flags=(*older.flags, "possibly_outdated"))
        order.remove(j)
        order.insert(order.index(i), j)
        lifted.update((i, j))
    return [out[x] for x in order]
