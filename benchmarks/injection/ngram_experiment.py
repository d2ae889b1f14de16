"""An experiment, left out of the scorer: can a small learned model generalise where the rules do not?

A logistic regression over hashed word unigrams and bigrams (numpy, text only), trained on the corpus's
``dev`` split only (holdout rows are dropped before their text is read), cross-validated leaving one family out:
each template or batch of notes is scored by a model fitted without it. The script prints the model alone, the
rules alone and the two combined (the model's probability as one more noisy-OR weight, nothing below 0.6,
rising to 0.5 at 1). docs/security.md ("Measured rates") reports the result and why the model is not shipped.

    PYTHONPATH=src .venv/bin/python benchmarks/injection/ngram_experiment.py
"""

from __future__ import annotations

import itertools
import json
import math
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tiermem.trust.patterns import noisy_or
from tiermem.trust.scorer import score_text

CORPUS = Path(__file__).resolve().parent / "corpus.jsonl"
BUCKETS = 1 << 14
L2 = 1e-3
STEPS = 400
RATE = 0.05
FLOOR = 0.6  # below this probability the model adds nothing
TOP = 0.5  # the weight it adds at probability 1

_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\w\s]")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def tokens(text: str) -> list[str]:
    """Words (digits folded to one token), punctuation marks, and each CJK character on its own."""
    out: list[str] = []
    for token in _TOKEN.findall(text.casefold()):
        if token.isdigit():
            out.append("0")
        elif _CJK.search(token):
            out.extend(token)
        else:
            out.append(token)
    return out


def features(text: str, buckets: int) -> dict[int, float]:
    """Hashed unigrams and bigrams of ``text``, each present once, scaled to unit length."""
    marked = ["<s>", *tokens(text), "</s>"]
    grams = set(marked[1:-1])
    grams.update(f"{a} {b}" for a, b in itertools.pairwise(marked))
    if not grams:
        return {}
    scale = 1.0 / math.sqrt(len(grams))
    out: dict[int, float] = {}
    for gram in grams:
        bucket = zlib.crc32(gram.encode("utf-8", "surrogatepass")) % buckets
        out[bucket] = out.get(bucket, 0.0) + scale
    return out


def weight_of(probability: float) -> float:
    """The noisy-OR weight the model would add for a probability."""
    return 0.0 if probability < FLOOR else TOP * (probability - FLOOR) / (1.0 - FLOOR)


def dev_notes(path: Path) -> list[dict[str, str]]:
    """The dev notes of the corpus; holdout rows are dropped before their text is used."""
    rows = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["split"] == "dev":
                rows.append(row)
    return rows


@dataclass(frozen=True, slots=True)
class Sparse:
    """A sparse feature matrix as coordinate lists: row, bucket and value of every present n-gram."""

    rows: npt.NDArray[np.int64]
    cols: npt.NDArray[np.int64]
    vals: npt.NDArray[np.float64]
    n: int

    def times(self, w: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """X @ w."""
        return np.bincount(self.rows, weights=self.vals * w[self.cols], minlength=self.n)

    def transposed_times(self, g: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """X.T @ g."""
        return np.bincount(self.cols, weights=self.vals * g[self.rows], minlength=BUCKETS)

    def subset(self, keep: npt.NDArray[np.bool_]) -> Sparse:
        """The rows where ``keep`` is true, renumbered."""
        index = np.cumsum(keep) - 1
        pick = keep[self.rows]
        return Sparse(index[self.rows[pick]], self.cols[pick], self.vals[pick], int(keep.sum()))


def matrix(texts: list[str]) -> Sparse:
    """The feature matrix (notes by buckets)."""
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for i, text in enumerate(texts):
        for bucket, value in features(text, BUCKETS).items():
            rows.append(i)
            cols.append(bucket)
            vals.append(value)
    return Sparse(np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64), np.array(vals), len(texts))


def fit(x: Sparse, y: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], float]:
    """Logistic regression by full-batch Adam with an L2 penalty; classes weighted equally."""
    w = np.zeros(BUCKETS, dtype=np.float64)
    b = 0.0
    pos = max(1.0, float(y.sum()))
    neg = max(1.0, float(len(y) - y.sum()))
    sample = np.where(y > 0, 0.5 / pos, 0.5 / neg).astype(np.float64)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    mb = vb = 0.0
    for step in range(1, STEPS + 1):
        p = 1.0 / (1.0 + np.exp(-(x.times(w) + b)))
        g = (p - y) * sample
        gw = x.transposed_times(g) + L2 * w
        gb = float(g.sum())
        m = 0.9 * m + 0.1 * gw
        v = 0.999 * v + 0.001 * gw * gw
        mb = 0.9 * mb + 0.1 * gb
        vb = 0.999 * vb + 0.001 * gb * gb
        c1 = 1 - 0.9**step
        c2 = 1 - 0.999**step
        w -= RATE * (m / c1) / (np.sqrt(v / c2) + 1e-8)
        b -= RATE * (mb / c1) / (np.sqrt(vb / c2) + 1e-8)
    return w, b


def probabilities(x: Sparse, w: npt.NDArray[np.float64], b: float) -> npt.NDArray[np.float64]:
    """The model's probability for each row."""
    return np.asarray(1.0 / (1.0 + np.exp(-(x.times(w) + b))), dtype=np.float64)


def cross_validate(rows: list[dict[str, str]], x: Sparse, y: npt.NDArray[np.float64]) -> None:
    """Leave one family out: print rates of the model alone and of the rules with and without it."""
    families = sorted({row["family"] for row in rows})
    oof = np.zeros(len(rows), dtype=np.float64)
    for family in families:
        held = np.array([row["family"] == family for row in rows])
        w, b = fit(x.subset(~held), y[~held])
        oof[held] = probabilities(x.subset(held), w, b)
    rules = np.array([score_text(row["text"])[0] for row in rows], dtype=np.float64)
    both = np.array([noisy_or((r, weight_of(float(p)))) for r, p in zip(rules, oof, strict=True)])
    hostile = y > 0
    for name, score in (("model alone (p>=0.5)", oof * 1.0), ("rules", rules), ("rules + model", both)):
        detection = float((score[hostile] >= 0.5).mean())
        fp = float((score[~hostile] >= 0.5).mean())
        suspicious = float((score[~hostile] >= 0.3).mean())
        print(f"{name:22s} detection {detection:.3f}  false positives {fp:.4f}  benign suspicious {suspicious:.3f}")
    print("per technique, rules + model (leave one family out):")
    for label, technique in sorted({(row["label"], row["technique"]) for row in rows}):
        pick = np.array([(row["label"], row["technique"]) == (label, technique) for row in rows])
        rate = float((both[pick] >= 0.5).mean())
        print(f"  {label:8s}{technique:16s}{int(pick.sum()):5d}  {rate:.3f}")
    for family in families:
        pick = np.array([row["family"] == family for row in rows])
        if "more" in family or "later" in family:
            rate = float((both[pick] >= 0.5).mean())
            before = float((rules[pick] >= 0.5).mean())
            print(f"  {family:28s}{int(pick.sum()):5d}  rules {before:.3f}  rules + model {rate:.3f}")


def main() -> int:
    rows = dev_notes(CORPUS)
    x = matrix([row["text"] for row in rows])
    y = np.array([1.0 if row["label"] == "hostile" else 0.0 for row in rows], dtype=np.float64)
    cross_validate(rows, x, y)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
