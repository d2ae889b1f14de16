"""Knowledge update: facts, then a newer contradicting fact; the top answer must be the newer one."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tiermem.errors import ValidationError
from tiermem.eval.metrics import Averager, percentile
from tiermem.memory import Memory, NewMemory
from tiermem.types import MemoryType, Scope

__all__ = ["UpdateItem", "UpdateResult", "iter_update_items", "parse_update_item", "run_update", "score_hits"]

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


def score_hits(
    hit_ids: Sequence[str], top_content: str | None, new_id: str, stale_ids: set[str], ground_truth: str
) -> dict[str, float]:
    """top1 (the top hit contains the answer), new_top1 (it is the newer fact), stale_above_new."""
    stale = stale_ids - {new_id}
    rank: dict[str, int] = {}
    for position, record_id in enumerate(hit_ids):
        rank.setdefault(record_id, position)
    # A superseded fact that is retrieved while the newer one is not counts as ranked above it.
    new_rank = rank.get(new_id, len(hit_ids))
    best_stale = min((rank[s] for s in stale if s in rank), default=len(hit_ids))
    return {
        "top1_accuracy": float(top_content is not None and ground_truth.casefold() in top_content.casefold()),
        "new_top1_rate": float(bool(hit_ids) and hit_ids[0] == new_id),
        "stale_above_new_rate": float(best_stale < new_rank),
    }


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """Top-1 accuracy and how often a superseded fact outranks the newer one."""

    n: int
    scores: Mapping[str, float]
    ingest_seconds: float
    query_ms: tuple[float, ...] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON report: ``n``, ``top1_accuracy``, ``stale_above_new_rate``, ``new_top1_rate``, timings."""
        return {
            "n": self.n,
            **self.scores,
            "timing": {
                "ingest_seconds": self.ingest_seconds,
                "query_ms_p50": percentile(self.query_ms, 50) if self.query_ms else None,
                "query_ms_p95": percentile(self.query_ms, 95) if self.query_ms else None,
            },
        }


def run_update(
    memory: Memory,
    items: Iterator[UpdateItem],
    *,
    k: int = 20,
    tenant: str = "eval",
    limit: int | None = None,
    on_item: Callable[[], None] | None = None,
) -> UpdateResult:
    """Write each item's facts in order, then the contradicting fact, then ask; score the ranking."""

    averager = Averager()
    query_ms: list[float] = []
    ingest_seconds = 0.0
    for index, item in enumerate(items):
        if limit is not None and index >= limit:
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
        new_id = memory.remember(
            scope,
            item.contradicting_fact,
            type=MemoryType.SEMANTIC,
            source="user",
            valid_from=BASE_TIME + len(item.facts) * STEP,
        ).record.id
        ingest_seconds += time.perf_counter() - started
        started = time.perf_counter()
        hits = memory.recall(scope, item.question, k=k)
        query_ms.append((time.perf_counter() - started) * 1000)
        scores = score_hits(
            [hit.record.id for hit in hits],
            hits[0].record.content if hits else None,
            new_id,
            {ids[i] for i in item.superseded},
            item.ground_truth,
        )
        averager.add("all", scores)
        if on_item is not None:
            on_item()
    return UpdateResult(averager.count(), averager.means(), ingest_seconds, tuple(query_ms))
