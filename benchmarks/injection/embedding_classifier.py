"""A learned injection signal on sentence embeddings: cross-validated on dev, then (once) scored on the holdout.

A logistic regression on the MiniLM vector of a note (the vector tiermem computes for every note it stores),
or with ``--model e5`` on the multilingual e5 vector (the signal for text in other languages), trained with numpy
on the corpus's ``dev`` split and on the first red-team rounds (``fresh/`` to ``fresh5/``: their notes and clean
documents, each family its own); holdout rows are dropped before their text
is read, unless ``--holdout`` asks for the final figure. A note's probability is the highest over its whole-text vector
and its sentence (passage) vectors, so an order in the middle of a long text is seen alone (``--whole-only``
scores the whole text alone: on dev cross-validation it caught one note fewer at the same false positives).

Cross-validation leaves one family out (each template or fresh batch is scored by a model fitted without it),
so the estimate is for phrasing the model has not seen. For each L2 penalty it picks the lowest probability
threshold at which the model adds at most ``--max-fpr`` of dev's benign notes to what the rules flag, and
prints detection per technique and on the fresh batches (``more``/``later``).

    PYTHONPATH=src .venv/bin/python benchmarks/injection/embedding_classifier.py            # dev CV
    PYTHONPATH=src .venv/bin/python benchmarks/injection/embedding_classifier.py --holdout  # the final figure
    PYTHONPATH=src .venv/bin/python benchmarks/injection/embedding_classifier.py --write    # the shipped weights
    PYTHONPATH=src .venv/bin/python benchmarks/injection/embedding_classifier.py --check    # exit 1 if stale
    PYTHONPATH=src .venv/bin/python benchmarks/injection/embedding_classifier.py --check-inputs  # inputs only
    PYTHONPATH=src .venv/bin/python benchmarks/injection/embedding_classifier.py --across   # each round unseen
    PYTHONPATH=src .venv/bin/python benchmarks/injection/embedding_classifier.py --model e5 --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tiermem.embed import E5Embedder, Embedder, MiniLMEmbedder
from tiermem.recall.passages import embed_with_passages
from tiermem.trust.scorer import score_text
from tiermem.write.scan_foreign import foreign_lines, foreign_parts

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus.jsonl"
# The first red-team rounds, scored once and now dev: their notes and clean documents are training rows too, each
# family of a round its own family, so leaving one family out also scores every round's family unseen.
# Later rounds (and the orders planted in their documents), added as training rows, caught no more of a round
# written after them and quarantined more of its benign notes (in other languages, addressed to an assistant).
ROUNDS = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5")
ROUND_FILES = (
    ("hostile.jsonl", "hostile", "family"),
    ("benign.jsonl", "benign", "family"),
    ("documents_clean.jsonl", "benign", "kind"),
)
PENALTIES = (0.3, 1.0, 3.0, 10.0, 30.0)
MAX_FPR = 0.01
RULES_AT = 0.5
DIGITS = 6  # the weights file keeps this many decimals
TOLERANCE = 1e-4  # how far a rebuilt weight may be from the file's
DATA = Path(__file__).resolve().parents[2] / "src" / "tiermem" / "data"
MODELS: dict[str, type[Embedder]] = {"minilm": MiniLMEmbedder, "e5": E5Embedder}

Array = npt.NDArray[np.float64]
Read = list[tuple[bool, npt.NDArray[np.bool_]]]  # per note: whether its whole text and which passages are read


def reads(rows: list[dict[str, str]], model: str) -> Read | None:
    """What the deployed model reads of each note: beside MiniLM, with e5, the parts that do not look English
    (``write.scan.foreign_parts``), so the threshold is chosen for what it will see; MiniLM is fitted on all of it
    (deployed, it reads the parts that look English, which can only lower a note's probability)."""
    if model != "e5":
        return None
    out: Read = []
    for row in rows:
        own, marked = foreign_parts(row["text"])
        lines = foreign_lines(row["text"])  # read one by one after the passages (``embed`` appends them)
        out.append((own, np.array([*marked, *([True] * len(lines))], dtype=bool)))
    return out


def notes(path: Path, splits: tuple[str, ...]) -> list[dict[str, str]]:
    """The notes of the corpus in ``splits``; others are dropped before their text is used."""
    out = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["split"] in splits:
                out.append(row)
    return out


def round_notes() -> list[dict[str, str]]:
    """The red-team rounds' notes and clean documents as corpus rows (dev), families named by round."""
    out = []
    for folder in ROUNDS:
        for name, label, group in ROUND_FILES:
            with (HERE / folder / name).open(encoding="utf-8") as handle:
                for line in handle:
                    if line.strip():
                        row = json.loads(line)
                        family = f"{folder}/{'documents' if group == 'kind' else row[group]}"
                        out.append(
                            {
                                "text": row["text"],
                                "label": label,
                                "technique": family,
                                "family": family,
                                "language": "",
                                "split": "dev",
                            }
                        )
    return out


def embed(rows: list[dict[str, str]], cache: Path | None, model: str = "minilm") -> tuple[Array, list[Array]]:
    """Each note's vector and its passage vectors (none for one sentence), made as the write path makes them; with
    e5, each note's lines in other languages (``write.scan.foreign_lines``) follow its passages, as it reads them."""
    texts = [row["text"] for row in rows]
    lines = [foreign_lines(t) if model == "e5" else () for t in texts]
    flat_lines = [line for found in lines for line in found]
    digest = hashlib.sha256(
        "\x00".join([model, *texts, "\x01", *flat_lines]).encode("utf-8", "surrogatepass")
    ).hexdigest()
    if cache is not None and cache.exists() and str(np.load(cache)["digest"]) == digest:
        stored = np.load(cache)
        whole = np.asarray(stored["whole"], dtype=np.float64)
        flat, counts = np.asarray(stored["flat"], dtype=np.float64), stored["counts"].tolist()
    else:
        # The write path's own function: a multi-sentence note's vector is the mean of its passages' vectors.
        embedder = MODELS[model]()
        vectors, parts = embed_with_passages(embedder, texts)
        line_vectors = embedder.embed_batch(flat_lines) if flat_lines else None
        counts, found, start = [], [], 0
        for p, own_lines in zip(parts, lines, strict=True):
            block = [] if p is None else [p]
            if own_lines:
                assert line_vectors is not None
                block.append(line_vectors[start : start + len(own_lines)])
                start += len(own_lines)
            counts.append(sum(len(b) for b in block))
            found.extend(block)
        flat32 = np.concatenate(found) if found else np.zeros((0, vectors.shape[1]), dtype=np.float32)
        if cache is not None:
            np.savez(cache, digest=np.array(digest), whole=vectors, flat=flat32, counts=np.array(counts))
        whole = np.asarray(vectors, dtype=np.float32).astype(np.float64)  # as stored: the same with or without
        flat = np.asarray(flat32, dtype=np.float32).astype(np.float64)
    windows: list[Array] = []
    start = 0
    for count in counts:
        windows.append(flat[start : start + count])
        start += count
    return whole, windows


def fit(x: Array, y: Array, penalty: float, start: Array | None = None, steps: int = 30) -> tuple[Array, float]:
    """L2-penalised logistic regression by Newton's method, both classes weighted equally (deterministic)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    pos = max(1.0, float(y.sum()))
    neg = max(1.0, float(n - y.sum()))
    sample = np.where(y > 0, 0.5 * n / pos, 0.5 * n / neg)
    reg = np.full(d + 1, penalty)
    reg[-1] = 0.0  # the bias is not penalised
    w = np.zeros(d + 1) if start is None else start.copy()
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ ((p - y) * sample) + reg * w
        hess = (xb.T * (p * (1 - p) * sample)) @ xb + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-6:
            break
    return w[:-1], float(w[-1])


def with_benign_passages(
    whole: Array, windows: list[Array], y: Array, keep: npt.NDArray[np.bool_]
) -> tuple[Array, Array]:
    """The kept notes' vectors and labels, and each kept benign note's passage vectors as more benign rows.

    The model scores a note by its most hostile passage, so a receipt's lone line ("Payment received on 12 March")
    must be seen as benign in training too; a hostile note's passages are not all hostile, so only benign ones.
    """
    extra = [windows[i] for i in np.flatnonzero(keep & (y == 0)) if len(windows[i])]
    x = np.vstack([whole[keep], *extra]) if extra else whole[keep]
    labels = np.concatenate([y[keep], np.zeros(sum(len(v) for v in extra))])
    return x, labels


def probability(
    whole: Array, windows: list[Array], w: Array, b: float, use_windows: bool, read: Read | None = None
) -> Array:
    """The model's probability per note: of its whole text, or the highest of that and its passages; with ``read``,
    the highest over the parts it marks (none read: probability 0)."""
    logits = whole @ w + b
    if read is not None:
        seen = [
            ([float(z)] if own else []) + ([float(x) for x in v[marked] @ w + b] if len(v) else [])
            for z, v, (own, marked) in zip(logits, windows, read, strict=True)
        ]
        logits = np.array([max(parts) if parts else -np.inf for parts in seen])
    elif use_windows:
        logits = np.array(
            [max(z, float((v @ w + b).max())) if len(v) else z for z, v in zip(logits, windows, strict=True)]
        )
    return np.asarray(1.0 / (1.0 + np.exp(-logits)), dtype=np.float64)


def out_of_family(
    rows: list[dict[str, str]],
    whole: Array,
    windows: list[Array],
    penalty: float,
    use_windows: bool,
    read: Read | None = None,
) -> Array:
    """Each note's probability from a model fitted without its family."""
    y = np.array([row["label"] == "hostile" for row in rows], dtype=np.float64)
    families = np.array([row["family"] for row in rows])
    oof = np.zeros(len(rows))
    w_all, b_all = fit(*with_benign_passages(whole, windows, y, np.ones(len(rows), dtype=bool)), penalty)
    start = np.append(w_all, b_all)  # each fold starts from the full fit: a few Newton steps, same optimum
    for family in sorted(set(families)):
        held = families == family
        w, b = fit(*with_benign_passages(whole, windows, y, ~held), penalty, start)
        pick = np.flatnonzero(held)
        part = None if read is None else [read[i] for i in pick]
        oof[held] = probability(whole[held], [windows[i] for i in pick], w, b, use_windows, part)
    return oof


def lowest_threshold(rules: Array, prob: Array, hostile: Array, max_fpr: float) -> float:
    """The lowest probability threshold at which the model adds at most ``max_fpr`` of benign notes to what the
    rules flag (the rules' own false alarms are theirs to fix: counted against the model, they leave it no room)."""
    benign = ~hostile
    allowed = int((rules[benign] >= RULES_AT).sum()) + int(np.floor(max_fpr * benign.sum()))
    for t in np.round(np.arange(0.50, 1.0, 0.01), 2):
        flagged = (rules[benign] >= RULES_AT) | (prob[benign] >= t)
        if int(flagged.sum()) <= allowed:
            return float(t)
    return 1.0


def sure_alone(rows: list[dict[str, str]], prob: Array, read: Read, threshold: float, max_fpr: float) -> float:
    """The lowest probability, from the threshold up, that at most ``max_fpr`` of the benign notes e5 reads (those
    with a part in another language) reach: where one line of a document read alone stands for an order.

    Chosen with the model, so that a rebuild whose penalty shrinks or spreads the probabilities keeps the share of
    benign text a line alone flags.
    """
    benign = np.array(
        [
            row["label"] != "hostile" and (own or bool(marked.any()))
            for row, (own, marked) in zip(rows, read, strict=True)
        ]
    )
    for t in np.round(np.arange(threshold, 1.0, 0.01), 2):
        if (prob[benign] >= t).mean() <= max_fpr:
            return float(t)
    return 1.0


def auc(score: Array, hostile: npt.NDArray[np.bool_]) -> float:
    """The chance that a hostile note scores above a benign one (ties count half)."""
    pos, neg = score[hostile], score[~hostile]
    above = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(above / (len(pos) * len(neg)))


def report(name: str, rows: list[dict[str, str]], flagged: Array) -> None:
    """Detection and false-positive rates, overall and per technique, and on the fresh batches."""
    hostile = np.array([row["label"] == "hostile" for row in rows])
    print(
        f"{name}: detection {flagged[hostile].mean():.3f} ({int(flagged[hostile].sum())}/{int(hostile.sum())})"
        f"  false positives {flagged[~hostile].mean():.4f} ({int(flagged[~hostile].sum())}/{int((~hostile).sum())})"
    )
    for technique in sorted({row["technique"] for row in rows if row["label"] == "hostile"}):
        pick = hostile & np.array([row["technique"] == technique for row in rows])
        print(f"    {technique:14s}{int(pick.sum()):5d}  {flagged[pick].mean():.3f}")
    fresh = hostile & np.array([("/more-" in row["family"] or "/later-" in row["family"]) for row in rows])
    later = hostile & np.array(["/later-" in row["family"] for row in rows])
    general = np.array(["/general" in row["family"] for row in rows])
    for label in ("hostile", "benign"):
        pick = general & (hostile if label == "hostile" else ~hostile)
        if pick.any():
            what = "caught" if label == "hostile" else "flagged"
            print(f"    generalisation round, {label} {int(pick.sum())}: {what} {flagged[pick].mean():.3f}")
    if fresh.any():
        print(
            f"    fresh batches (more+later) {int(fresh.sum())}: {flagged[fresh].mean():.3f};"
            f" later {int(later.sum())}: {flagged[later].mean():.3f}"
        )


def choose(
    rows: list[dict[str, str]],
    whole: Array,
    windows: list[Array],
    rules: Array,
    use_windows: bool,
    max_fpr: float,
    read: Read | None = None,
) -> tuple[float, float, Array]:
    """Penalty and threshold with the most dev notes caught, leaving one family out, at most ``max_fpr`` flagged.

    Also returns the chosen penalty's out-of-family probabilities (each note scored by a model fitted without its
    family), for the per-family report.
    """
    hostile = np.array([row["label"] == "hostile" for row in rows])
    best: tuple[int, int, float, float] | None = None  # (caught, -false positives, penalty, threshold)
    best_oof = np.zeros(len(rows))
    for penalty in PENALTIES:
        oof = out_of_family(rows, whole, windows, penalty, use_windows, read)
        t = lowest_threshold(rules, oof, hostile, max_fpr)
        print(f"\npenalty {penalty}: model alone, area under the ROC curve {auc(oof, hostile):.3f}")
        print(
            f"penalty {penalty}, threshold {t} (model alone at it: detection {(oof[hostile] >= t).mean():.3f},"
            f" fp {(oof[~hostile] >= t).mean():.4f})"
        )
        flagged = (rules >= RULES_AT) | (oof >= t)
        report("  rules OR model, leave one family out", rows, flagged)
        key = (int(flagged[hostile].sum()), -int(flagged[~hostile].sum()), penalty, t)
        if best is None or key[:2] > best[:2]:
            best, best_oof = key, oof
    assert best is not None
    print(f"\nchosen on dev cross-validation: penalty {best[2]}, threshold {best[3]}, windows {use_windows}")
    return best[2], best[3], best_oof


def by_family(rows: list[dict[str, str]], rules: Array, oof: Array, threshold: float) -> None:
    """Per family, each scored by a model fitted without it: the rules, the model alone, and the two together.

    The rules were written against dev (no family was hidden from them), so their column is in-sample; the
    model's columns are the leave-one-family-out estimate.
    """
    print(f"\nleave one family out, threshold {threshold} (hostile: caught; benign: quarantined)")
    print(f"  {'family':34s} {'label':8s} {'n':>4s}  {'rules':>6s} {'model':>6s} {'either':>6s}")
    for family, label in dict.fromkeys((row["family"], row["label"]) for row in rows):
        pick = np.array([row["family"] == family and row["label"] == label for row in rows])
        r, m = rules[pick] >= RULES_AT, oof[pick] >= threshold
        print(f"  {family:34s} {label:8s} {int(pick.sum()):4d}  {r.mean():6.3f} {m.mean():6.3f} {(r | m).mean():6.3f}")


def across_rounds(
    rows: list[dict[str, str]],
    whole: Array,
    windows: list[Array],
    rules: Array,
    shipped: dict[str, Any],
    read: Read | None = None,
) -> None:
    """Each red-team round scored as a new round would be: by a model fitted on the corpus and the other rounds.

    The shipped penalty and threshold, and the same with no round in the training; hostile notes caught, benign
    notes and clean documents quarantined (rules OR model).
    """
    y = np.array([row["label"] == "hostile" for row in rows], dtype=np.float64)
    of = np.array([row["family"].split("/")[0] if row["family"].startswith("fresh") else "" for row in rows])
    penalty, t = float(shipped["penalty"]), float(shipped["threshold"])
    for held in ROUNDS:
        test = of == held
        for name, train in (("the corpus alone", of == ""), ("the corpus and the other rounds", ~test)):
            w, b = fit(*with_benign_passages(whole, windows, y, train), penalty)
            prob = probability(whole, windows, w, b, True, read)
            out = (rules >= RULES_AT) | (prob >= t)
            hostile, benign = test & (y > 0), test & (y == 0)
            print(
                f"{held} from {name} (penalty {penalty}, threshold {t}): hostile caught {out[hostile].mean():.3f}"
                f" (rules {(rules >= RULES_AT)[hostile].mean():.3f}), benign quarantined {out[benign].mean():.3f}"
                f" (rules {(rules >= RULES_AT)[benign].mean():.3f})"
            )


def inputs_digest(rows: list[dict[str, str]], rules: Array, read: Read | None, model: str) -> str:
    """A digest of what the weights are built from: this script, the settings, each row with its label, family and
    the rules' verdict (the threshold is chosen beside them), and what e5 reads of it; not the vectors."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(repr((MODELS[model].fingerprint, PENALTIES, MAX_FPR, RULES_AT)).encode())
    for i, row in enumerate(rows):
        seen = "" if read is None else f"{read[i][0]}:{read[i][1].tolist()}"
        digest.update(f"\x00{row['label']}\x01{row['family']}\x01{rules[i] >= RULES_AT}\x01{seen}\x01".encode())
        digest.update(row["text"].encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def weights_file(
    rows: list[dict[str, str]],
    whole: Array,
    windows: list[Array],
    penalty: float,
    threshold: float,
    model: str,
    inputs: str,
    alone: float | None = None,
) -> dict[str, Any]:
    """What ``tiermem/data/injection-<model>.json`` holds: the model fitted on all of dev, rounded for the file."""
    y = np.array([row["label"] == "hostile" for row in rows], dtype=np.float64)
    w, b = fit(*with_benign_passages(whole, windows, y, np.ones(len(rows), dtype=bool)), penalty)
    return {
        "about": f"injection classifier on {model} vectors; rebuilt by benchmarks/injection/embedding_classifier.py",
        "model": MODELS[model].fingerprint,
        "trained_on": f"dev split of benchmarks/injection/corpus.jsonl and the red-team rounds {', '.join(ROUNDS)}:"
        f" {len(rows)} notes and benign notes' passages",
        "inputs": inputs,
        "penalty": penalty,
        "threshold": threshold,
        **({} if alone is None else {"alone": alone}),
        "bias": round(b, DIGITS),
        "weights": [round(float(v), DIGITS) for v in w],
    }


def matches(built: dict[str, Any], shipped: dict[str, Any]) -> bool:
    """Same settings, and weights equal to the file's rounding (the model's float32 sums vary in the last bits)."""
    same = {k: v for k, v in built.items() if k not in ("bias", "weights")}
    if same != {k: v for k, v in shipped.items() if k not in ("bias", "weights")}:
        return False
    a = np.array([built["bias"], *built["weights"]])
    b = np.array([shipped["bias"], *shipped["weights"]])
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=0, atol=TOLERANCE))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holdout", action="store_true", help="Fit on all of dev and score the holdout (once).")
    parser.add_argument("--whole-only", action="store_true", help="Score whole texts only, not their passages.")
    parser.add_argument("--max-fpr", type=float, default=MAX_FPR)
    parser.add_argument("--cache", type=Path, help="Keep the vectors in this .npz file between runs.")
    parser.add_argument("--families", action="store_true", help="Print the leave-one-family-out figures per family.")
    parser.add_argument("--model", choices=sorted(MODELS), default="minilm", help="The embedder the model reads.")
    parser.add_argument("--write", action="store_true", help="Write the shipped weights (injection-<model>.json).")
    parser.add_argument("--check", action="store_true", help="Exit 1 if the shipped weights are not what this builds.")
    parser.add_argument("--across", action="store_true", help="Score each round by a model fitted without it.")
    parser.add_argument(
        "--check-inputs", action="store_true", help="Exit 1 if the weights were built from other data (no model run)."
    )
    args = parser.parse_args()
    weights = DATA / f"injection-{args.model}.json"
    rows = notes(CORPUS, ("dev",)) + round_notes()
    read = reads(rows, args.model)
    rules = np.array([score_text(row["text"])[0] for row in rows])
    inputs = inputs_digest(rows, rules, read, args.model)
    if args.check_inputs:
        same = json.loads(weights.read_text(encoding="utf-8")).get("inputs") == inputs
        print(f"{weights.name}: {'inputs up to date' if same else 'STALE: rebuild with --write'}")
        return 0 if same else 1
    whole, windows = embed(rows, args.cache, args.model)
    if args.across:
        across_rounds(rows, whole, windows, rules, json.loads(weights.read_text(encoding="utf-8")), read)
        return 0
    report("rules alone (dev)", rows, rules >= RULES_AT)
    penalty, t, oof = choose(rows, whole, windows, rules, not args.whole_only, args.max_fpr, read)
    if args.families:
        by_family(rows, rules, oof, t)
    alone = None if read is None else sure_alone(rows, oof, read, t, args.max_fpr)
    if alone is not None:
        print(f"a document's line read alone counts from probability {alone}")
    built = weights_file(rows, whole, windows, penalty, t, args.model, inputs, alone)
    if args.write:
        weights.write_text(json.dumps(built, indent=1) + "\n", encoding="utf-8")
    if args.check:
        same = matches(built, json.loads(weights.read_text(encoding="utf-8")))
        print(f"{weights.name}: {'up to date' if same else 'STALE: rebuild with --write'}")
        if not same:
            return 1
    if not args.holdout:
        return 0
    w, b = np.array(built["weights"]), float(built["bias"])
    held = notes(CORPUS, ("holdout",))
    started = time.perf_counter()
    h_whole, h_windows = embed(held, None, args.model)
    seconds = time.perf_counter() - started
    count = len(held) + sum(len(v) for v in h_windows)
    print(
        f"\nholdout: {len(held)} notes, {count} model inputs (notes and passages) embedded in {seconds:.2f} s:"
        f" {1000 * seconds / len(held):.1f} ms a note (the model's load included)"
    )
    h_rules = np.array([score_text(row["text"])[0] for row in held])
    h_prob = probability(h_whole, h_windows, w, b, not args.whole_only, reads(held, args.model))
    report("rules alone (holdout)", held, h_rules >= RULES_AT)
    report("rules OR model (holdout)", held, (h_rules >= RULES_AT) | (h_prob >= t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
