"""Fit the relevance calibration (recall.relevance.CALIBRATIONS) for one embedder on LoCoMo and LongMemEval.

Conversations and haystacks are written as `tiermem eval locomo` / `longmemeval` write them. Groups of scopes:

- whole LoCoMo conversations: positives are the evidence turns among each question's top 10; negatives the top
  10 of each question asked in the scope of the next conversation (off-topic);
- small scopes, one LoCoMo session each (for the ``few`` evidence): positives are the evidence turns of the
  questions whose evidence lies in that session, negatives the top 10 of six questions of the next conversation;
- with ``--longmemeval``: each question's whole haystack, asked as the eval asks it, and each of its evidence
  sessions alone; positives are the evidence turns among the top 10. Its questions rarely share words with
  their evidence (the paraphrase case) and it has no off-topic questions.

Each group weighs the same, but for LongMemEval's two, which weigh ``m`` times as much: the smallest ``m`` (1 to
10) for which the fit keeps at least 0.99 of their evidence recall@10 at the default floor. LoCoMo alone would
learn a floor that drops paraphrases.

Negatives are taken once as they are and, when the question names someone the scope never mentions, once more
with that evidence cleared: almost every such question names a stranger, and without the copies the fit would
learn that a question naming no one is always relevant. Every feature is read from the hits' parts
(``relevance:cosine``, ...), as recall computed it. Prints the logistic-regression coefficients and, for floors
0.05-0.95, the share of off-topic questions left empty and the evidence recall@10 kept. Fit on the dev part
only (conversations 0-2, questions 0-29); `tiermem eval locomo --conversations 3-4` and `tiermem eval
longmemeval --offset 30` report on the held-out part.

    PYTHONPATH=src .venv/bin/python scripts/fit_relevance.py data/locomo-dev.json --conversations 0-2 \
        --longmemeval data/longmemeval_s_subset60.json.gz --questions 0-29 --embedder minilm --embed-cache DIR
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from tiermem.embed import get_embedder
from tiermem.eval.embed_cache import CachedEmbedder
from tiermem.eval.locomo import Conversation, load_locomo, sessions
from tiermem.eval.longmemeval import (
    MAX_DEPTH,
    SESSION_DEPTH,
    LmeQuestion,
    LmeTurn,
    _ingest,
    _sessions,
    iter_longmemeval,
)
from tiermem.memory import Memory
from tiermem.recall.floor import DEFAULT_MIN_RELEVANCE
from tiermem.types import Hit, Scope

FEATURES = ("cosine", "matched", "unknown", "stranger", "few", "best", "phrase")
_STRANGER = FEATURES.index("stranger")
_OFF_TOPIC_PER_SESSION = 6


def features(memory: Memory, scope: Scope, question: str, now: datetime, k: int = 10) -> tuple[list[Hit], np.ndarray]:
    """The top 10 hits (of ``k`` asked for) and each one's evidence, as recall put it in the hit's parts."""
    hits = memory.recall(scope, question, k=k, now=now)[:10]
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

    def kept(self, w: np.ndarray, floor: float) -> float:
        base = np.mean([len(f) / n for f, n in self.answerable])
        return float(np.mean([(_rel(w, f) >= floor).sum() / n for f, n in self.answerable]) / base)

    def report(self, w: np.ndarray, floor: float) -> str:
        empty = np.mean([not (_rel(w, y) >= floor).any() for y in self.off_topic]) if self.off_topic else 0.0
        return f"off-topic empty {empty:.3f}, recall@10 kept {self.kept(w, floor):.3f}"


def _rel(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-(x @ w[:-1] + w[-1]))))


def fit(groups: list[tuple[np.ndarray, float, float]], steps: int = 6000, rate: float = 0.5) -> np.ndarray:
    """Logistic regression by gradient descent on standardised features, each (features, label, weight) group
    weighing its weight in all (its rows share it); the coefficients are returned on the features' own scale."""
    x = np.vstack([f for f, _, _ in groups])
    y = np.concatenate([np.full(len(f), label) for f, label, _ in groups])
    total = sum(g for _, _, g in groups)
    weight = np.concatenate([np.full(len(f), g / (total * len(f))) for f, _, g in groups])
    mean, spread = x.mean(axis=0), x.std(axis=0) + 1e-9
    xb = np.hstack([(x - mean) / spread, np.ones((len(x), 1))])
    w = np.zeros(x.shape[1] + 1)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        w -= rate * xb.T @ ((p - y) * weight)
    scaled = w[:-1] / spread
    return np.append(scaled, w[-1] - float(scaled @ mean))


def _ask(memory: Memory, scope: Scope, conversation: Conversation, asked: Group, index: int) -> None:
    question = conversation.questions[index]
    hits, x = features(memory, scope, question.question, conversation.asked_at)
    is_evidence = np.array([str(h.record.metadata.get("dia_id")) in question.evidence for h in hits], dtype=bool)
    asked.answerable.append((x[is_evidence], len(question.evidence)))


def _ask_lme(memory: Memory, index: int, question: LmeQuestion, whole: Group, small: Group) -> None:
    """One LongMemEval question: in its whole haystack (asked as the eval asks it) and each evidence session."""
    for group, name, turns, depth in [
        (whole, f"h{index}", question.turns, min(MAX_DEPTH, SESSION_DEPTH)),
        *[(small, f"h{index}s{n}", s, 10) for n, s in enumerate(_sessions(question.turns)) if _gold(s)],
    ]:
        scope = Scope("fit-lme", name)
        turns_of = _ingest(memory, scope, dataclasses.replace(question, turns=tuple(turns)))
        hits, x = features(memory, scope, question.question, question.asked_at, k=depth)
        ids = [turns_of.get(h.record.id) or [str(h.record.metadata.get("turn"))] for h in hits]
        gold = _gold(turns)
        is_evidence = np.array([bool(gold.intersection(i)) for i in ids], dtype=bool)
        group.answerable.append((x[is_evidence], len(gold)))


def _gold(turns: Sequence[LmeTurn]) -> set[str]:
    return {t.key for t in turns if t.has_answer}


def _span(text: str) -> slice:
    first, _, last = text.partition("-")
    return slice(int(first), int(last or first) + 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", type=Path)
    parser.add_argument("--conversations", default="0-2")
    parser.add_argument("--longmemeval", type=Path, help="LongMemEval questions to fit on too (the paraphrase case)")
    parser.add_argument("--questions", default="0-29", help="LongMemEval questions FIRST-LAST (0-based)")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--embed-cache", type=Path)
    args = parser.parse_args()
    conversations = load_locomo(args.path)[_span(args.conversations)]
    inner = get_embedder(args.embedder)
    embedder = CachedEmbedder(inner, args.embed_cache) if args.embed_cache else inner
    whole, small, haystacks, evidence_sessions = Group(), Group(), Group(), Group()
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
        if args.longmemeval is not None:
            for index, lme_question in enumerate(list(iter_longmemeval(args.longmemeval))[_span(args.questions)]):
                _ask_lme(memory, index, lme_question, haystacks, evidence_sessions)
    locomo = [(whole.positives(), 1.0), (whole.negatives(), 0.0), (small.positives(), 1.0), (small.negatives(), 0.0)]
    lme = [g for g in (haystacks, evidence_sessions) if g.answerable]
    for m in range(1, 11):
        w = fit([(p, label, 1.0) for p, label in locomo] + [(g.positives(), 1.0, float(m)) for g in lme])
        if all(g.kept(w, DEFAULT_MIN_RELEVANCE) >= 0.99 for g in lme):
            break
    coefficients = ", ".join(f"{name}={value:.2f}" for name, value in zip((*FEATURES, "bias"), w, strict=True))
    print(f"Calibration({coefficients})" + (f"  # LongMemEval weighed {m}x" if lme else ""))
    for floor in np.arange(0.05, 1.0, 0.05):
        line = f"floor {floor:.2f}: whole conversations {whole.report(w, floor)}; sessions {small.report(w, floor)}"
        if lme:
            kept = haystacks.kept(w, floor), evidence_sessions.kept(w, floor)
            line += f"; LongMemEval kept {kept[0]:.3f}, sessions {kept[1]:.3f}"
        print(line)
    if isinstance(embedder, CachedEmbedder):
        embedder.close()


if __name__ == "__main__":
    main()
