"""Fit the relevance calibration (recall.relevance.CALIBRATIONS) for one embedder on LoCoMo conversations.

Conversations are written as `tiermem eval locomo` writes them. Positives: the evidence turns among each
question's top 10; negatives: the top 10 of each question asked in the scope of the next conversation
(off-topic), once as they are and, when the question names someone the scope never mentions, once more with
that evidence cleared: almost every such question names a stranger, and without the copies the fit would learn
that a question naming no one is always relevant. Prints the logistic-regression coefficients and, for floors
0.05-0.95, the share of off-topic questions left empty and the evidence recall@10 kept. Fit on the dev part
only (conversations 0-2); `tiermem eval locomo --conversations 3-4` reports on the held-out part.

    PYTHONPATH=src .venv/bin/python scripts/fit_relevance.py data/locomo-dev.json --conversations 0-2 \
        --embedder minilm --embed-cache /work/evalcache
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

import numpy as np

from tiermem.embed import embed_queries, get_embedder
from tiermem.english.names import names
from tiermem.eval.embed_cache import CachedEmbedder
from tiermem.eval.locomo import load_locomo, sessions
from tiermem.memory import Memory
from tiermem.recall.relevance import evidence, term_weights
from tiermem.recall.search import query_terms
from tiermem.types import Filter, Hit, Scope


def features(memory: Memory, scope: Scope, question: str, now: datetime) -> tuple[list[Hit], np.ndarray]:
    """Each of the top 10 hits' evidence: cosine, matched, unknown, stranger, and the scope's nearest cosine."""
    hits = memory.recall(scope, question, k=10, now=now)
    assert memory.embedder is not None
    qv = embed_queries(memory.embedder, [question])[0]
    weights = term_weights(memory.store, scope, query_terms(question), names(question))
    found = evidence(memory.store, scope, hits, weights, qv)
    near = memory.store.vector_candidates(scope, qv, memory.embedder.fingerprint, Filter(), now=now, limit=1)
    nearest = near[0].score if near else 0.0
    rows = [[e.cosine or 0.0, e.matched, e.unknown, e.stranger, nearest] for e in found]
    return hits, np.array(rows, dtype=np.float64).reshape(-1, 5)


def fit(x: np.ndarray, y: np.ndarray, steps: int = 20000, rate: float = 0.5) -> np.ndarray:
    """Logistic regression by gradient descent, classes weighted equally."""
    w = np.zeros(x.shape[1] + 1)
    xb = np.hstack([x, np.ones((len(x), 1))])
    weight = np.where(y == 1, 0.5 / max(y.sum(), 1), 0.5 / max((1 - y).sum(), 1))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        w -= rate * xb.T @ ((p - y) * weight)
    return w


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", type=Path)
    parser.add_argument("--conversations", default="0-2")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--embed-cache", type=Path)
    parser.add_argument("--dump", type=Path, help="Also save every hit's features (all five) to this .npz file.")
    args = parser.parse_args()
    first, _, last = args.conversations.partition("-")
    conversations = load_locomo(args.path)[int(first) : int(last or first) + 1]
    inner = get_embedder(args.embedder)
    embedder = CachedEmbedder(inner, args.embed_cache) if args.embed_cache else inner
    pos: list[np.ndarray] = []
    neg: list[np.ndarray] = []
    answerable: list[tuple[np.ndarray, int]] = []  # per question: features of its evidence hits, evidence count
    off_topic: list[np.ndarray] = []  # per off-topic question: features of its hits
    with Memory.open(":memory:", embedder=embedder) as memory:
        scopes = []
        for index, conversation in enumerate(conversations):
            scope = Scope("fit", f"c{index}")
            for session in sessions(conversation.turns):
                messages = [turn.message for turn in session]
                memory.remember_messages(scope, messages, session=session[0].session, context_turns=1)
            scopes.append(scope)
        for index, conversation in enumerate(conversations):
            other = (index + 1) % len(conversations)
            for question in conversation.questions:
                hits, x = features(memory, scopes[index], question.question, conversation.asked_at)
                is_evidence = np.array([str(h.record.metadata.get("dia_id")) in question.evidence for h in hits])
                pos.append(x[is_evidence])
                answerable.append((x[is_evidence], len(question.evidence)))
                _, y = features(memory, scopes[other], question.question, conversations[other].asked_at)
                neg.append(y)
                off_topic.append(y)
    if args.dump is not None:
        np.savez(
            args.dump,
            answerable=np.vstack([f for f, _ in answerable]),
            answerable_q=np.concatenate([np.full(len(f), i) for i, (f, _) in enumerate(answerable)]),
            evidence_n=np.array([n for _, n in answerable]),
            off_topic=np.vstack(off_topic),
            off_topic_q=np.concatenate([np.full(len(y), i) for i, y in enumerate(off_topic)]),
        )
    used = 4  # cosine, matched, unknown, stranger (the fifth, the scope's nearest cosine, is only dumped)
    xp, xn = np.vstack(pos)[:, :used], np.vstack(neg)[:, :used]
    nameless = xn[xn[:, 3] > 0].copy()
    nameless[:, 3] = 0.0
    xn = np.vstack([xn, nameless])
    w = fit(np.vstack([xp, xn]), np.concatenate([np.ones(len(xp)), np.zeros(len(xn))]))
    coefficients = f"cosine={w[0]:.2f}, matched={w[1]:.2f}, unknown={w[2]:.2f}, stranger={w[3]:.2f}, bias={w[4]:.2f}"
    print(f"Calibration({coefficients})  positives {len(xp)}, negatives {len(xn)}")

    def rel(x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-(x[:, :used] @ w[:used] + w[used])))

    base = np.mean([len(f) / n for f, n in answerable])
    for floor in np.arange(0.05, 1.0, 0.05):
        kept = np.mean([(rel(f) >= floor).sum() / n if len(f) else 0.0 for f, n in answerable]) / base
        empty = np.mean([not (rel(y) >= floor).any() for y in off_topic])
        print(f"floor {floor:.2f}: off-topic empty {empty:.3f}, recall@10 kept {kept:.3f}")
    if isinstance(embedder, CachedEmbedder):
        embedder.close()


if __name__ == "__main__":
    main()
