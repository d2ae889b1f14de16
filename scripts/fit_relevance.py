"""Fit the relevance calibration (recall.relevance.CALIBRATIONS) for one embedder on LoCoMo conversations.

Conversations are written as `tiermem eval locomo` writes them. Two groups of scopes, weighed equally:

- whole conversations: positives are the evidence turns among each question's top 10; negatives the top 10 of
  each question asked in the scope of the next conversation (off-topic);
- small scopes, one session each (for the ``few`` evidence): positives are the evidence turns of the questions
  whose evidence lies in that session, negatives the top 10 of six questions of the next conversation.

Negatives are taken once as they are and, when the question names someone the scope never mentions, once more
with that evidence cleared: almost every such question names a stranger, and without the copies the fit would
learn that a question naming no one is always relevant. Every feature is read from the hits' parts
(``relevance:cosine``, ...), as recall computed it. Prints the logistic-regression coefficients and, for floors
0.05-0.95, the share of off-topic questions left empty and the evidence recall@10 kept. Fit on the dev part
only (conversations 0-2); `tiermem eval locomo --conversations 3-4` reports on the held-out part.

    PYTHONPATH=src .venv/bin/python scripts/fit_relevance.py data/locomo-dev.json --conversations 0-2 \
        --embedder minilm --embed-cache DIR
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from tiermem.embed import get_embedder
from tiermem.eval.embed_cache import CachedEmbedder
from tiermem.eval.locomo import Conversation, load_locomo, sessions
from tiermem.memory import Memory
from tiermem.types import Hit, Scope

FEATURES = ("cosine", "matched", "unknown", "stranger", "few", "best")
_STRANGER = FEATURES.index("stranger")
_OFF_TOPIC_PER_SESSION = 6


def features(memory: Memory, scope: Scope, question: str, now: datetime) -> tuple[list[Hit], np.ndarray]:
    """The top 10 hits and each one's evidence, as recall put it in the hit's parts."""
    hits = memory.recall(scope, question, k=10, now=now)
    rows = []
    for hit in hits:
        found = {p.name.removeprefix("relevance:"): p.raw or 0.0 for p in hit.parts if p.name.startswith("relevance:")}
        rows.append([found.get(name, 0.0) for name in FEATURES])
    return hits, np.array(rows, dtype=np.float64).reshape(-1, len(FEATURES))


@dataclass
class Group:
    """One kind of scope's hits: evidence hits of answerable questions, all hits of off-topic ones."""

    answerable: list[tuple[np.ndarray, int]] = field(default_factory=list)  # evidence hits' features, count
    off_topic: list[np.ndarray] = field(default_factory=list)

    def positives(self) -> np.ndarray:
        return np.vstack([f for f, _ in self.answerable])

    def negatives(self) -> np.ndarray:
        xn = np.vstack(self.off_topic)
        nameless = xn[xn[:, _STRANGER] > 0].copy()
        nameless[:, _STRANGER] = 0.0
        return np.vstack([xn, nameless])

    def report(self, w: np.ndarray, floor: float) -> str:
        def rel(x: np.ndarray) -> np.ndarray:
            return np.asarray(1 / (1 + np.exp(-(x @ w[:-1] + w[-1]))))

        base = np.mean([len(f) / n for f, n in self.answerable])
        kept = np.mean([(rel(f) >= floor).sum() / n if len(f) else 0.0 for f, n in self.answerable]) / base
        empty = np.mean([not (rel(y) >= floor).any() for y in self.off_topic])
        return f"off-topic empty {empty:.3f}, recall@10 kept {kept:.3f}"


def fit(groups: list[tuple[np.ndarray, float]], steps: int = 20000, rate: float = 0.5) -> np.ndarray:
    """Logistic regression by gradient descent, each (features, label) group weighted equally."""
    x = np.vstack([f for f, _ in groups])
    y = np.concatenate([np.full(len(f), label) for f, label in groups])
    weight = np.concatenate([np.full(len(f), 1.0 / (len(groups) * len(f))) for f, _ in groups])
    w = np.zeros(x.shape[1] + 1)
    xb = np.hstack([x, np.ones((len(x), 1))])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        w -= rate * xb.T @ ((p - y) * weight)
    return w


def _ask(memory: Memory, scope: Scope, conversation: Conversation, asked: Group, index: int) -> None:
    question = conversation.questions[index]
    hits, x = features(memory, scope, question.question, conversation.asked_at)
    is_evidence = np.array([str(h.record.metadata.get("dia_id")) in question.evidence for h in hits], dtype=bool)
    asked.answerable.append((x[is_evidence], len(question.evidence)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", type=Path)
    parser.add_argument("--conversations", default="0-2")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--embed-cache", type=Path)
    args = parser.parse_args()
    first, _, last = args.conversations.partition("-")
    conversations = load_locomo(args.path)[int(first) : int(last or first) + 1]
    inner = get_embedder(args.embedder)
    embedder = CachedEmbedder(inner, args.embed_cache) if args.embed_cache else inner
    whole, small = Group(), Group()
    rng = np.random.default_rng(0)
    with Memory.open(":memory:", embedder=embedder) as memory:
        scopes = []
        for index, conversation in enumerate(conversations):
            scope = Scope("fit", f"c{index}")
            for session in sessions(conversation.turns):
                messages = [turn.message for turn in session]
                memory.remember_messages(scope, messages, session=session[0].session, context_turns=1)
            scopes.append(scope)
        for index, conversation in enumerate(conversations):
            other = conversations[(index + 1) % len(conversations)]
            for number, question in enumerate(conversation.questions):
                _ask(memory, scopes[index], conversation, whole, number)
                elsewhere = scopes[(index + 1) % len(conversations)]
                whole.off_topic.append(features(memory, elsewhere, question.question, other.asked_at)[1])
            for position, session in enumerate(sessions(conversation.turns)):
                scope = Scope("fit-small", f"c{index}s{position}")
                messages = [turn.message for turn in session]
                memory.remember_messages(scope, messages, session=session[0].session, context_turns=1)
                held = {turn.dia_id for turn in session}
                for number, question in enumerate(conversation.questions):
                    if set(question.evidence) <= held:
                        _ask(memory, scope, conversation, small, number)
                for number in rng.choice(len(other.questions), size=_OFF_TOPIC_PER_SESSION, replace=False):
                    asked = other.questions[int(number)].question
                    small.off_topic.append(features(memory, scope, asked, conversation.asked_at)[1])
    w = fit([(whole.positives(), 1), (whole.negatives(), 0), (small.positives(), 1), (small.negatives(), 0)])
    coefficients = ", ".join(f"{name}={value:.2f}" for name, value in zip((*FEATURES, "bias"), w, strict=True))
    print(f"Calibration({coefficients})")
    for floor in np.arange(0.05, 1.0, 0.05):
        print(f"floor {floor:.2f}: whole conversations {whole.report(w, floor)}; sessions {small.report(w, floor)}")
    if isinstance(embedder, CachedEmbedder):
        embedder.close()


if __name__ == "__main__":
    main()
