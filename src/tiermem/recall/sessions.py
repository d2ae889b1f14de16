"""(internal) Session evidence: a turn counts more in a conversation that holds the query's best matches.

Passage retrieval has long scored a passage with the evidence of the document around it (Callan, 1994: a
passage's score combined with its document's), because a passage alone may say too little: in a chat, the turn
that answers ("It taught me patience, mostly.") often shares few words with the question, while the turns
around it name the subject. A conversation's session is its document, and its best-scoring turn the document's
evidence (MaxP): each re-ranked hit of a session is multiplied by ``1 + session_weight * best / top``, ``best``
the session's best score among the re-ranked hits and ``top`` the best of all. A record outside any session is
its own document (its factor grows with its own score, so records without a session keep their order), and
the best turn of the best session gets the full ``1 + session_weight``.

It re-ranks the hits as the factors left them, before newer facts first and the guards, within the best
``max(3k, k + 20)`` (the short list recall re-scores): sessions far below them carry no evidence for the query.
"""

from __future__ import annotations

from dataclasses import replace

from tiermem.types import Hit, ScorePart

__all__ = ["NAME", "rerank_depth", "with_session_evidence"]

NAME = "session"


def rerank_depth(k: int) -> int:
    """How many of the best hits session evidence re-ranks (the short list's size)."""
    return max(3 * k, k + 20)


def with_session_evidence(hits: list[Hit], weight: float, depth: int) -> list[Hit]:
    """``hits`` (best first) with the best ``depth`` re-ranked by their session's best score (see module)."""
    head, tail = hits[:depth], hits[depth:]
    if weight <= 0 or not head or not any(h.record.scope.session for h in head):
        return hits
    top = max(h.score for h in head)
    if top <= 0:
        return hits
    best: dict[str, float] = {}
    for hit in head:
        session = hit.record.scope.session
        if session is not None:
            best[session] = max(best.get(session, 0.0), hit.score)
    out: list[Hit] = []
    for hit in head:
        session = hit.record.scope.session
        evidence = (best[session] if session is not None else hit.score) / top
        factor = 1.0 + weight * evidence
        part = ScorePart(NAME, None, evidence, factor)
        out.append(replace(hit, score=hit.score * factor, parts=(*hit.parts, part)))
    out.sort(key=lambda h: h.score, reverse=True)  # stable: equal scores keep the factors' order
    return out + tail
