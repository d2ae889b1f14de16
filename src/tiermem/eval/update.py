"""(internal) Knowledge update: facts, then a newer contradicting fact; the top answer must be the newer one.

Each item's ten facts are written in order, then the contradicting fact as a later write through the real
write path (so the detector may close the facts it replaces), then the question is recalled. Metrics:

- ``new_top1_rate``: the top hit is the newer fact. The main figure: it cannot be met by a stale fact.
- ``top1_accuracy``: the top hit contains the ground truth and is not a superseded fact (in 14 of the 300
  items a superseded fact names the answer too), compared after normalising both (Unicode NFKC, casefold, quotes
  and punctuation as spaces, whitespace collapsed; whole words, a plural ending allowed). About a fifth of the
  ground truths are a judge's paraphrase ("zero", "English only") found in no fact, which caps this figure;
  ``top1_accuracy_answerable`` is the same over only the items whose newer fact contains the ground truth.
- ``stale_above_new_rate``: a fact the newer one supersedes is ranked above it (or retrieved without it).
- ``supersession_precision`` / ``supersession_recall``: of the facts the write path closed (by the newer
  fact, or among the ten facts, which never contradict each other), how many the data says are superseded;
  and how many of those it closed. Recall may stay low: ranking puts the newer fact first without closing.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tiermem.errors import ValidationError
from tiermem.eval.metrics import Averager, latency_json
from tiermem.memory import Memory, NewMemory
from tiermem.types import MemoryType, Scope

__all__ = [
    "UpdateItem",
    "UpdateResult",
    "contains_answer",
    "iter_update_items",
    "parse_update_item",
    "run_update",
    "score_hits",
]

# Facts are written one minute apart from this instant; the contradicting fact comes last.
BASE_TIME = datetime(2024, 1, 1, tzinfo=UTC)
STEP = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class UpdateItem:
    """One item: the facts in write order, the newer contradicting fact, the question and its answer."""

    question: str
    ground_truth: str
    facts: tuple[str, ...]
    contradicting_fact: str
    superseded: tuple[int, ...]


def _unquote(text: str) -> str:
    # A few contradicting facts arrive wrapped in literal double quotes.
    text = text.strip()
    return text[1:-1].strip() if len(text) >= 2 and text[0] == text[-1] == '"' else text


def parse_update_item(raw: Mapping[str, Any], where: str = "item") -> UpdateItem:
    """Build an UpdateItem from one raw line (letta-evals core_memory_update layout)."""
    try:
        extra = raw["agent_args"]["extra"]
        facts = tuple(str(f) for f in extra["facts"])
        superseded = tuple(int(i) for i in extra["supporting_fact_indices"])
        item = UpdateItem(
            question=str(raw["input"]),
            ground_truth=str(raw["ground_truth"]),
            facts=facts,
            contradicting_fact=_unquote(str(extra["contradicting_fact"])),
            superseded=superseded,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValidationError(where, f"is not a knowledge-update item (missing or malformed {exc})") from None
    bad = [i for i in superseded if not 0 <= i < len(facts)]
    if bad:
        field_name = f"{where}.supporting_fact_indices"
        raise ValidationError(field_name, "points past the facts", given=bad, limit=len(facts))
    return item


def iter_update_items(path: Path) -> Iterator[UpdateItem]:
    """Stream the items of a JSON Lines file."""
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValidationError(f"{path}:{number}", f"is not valid JSON ({exc.msg})") from None
            if not isinstance(raw, dict):
                raise ValidationError(f"{path}:{number}", "must be a JSON object")
            yield parse_update_item(raw, f"{path}:{number}")


_PUNCTUATION = re.compile(r"[^\w\s]")


def _normalise(text: str) -> str:
    # Quotes and other punctuation separate words on both sides alike ("Ann's" -> "ann s").
    return " ".join(_PUNCTUATION.sub(" ", unicodedata.normalize("NFKC", text).casefold()).split())


def contains_answer(text: str, answer: str) -> bool:
    """``answer`` occurs in ``text`` as whole words (a plural ending allowed), ignoring case and punctuation."""
    needle = _normalise(answer)
    pattern = r"(?<!\w)" + re.escape(needle) + r"(?:e?s)?(?!\w)"
    return bool(needle) and re.search(pattern, _normalise(text)) is not None


def score_hits(
    hit_ids: Sequence[str],
    top_content: str | None,
    new_id: str,
    stale_ids: set[str],
    ground_truth: str,
    new_content: str | None = None,
) -> dict[str, float]:
    """top1 (the top hit contains the answer), new_top1 (it is the newer fact), stale_above_new.

    With ``new_content`` (the newer fact's text), ``top1_accuracy_answerable`` is added when that text
    contains the answer: top-1 accuracy over the items where it can be met.
    """
    stale = stale_ids - {new_id}
    rank: dict[str, int] = {}
    for position, record_id in enumerate(hit_ids):
        rank.setdefault(record_id, position)
    # A superseded fact that is retrieved while the newer one is not counts as ranked above it.
    new_rank = rank.get(new_id, len(hit_ids))
    best_stale = min((rank[s] for s in stale if s in rank), default=len(hit_ids))
    # A superseded fact never counts as the answer, even when it names it ("Ann" in "Ann won in 2020").
    top1 = float(top_content is not None and hit_ids[0] not in stale and contains_answer(top_content, ground_truth))
    scores = {
        "top1_accuracy": top1,
        "new_top1_rate": float(bool(hit_ids) and hit_ids[0] == new_id),
        "stale_above_new_rate": float(best_stale < new_rank),
    }
    if new_content is not None and contains_answer(new_content, ground_truth):
        scores["top1_accuracy_answerable"] = top1
    return scores


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """Top-1 accuracy and how often a superseded fact outranks the newer one."""

    n: int
    scores: Mapping[str, float]
    ingest_seconds: float
    query_ms: tuple[float, ...] = field(repr=False)
    closed_called_for: int = 0  # facts the write path closed that the data supersedes
    closed_not_called_for: int = 0  # facts it closed that the data keeps
    called_for: int = 0  # facts the data supersedes
    answerable_n: int = 0  # items whose newer fact contains the ground truth

    @property
    def supersession(self) -> dict[str, float | int]:
        """Precision and recall of the write path's supersessions, with the counts behind them."""
        closed = self.closed_called_for + self.closed_not_called_for
        return {
            "supersession_precision": self.closed_called_for / closed if closed else 1.0,
            "supersession_recall": self.closed_called_for / self.called_for if self.called_for else 1.0,
            "supersessions_called_for": self.called_for,
            "supersessions_made": closed,
            "supersessions_not_called_for": self.closed_not_called_for,
        }

    def to_json(self) -> dict[str, Any]:
        """The JSON report: ``n``, the scores (see the module docstring), supersession counts, timings."""
        return {
            "n": self.n,
            "top1_accuracy_answerable_n": self.answerable_n,
            **self.scores,
            **self.supersession,
            "timing": {
                "ingest_seconds": self.ingest_seconds,
                **latency_json(self.query_ms),
            },
        }


def run_update(
    memory: Memory,
    items: Iterator[UpdateItem],
    *,
    k: int = 20,
    tenant: str = "eval",
    offset: int = 0,
    limit: int | None = None,
    on_item: Callable[[], None] | None = None,
) -> UpdateResult:
    """Write each item's facts in order, then the contradicting fact, then ask; score the ranking.

    ``offset`` skips that many items first (a held-out range is ``offset`` plus ``limit``).
    """

    averager = Averager()
    query_ms: list[float] = []
    ingest_seconds = 0.0
    closed_called_for = closed_not_called_for = called_for = answerable_n = 0
    for index, item in enumerate(items):
        if index < offset:
            continue
        if limit is not None and index >= offset + limit:
            break
        scope = Scope(tenant, f"update-{index}")
        started = time.perf_counter()
        # The facts go in one batch (in order, one minute apart); the contradicting fact is a later write.
        written = memory.remember_many(
            scope,
            [
                NewMemory(fact, MemoryType.SEMANTIC, "user", valid_from=BASE_TIME + position * STEP)
                for position, fact in enumerate(item.facts)
            ],
        )
        ids = [result.record.id for result in written]
        newer = memory.remember(
            scope,
            item.contradicting_fact,
            type=MemoryType.SEMANTIC,
            source="user",
            valid_from=BASE_TIME + len(item.facts) * STEP,
        )
        new_id = newer.record.id
        ingest_seconds += time.perf_counter() - started
        stale = {ids[i] for i in item.superseded}
        # The ten facts never contradict each other, so a supersession among them is never called for.
        closed = [record_id for result in written for record_id in result.superseded]
        right = stale.intersection(newer.superseded)
        closed_called_for += len(right)
        closed_not_called_for += len(closed) + len(set(newer.superseded) - right)
        called_for += len(stale)
        started = time.perf_counter()
        hits = memory.recall(scope, item.question, k=k)
        query_ms.append((time.perf_counter() - started) * 1000)
        scores = score_hits(
            [hit.record.id for hit in hits],
            hits[0].record.content if hits else None,
            new_id,
            stale,
            item.ground_truth,
            item.contradicting_fact,
        )
        answerable_n += "top1_accuracy_answerable" in scores
        averager.add("all", scores)
        if on_item is not None:
            on_item()
    return UpdateResult(
        averager.count(),
        averager.means(),
        ingest_seconds,
        tuple(query_ms),
        closed_called_for,
        closed_not_called_for,
        called_for,
        answerable_n,
    )
