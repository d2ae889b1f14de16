"""Each red-team round N scored as fresh.py scores it, by classifiers fitted only on the corpus and rounds 1..N-1."""

# Fitted on the corpus dev split and rounds 1..N-1 (hostile and benign notes, clean documents as benign, the lines
# planted in documents as hostile); the threshold is the lowest probability at which, leaving one fold of those rounds
# out (rounds grouped by number modulo --folds), the model adds at most --max-fpr of the held-out benign rows to what
# the rules quarantine. "concat" (both vectors side by side) has no place in the write path: it is scored as the
# rules raised by its probability over the whole text and passages. Vectors and rule scores are cached in --cache.
#   PYTHONPATH=src .venv/bin/python benchmarks/injection/forward.py --variant rules shipped minilm --penalty 1 10

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import embedding_classifier as ec

import tiermem.trust.learned as learned
import tiermem.write.scan_foreign as scan_foreign
from tiermem.embed import E5Embedder, Embedder, EmbedderWrapper, MiniLMEmbedder, Vectors
from tiermem.recall.passages import embed_with_passages
from tiermem.trust.injection import INJECTION_THRESHOLD, SUSPICIOUS_THRESHOLD, injection_score
from tiermem.trust.learned import MULTILINGUAL, WEIGHTS_FILE, LearnedSignal, raise_verdict
from tiermem.trust.scorer import score_text
from tiermem.write.scan import scan_texts
from tiermem.write.scan_foreign import foreign_lines

HERE = Path(__file__).resolve().parent
ROUNDS = 40
SETS = (
    ("hostile", "hostile.jsonl"),
    ("benign", "benign.jsonl"),
    ("planted", "documents_planted.jsonl"),
    ("clean", "documents_clean.jsonl"),
)
Array = ec.Array


def folder(k: int) -> str:
    return "fresh" if k == 1 else f"fresh{k}"


def load(k: int, name: str) -> list[dict[str, str]]:
    path = HERE / folder(k) / name
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def planted_lines(k: int) -> list[str]:
    """The lines each planted document of round ``k`` adds to its clean document."""
    clean = {row["id"]: set(row["text"].splitlines()) for row in load(k, "documents_clean.jsonl")}
    out: dict[str, None] = {}
    for row in load(k, "documents_planted.jsonl"):
        for line in row["text"].splitlines():
            if line.strip() and line not in clean.get(row["doc"], set()):
                out[line.strip()] = None
    return list(out)


def training_rows(planted: bool) -> tuple[list[dict[str, str]], Array]:
    """Corpus dev rows (round 0) and every round's notes, clean documents and planted lines, with their round."""
    rows = ec.notes(ec.CORPUS, ("dev",))
    of = [0] * len(rows)
    for k in range(1, ROUNDS + 1):
        found = [("hostile", r["text"]) for r in load(k, "hostile.jsonl")]
        found += [("benign", r["text"]) for r in load(k, "benign.jsonl") + load(k, "documents_clean.jsonl")]
        found += [("hostile", line) for line in (planted_lines(k) if planted else [])]
        rows += [{"text": t, "label": label, "family": folder(k)} for label, t in found]
        of += [k] * len(found)
    return rows, np.array(of)


class Cached(EmbedderWrapper):
    """An embedder that keeps every vector it made, on disk between runs."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        super().__init__(inner)
        self.path = path
        self.known: dict[str, Vectors] = {}
        if path.exists():
            with path.open("rb") as handle:
                self.known = pickle.load(handle)
        self.added = 0
        self.saved = time.monotonic()

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        missing = list(dict.fromkeys(t for t in texts if t not in self.known))
        for start in range(0, len(missing), 512):
            chunk = missing[start : start + 512]
            self.known.update(zip(chunk, self.inner.embed_batch(chunk), strict=True))
            self.added += len(chunk)
            if time.monotonic() - self.saved > 300:  # rewriting the whole file after every chunk costs more
                self.save()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.known[t] for t in texts]).astype(np.float32)

    def save(self) -> None:
        if self.added:
            with self.path.open("wb") as handle:
                pickle.dump(self.known, handle)
            self.added = 0
        self.saved = time.monotonic()


@dataclass(frozen=True, slots=True)
class Features:
    """Each row's whole-text vector and its passages' (with e5, then its lines in other languages) vectors."""

    whole: Array
    windows: list[Array]
    read: ec.Read | None


def features(rows: list[dict[str, str]], embedder: Cached, model: str) -> Features:
    texts = [row["text"] for row in rows]
    vectors, parts = embed_with_passages(embedder, texts)
    windows = []
    for text, p in zip(texts, parts, strict=True):
        block = [np.zeros((0, embedder.dim), dtype=np.float32) if p is None else p]
        if model == "e5":
            block.append(embedder.embed_batch(list(foreign_lines(text))))
        windows.append(np.concatenate(block).astype(np.float64))
    return Features(vectors.astype(np.float64), windows, ec.reads(rows, model))


def concat(a: Features, b: Features) -> Features:
    """MiniLM's and e5's vectors side by side: the whole text's, and each passage's (not e5's extra lines)."""
    windows = [np.hstack([wa, wb[: len(wa)]]) for wa, wb in zip(a.windows, b.windows, strict=True)]
    return Features(np.hstack([a.whole, b.whole]), windows, None)


def cached_rules(rows: list[dict[str, str]], path: Path) -> Array:
    """The rules' score of each row (``trust.scorer.score_text``), kept on disk by text."""
    known: dict[str, float] = {}
    if path.exists():
        known = json.loads(path.read_text(encoding="utf-8"))
    for row in rows:
        if row["text"] not in known:
            known[row["text"]] = score_text(row["text"])[0]
    path.write_text(json.dumps(known), encoding="utf-8")
    return np.array([known[row["text"]] for row in rows])


def lowest(prob: Array, rules: Array, benign: Array, max_fpr: float) -> float:
    """The lowest threshold (0.01 steps, then 0.001 above 0.99) adding at most ``max_fpr`` of ``benign`` rows."""
    allowed = int(np.floor(max_fpr * benign.sum()))
    free = benign & (rules < ec.RULES_AT)
    for t in [*np.round(np.arange(0.50, 0.99, 0.01), 2), *np.round(np.arange(0.990, 1.0, 0.001), 3)]:
        if int((prob[free] >= t).sum()) <= allowed:
            return float(t)
    return 0.999


def fit(x: Array, y: Array, penalty: float, start: Array | None = None) -> tuple[Array, float]:
    """``embedding_classifier.fit`` with a float32 Hessian and a looser stop (forty rounds of rows, same optimum)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    x32 = xb.astype(np.float32)
    pos, neg = max(1.0, float(y.sum())), max(1.0, float(n - y.sum()))
    sample = np.where(y > 0, 0.5 * n / pos, 0.5 * n / neg)
    reg = np.full(d + 1, penalty)
    reg[-1] = 0.0
    w = np.zeros(d + 1) if start is None else start.copy()
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ ((p - y) * sample) + reg * w
        weighted = x32.T * (p * (1 - p) * sample).astype(np.float32)
        hess = (weighted @ x32).astype(np.float64) + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-4:
            break
    return w[:-1], float(w[-1])


@dataclass(frozen=True, slots=True)
class Fitted:
    weights: Array
    bias: float
    threshold: float
    alone: float


def fit_forward(
    rows: list[dict[str, str]],
    of: Array,
    f: Features,
    rules: Array,
    n: int,
    penalty: float,
    folds: int,
    max_fpr: float,
    start: Array | None = None,
) -> Fitted:
    """Fitted on the corpus and rounds before ``n``; threshold (and e5's ``alone``) from fold-out rounds only."""
    y = np.array([row["label"] == "hostile" for row in rows], dtype=np.float64)
    train = of < n
    w, b = fit(*ec.with_benign_passages(f.whole, f.windows, y, train), penalty, start)
    oof = np.zeros(len(rows))
    rounds = (of >= 1) & train
    for fold in range(folds):
        held = rounds & (of % folds == fold)
        wf, bf = fit(*ec.with_benign_passages(f.whole, f.windows, y, train & ~held), penalty, np.append(w, b))
        pick = np.flatnonzero(held)
        read = None if f.read is None else [f.read[i] for i in pick]
        oof[pick] = ec.probability(f.whole[pick], [f.windows[i] for i in pick], wf, bf, True, read)
    t = lowest(oof, rules, rounds & (y == 0), max_fpr)
    alone = 1.0
    if f.read is not None:
        pick = np.flatnonzero(rounds)
        sub = [rows[i] for i in pick]
        alone = ec.sure_alone(sub, oof[pick], [f.read[i] for i in pick], t, max_fpr)
    return Fitted(w, b, t, alone)


def signal(model: str, fitted: Fitted) -> LearnedSignal:
    embedder = MiniLMEmbedder if model == "minilm" else E5Embedder
    return LearnedSignal(embedder.fingerprint, fitted.weights, fitted.bias, fitted.threshold, fitted.alone)


@dataclass(frozen=True, slots=True)
class Scores:
    """One round's shares: notes quarantined, planted documents flagged, clean documents flagged and quarantined."""

    hostile: float
    benign: float
    planted: float
    clean_flagged: float
    clean_quarantined: float
    note: str = ""


def shares(scores: dict[str, list[float]]) -> Scores:
    def mean(name: str, at: float) -> float:
        found = scores.get(name, [])
        return float(np.mean([s >= at for s in found])) if found else float("nan")

    return Scores(
        mean("hostile", INJECTION_THRESHOLD),
        mean("benign", INJECTION_THRESHOLD),
        mean("planted", SUSPICIOUS_THRESHOLD),
        mean("clean", SUSPICIOUS_THRESHOLD),
        mean("clean", INJECTION_THRESHOLD),
    )


def score_round(n: int, minilm: Cached | None, signals: dict[str, LearnedSignal]) -> Scores:
    """Round ``n`` scored as ``fresh.py`` scores it, with ``signals`` in place of the shipped weights."""
    shipped = learned._read
    learned._read = signals.__getitem__  # type: ignore[assignment]
    try:
        scores = {
            name: [v.score for v in scan_texts([r["text"] for r in load(n, file)], minilm)] for name, file in SETS
        }
    finally:
        learned._read = shipped
    return shares(scores)


def score_concat(n: int, minilm: Cached, e5: Cached, fitted: Fitted) -> Scores:
    """Round ``n``: the rules raised by the side-by-side model's probability over the whole text and its passages."""
    sig = LearnedSignal("concat", fitted.weights, fitted.bias, fitted.threshold)
    scores: dict[str, list[float]] = {}
    for name, file in SETS:
        rows = load(n, file)
        if not rows:
            continue
        a, b = features(rows, minilm, "minilm"), features(rows, e5, "e5")
        f = concat(a, b)
        prob = ec.probability(f.whole, f.windows, fitted.weights, fitted.bias, True)
        scores[name] = [
            raise_verdict(injection_score(r["text"]), p, sig).score for r, p in zip(rows, prob, strict=True)
        ]
    return shares(scores)


def table(results: dict[str, dict[int, Scores]], rounds: list[int]) -> None:
    print(f"{'variant':26s} {'round':>6s} {'host q':>7s} {'ben q':>7s} {'plant f':>8s} {'clean f':>8s} {'clean q':>8s}")
    for name, by_round in results.items():
        rows = [(str(n), by_round[n]) for n in rounds]
        for label, pick in (("31-40", rounds), ("36-40", [n for n in rounds if n >= 36])):
            found = [by_round[n] for n in pick if n in by_round]
            if found and len(pick) > 1:
                rows.append((label, Scores(*(float(np.nanmean([getattr(s, k) for s in found])) for k in FIELDS))))
        for label, s in rows:
            print(
                f"{name:26s} {label:>6s} {s.hostile:7.3f} {s.benign:7.3f} {s.planted:8.3f}"
                f" {s.clean_flagged:8.3f} {s.clean_quarantined:8.3f} {s.note}"
            )


FIELDS = ("hostile", "benign", "planted", "clean_flagged", "clean_quarantined")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, nargs="+", default=list(range(31, 41)))
    parser.add_argument("--variant", nargs="+", default=["rules", "shipped", "minilm", "e5", "both", "concat"])
    parser.add_argument("--penalty", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--max-fpr", type=float, default=0.01)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--no-planted", action="store_true", help="Leave the planted lines out of the training.")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/clf83"))
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    minilm = Cached(MiniLMEmbedder(), args.cache / "minilm.pkl")
    e5 = Cached(E5Embedder(), args.cache / "e5.pkl")
    scan_foreign._multilingual = lambda: e5  # type: ignore[assignment]
    rows, of = training_rows(not args.no_planted)
    tag = hashlib.sha256("\x00".join(r["text"] for r in rows).encode("utf-8", "surrogatepass")).hexdigest()[:8]
    print(f"{len(rows)} training rows ({tag}); rounds {args.rounds}", flush=True)
    rules = cached_rules(rows, args.cache / "rules.json")
    models = {"minilm": ["minilm"], "e5": ["e5"], "both": ["minilm", "e5"], "concat": ["minilm", "e5"]}
    need = {m for v in args.variant for m in models.get(v, [])}
    feats = {}
    if "minilm" in need:
        feats["minilm"] = features(rows, minilm, "minilm")
        minilm.save()
    if "e5" in need:
        feats["e5"] = features(rows, e5, "e5")
        e5.save()
    shipped = {name: learned._read(name) for name in (WEIGHTS_FILE, MULTILINGUAL)}
    results: dict[str, dict[int, Scores]] = {}
    done: dict[tuple[str, int, float], Fitted] = {}
    for variant in args.variant:
        fixed = variant in ("rules", "shipped")
        for penalty in [0.0] if fixed else args.penalty:
            name = variant if fixed else f"{variant} p{penalty:g} fpr{args.max_fpr:g}"
            results[name] = {}
            for n in args.rounds:
                fits: dict[str, Fitted] = {}
                for model in [] if variant == "concat" else models.get(variant, []):
                    if (model, n, penalty) not in done:
                        last = done.get((model, n - 1, penalty))
                        start = None if last is None else np.append(last.weights, last.bias)
                        done[model, n, penalty] = fit_forward(
                            rows, of, feats[model], rules, n, penalty, args.folds, args.max_fpr, start
                        )
                    fits[model] = done[model, n, penalty]
                if variant == "concat":
                    f = concat(feats["minilm"], feats["e5"])
                    last = done.get(("concat", n - 1, penalty))
                    start = None if last is None else np.append(last.weights, last.bias)
                    fitted = fit_forward(rows, of, f, rules, n, penalty, args.folds, args.max_fpr, start)
                    done["concat", n, penalty] = fitted
                    s = score_concat(n, minilm, e5, fitted)
                    note = f"t={fitted.threshold}"
                else:
                    signals = dict(shipped)
                    if "minilm" in fits:
                        signals[WEIGHTS_FILE] = signal("minilm", fits["minilm"])
                    if "e5" in fits:
                        signals[MULTILINGUAL] = signal("e5", fits["e5"])
                    s = score_round(n, None if variant == "rules" else minilm, signals)
                    note = " ".join(f"{m} t={x.threshold} alone={x.alone}" for m, x in fits.items())
                results[name][n] = Scores(*(getattr(s, k) for k in FIELDS), note=note)
                print(f"  {name} round {n}: {results[name][n]}", flush=True)
    minilm.save()
    e5.save()
    table(results, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
