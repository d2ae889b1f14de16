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

from tiermem.recall.traits import context_tail, words
from tiermem.types import Hit, MemoryRecord, ScorePart

__all__ = ["NAME", "neighbours_of", "with_neighbour_evidence"]

NAME = "neighbour"


def _same_talk(a: MemoryRecord, b: MemoryRecord) -> bool:
    """Whether two turns can be neighbours: the same session, said by the same kind of source."""
    # A user's turn and an assistant's reply are one exchange told twice (the reply restates the question at
    # length), so the pair's match would count twice; two people's turns each carry their own facts.
    return a.scope.session == b.scope.session and a.source.kind == b.source.kind


def neighbours_of(hits: list[Hit]) -> dict[int, set[int]]:
    """For each hit's index, the indexes of the hits of its session it follows or is followed by."""
    split = [words(h.record) for h in hits]  # a context quotes whole words, its spacing collapsed
    ends: dict[str, list[int]] = defaultdict(list)  # last word of a hit's text -> hits ending with it
    for i, text in enumerate(split):
        if text:
            ends[text[-1]].append(i)
    adjacent: dict[int, set[int]] = defaultdict(set)
    for i, hit in enumerate(hits):
        quoted = context_tail(hit.record)  # the turn just before: the context's last line
        if not quoted:
            continue
        for j in ends.get(quoted[-1], ()):
            if j != i and split[j][-len(quoted) :] == quoted and _same_talk(hits[j].record, hit.record):
                adjacent[i].add(j)
                adjacent[j].add(i)
    return adjacent


def with_neighbour_evidence(hits: list[Hit], weight: float, depth: int) -> list[Hit]:
    """``hits`` (best first) with the best ``depth`` re-ranked by their neighbours' scores (see module)."""
    head, tail = hits[:depth], hits[depth:]
    if weight <= 0 or len(head) < 2:
        return hits
    top = max(h.score for h in head)
    adjacent = neighbours_of(head)
    if top <= 0 or not adjacent:
        return hits
    out: list[Hit] = []
    for i, hit in enumerate(head):
        evidence = max((head[j].score for j in adjacent.get(i, ())), default=0.0) / top
        if evidence <= 0:
            out.append(hit)
            continue
        factor = 1.0 + weight * evidence
        part = ScorePart(NAME, None, evidence, factor)
        out.append(Hit(hit.record, hit.score * factor, (*hit.parts, part), hit.flags, hit.relevance))
    out.sort(key=lambda h: h.score, reverse=True)  # stable: equal scores keep the order they came in
    return out + tail
