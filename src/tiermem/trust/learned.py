"""(internal) A learned injection signal: a logistic regression on the note's sentence embedding, beside the rules.

Hand-written detectors miss new phrasings of an order to the reader; a linear model on the MiniLM vector that the
write path computes anyway catches some of them. It was trained on the dev split of the injection corpus and on
the red-team rounds already scored (``benchmarks/injection/embedding_classifier.py`` rebuilds
``data/injection-minilm.json`` deterministically), with its penalty and threshold chosen by cross-validation that
leaves one family of notes out. A note's
probability is the highest over its whole-text vector and its passages' vectors (sentences, as ``recall``
embeds them), so one order inside a long e-mail is seen alone.

Text in other languages is read by a second model of the same kind on the multilingual e5 vector
(``injection-e5.json``, trained the same way): the MiniLM vector of a sentence in Greek or Thai says little about
it, while e5 places an order in any of its hundred languages near the same order in English.

It only ever raises a verdict: below its threshold it adds nothing (a benign note the rules pass stays clean),
at or above it the score becomes at least the quarantine threshold, rising to 1 at probability 1, except in a
text the rules read as a role description or as quotes in a discussion of attacks, where it flags at most
(``InjectionVerdict.ceiling``). The weights
fit one model: vectors from an embedder no signal was trained on (the hashing embedder of the tests, an
endpoint) are never scored (``LearnedSignal.fits``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from tiermem.errors import ConfigError
from tiermem.trust.frames import FRAMED_CEILING
from tiermem.trust.injection import INJECTION_THRESHOLD, InjectionVerdict

__all__ = ["MULTILINGUAL", "WEIGHTS_FILE", "LearnedSignal", "learned_signal", "raise_verdict", "signal_for"]

WEIGHTS_FILE = "injection-minilm.json"
MULTILINGUAL = "injection-e5.json"
_SHIPPED = (WEIGHTS_FILE, MULTILINGUAL)
_FLOATS = npt.NDArray[np.float32] | npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class LearnedSignal:
    """Weights, bias and decision threshold of the classifier, and the embedding model they were fitted on."""

    model: str
    weights: npt.NDArray[np.float64]
    bias: float
    threshold: float
    alone: float = 1.0  # the probability at which one line of a document read alone stands for an order

    def fits(self, fingerprint: str | None) -> bool:
        """Whether vectors of the embedder with this fingerprint can be scored."""
        return fingerprint == self.model

    def probability(self, whole: _FLOATS, passages: _FLOATS | None = None) -> float:
        """The highest probability of injection over the whole-text vector and its passages' vectors."""
        logit = float(np.asarray(whole, dtype=np.float64) @ self.weights) + self.bias
        if passages is not None and len(passages):
            logit = max(logit, float((np.asarray(passages, dtype=np.float64) @ self.weights).max()) + self.bias)
        return 1.0 / (1.0 + math.exp(-logit))

    def score(self, probability: float) -> float:
        """The injection score a probability stands for: 0 below the threshold, else from INJECTION_THRESHOLD to 1."""
        if probability < self.threshold:
            return 0.0
        span = max(1e-9, 1.0 - self.threshold)
        return INJECTION_THRESHOLD + (1.0 - INJECTION_THRESHOLD) * min(1.0, (probability - self.threshold) / span)


def learned_signal(name: str = WEIGHTS_FILE) -> LearnedSignal:
    """A shipped classifier (``tiermem/data/<name>``, MiniLM's by default), read once."""
    return _read(name)


@cache
def _read(name: str) -> LearnedSignal:
    raw = (resources.files("tiermem") / "data" / name).read_text(encoding="utf-8")
    data = json.loads(raw)
    weights = np.asarray(data["weights"], dtype=np.float64)
    alone = float(data.get("alone", 1.0))
    if weights.ndim != 1 or not 0.0 < float(data["threshold"]) < 1.0 or not 0.0 < alone <= 1.0:
        raise ConfigError(f"tiermem/data/{name}: weights must be a vector, the threshold in (0, 1), alone in (0, 1]")
    return LearnedSignal(str(data["model"]), weights, float(data["bias"]), float(data["threshold"]), alone)


def signal_for(fingerprint: str | None) -> LearnedSignal | None:
    """The shipped classifier trained on vectors of the embedder with this fingerprint, if any."""
    for name in _SHIPPED:
        signal = learned_signal(name)
        if signal.fits(fingerprint):
            return signal
    return None


def raise_verdict(
    verdict: InjectionVerdict, probability: float, signal: LearnedSignal, *, part: bool = False
) -> InjectionVerdict:
    """``verdict`` with the classifier's score when higher (up to the verdict's ceiling), and a reason that says so.

    ``part``: the probability was read on one line or passage of a longer text, alone. Out of its text a payment
    line or a "we will never ask for your card" notice reads like an order, so such a reading flags at most.
    """
    score = min(signal.score(probability), verdict.ceiling, FRAMED_CEILING if part else 1.0)
    if score <= verdict.score:
        return verdict
    reason = f"sentence-embedding classifier: probability {probability:.2f} (threshold {signal.threshold:.2f})"
    if score < signal.score(probability):
        reason += ", on one part of the text alone: flagged at most" if part else ", bounded by the frame"
    return InjectionVerdict(round(score, 4), (*verdict.reasons, reason))
