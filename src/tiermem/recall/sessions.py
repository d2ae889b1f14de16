"""(internal) Session evidence: a turn counts more in a conversation that holds the query's best matches.

Passage retrieval has long scored a passage with the evidence of the document around it (Callan, 1994: a
passage's score combined with its document's), because a passage alone may say too little: in a chat, the turn
that answers ("It taught me patience, mostly.") often shares few words with the question, while the turns
around it name the subject. A conversation's session is its document, and its best-scoring turn the document's
evidence (MaxP): each re-ranked hit of a session is multiplied by ``1 + session_weight * best / top``, ``best``
the session's best score among the re-ranked hits and ``top`` the best of all. A record outside any session is
its own document (its factor grows with its own score, so records without a session keep their order), and
the best turn of the best session gets the full ``1 + session_weight``.

A turn written without a session still belongs to a conversation: the lines written around it. A transcript
line, or a record the write path linked to the turn before it (its search context quotes that turn: a message,
a note under ``follow_window``), that has no session takes as its document the hits of its agent written at
most ``stream_window`` of the user's records before or after it (``Store.write_places``): a sliding window, so
no boundary has to be guessed.

It re-ranks the hits as the factors left them, before newer facts first and the guards, within the best
``max(3k, k + 20)`` (the short list recall re-scores): sessions far below them carry no evidence for the query.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Mapping, Sequence

from tiermem.recall.rows import Row, hits_of, rows_of
from tiermem.recall.speakers import utterance
from tiermem.store.base import Store
from tiermem.types import Hit, MemoryRecord, Scope

__all__ = ["NAME", "in_stream", "rerank_depth", "session_evidence", "stream_places", "with_session_evidence"]

NAME = "session"


def rerank_depth(k: int) -> int:
    """How many of the best hits session evidence re-ranks (the short list's size)."""
    return max(3 * k, k + 20)


def in_stream(record: MemoryRecord) -> bool:
    """Whether ``record`` is a turn without a session: linked by the write path to the turn before it, or a
    transcript line (the first line of a talk has no turn before it)."""
    return record.scope.session is None and (bool(record.context) or utterance(record))


def stream_places(store: Store, scope: Scope, head: Sequence[MemoryRecord], window: int) -> dict[str, int]:
    """The write-order places of the records of ``head`` in a stream, when two or more are (else none)."""
    ids = [r.id for r in head if in_stream(r)]
    return store.write_places(scope, ids, window) if window > 0 and len(ids) > 1 else {}


def _window_best(head: Sequence[Row], places: Mapping[str, int], window: int) -> dict[str, float]:
    """For each row with a place, the best score among the rows of its agent at most ``window`` places away."""
    by_agent: dict[str | None, list[tuple[int, Row]]] = defaultdict(list)
    for row in head:
        place = places.get(row.record.id)
        if place is not None:
            by_agent[row.record.scope.agent].append((place, row))
    best: dict[str, float] = {}
    for placed in by_agent.values():
        placed.sort(key=lambda p: p[0])
        at = [place for place, _ in placed]
        scores = [row.score for _, row in placed]
        for place, row in placed:
            best[row.record.id] = max(scores[bisect_left(at, place - window) : bisect_right(at, place + window)])
    return best


def with_session_evidence(
    hits: list[Hit], weight: float, depth: int, places: Mapping[str, int] | None = None, window: int = 0
) -> list[Hit]:
    """``hits`` (best first) with the best ``depth`` re-ranked by their session's (or their stream window's,
    for the hits ``places`` places) best score (see module)."""
    return hits_of(session_evidence(rows_of(hits), weight, depth, places, window))


def session_evidence(
    rows: list[Row], weight: float, depth: int, places: Mapping[str, int] | None = None, window: int = 0
) -> list[Row]:
    """``with_session_evidence`` of rows, changed in place."""
    head = rows[:depth]
    if weight <= 0 or not head or not (places or any(r.record.scope.session for r in head)):
        return rows
    top = max(r.score for r in head)
    if top <= 0:
        return rows
    best: dict[str, float] = {}
    for row in head:
        session = row.record.scope.session
        if session is not None:
            best[session] = max(best.get(session, 0.0), row.score)
    streams = _window_best(head, places, window) if places else {}
    # Every score is read above before any changes: a row's evidence is the scores as the factors left them.
    for row in head:
        session = row.record.scope.session
        document = best[session] if session is not None else streams.get(row.record.id, row.score)
        evidence = document / top
        factor = 1.0 + weight * evidence
        row.added.append((NAME, None, evidence, factor))
        row.score *= factor
    head.sort(key=_score, reverse=True)  # stable: equal scores keep the factors' order
    rows[:depth] = head
    return rows


def _score(row: Row) -> float:
    return row.score
