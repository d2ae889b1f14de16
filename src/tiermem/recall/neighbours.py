"""(internal) Neighbour evidence: a turn counts more next to a turn that matches the query.

In a chat the answer is often split over two turns: a question and its reply ("Where did you go?" / "Up the
coast, with the kids."), a statement and the detail that follows it. Passage retrieval scores a passage with the
evidence around it; within a session, the nearest evidence is the turn just before or after. The write path
already records that adjacency: a turn of the messages API (``context_turns``), a transcript line or a note
under ``WritePolicy.follow_window`` carries the end of the turn before it as the last line of its search
context. Among the re-ranked hits, two of the same session and the same kind of source (two people, not a
user and the assistant answering them) are neighbours when one's context ends with the end of the other's
text; each hit is then multiplied by ``1 + neighbour_weight * n / top``, ``n`` the best score of its
neighbours among the hits and ``top`` the best of all (score part ``neighbour``).

It runs after session evidence, on the same short list (``max(3k, k + 20)``): neighbours far below it carry
no evidence for the query, and fetching turns outside it would cost a read on every question.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from tiermem.recall.rows import Ranked, Row, hits_of, rows_of
from tiermem.recall.traits import talk
from tiermem.types import Hit

__all__ = ["NAME", "neighbour_evidence", "neighbours_of", "with_neighbour_evidence"]

NAME = "neighbour"


def neighbours_of(hits: Sequence[Ranked]) -> dict[int, set[int]]:
    """For each hit's index, the indexes of the hits of its session it follows or is followed by."""
    # Two turns can be neighbours only in the same session, said by the same kind of source: a user's turn and
    # an assistant's reply are one exchange told twice (the reply restates the question at length), so the
    # pair's match would count twice; two people's turns each carry their own facts.
    talks = [talk(h.record) for h in hits]  # a context quotes whole words, its spacing collapsed
    ends: dict[str, list[int]] = defaultdict(list)  # last word of a hit's text -> hits ending with it
    for i, said in enumerate(talks):
        if said.words:
            ends[said.words[-1]].append(i)
    adjacent: dict[int, set[int]] = defaultdict(set)
    for i, said in enumerate(talks):
        quoted = said.quoted  # the turn just before: the context's last line
        if not quoted:
            continue
        for j in ends.get(quoted[-1], ()):
            other = talks[j]
            if j != i and other.words[-len(quoted) :] == quoted and other.where == said.where:
                adjacent[i].add(j)
                adjacent[j].add(i)
    return adjacent


def with_neighbour_evidence(hits: list[Hit], weight: float, depth: int) -> list[Hit]:
    """``hits`` (best first) with the best ``depth`` re-ranked by their neighbours' scores (see module)."""
    return hits_of(neighbour_evidence(rows_of(hits), weight, depth))


def neighbour_evidence(rows: list[Row], weight: float, depth: int) -> list[Row]:
    """``with_neighbour_evidence`` of rows, changed in place."""
    head = rows[:depth]
    if weight <= 0 or len(head) < 2:
        return rows
    top = max(r.score for r in head)
    adjacent = neighbours_of(head)
    if top <= 0 or not adjacent:
        return rows
    # Each row's evidence is read from the scores as they came in, before any changes.
    evidence = {i: max(head[j].score for j in near) / top for i, near in adjacent.items()}
    for i, found in evidence.items():
        if found <= 0:
            continue
        factor = 1.0 + weight * found
        row = head[i]
        row.added.append((NAME, None, found, factor))
        row.score *= factor
    head.sort(key=_score, reverse=True)  # stable: equal scores keep the order they came in
    rows[:depth] = head
    return rows


def _score(row: Row) -> float:
    return row.score
