"""(internal) Markdown reports of eval results, with a per-group bar chart when matplotlib is installed."""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tiermem.eval.floor import curve_rows
from tiermem.eval.locomo import LocomoResult
from tiermem.eval.longmemeval import LmeResult
from tiermem.eval.metrics import percentile
from tiermem.eval.update import UpdateResult

__all__ = [
    "NO_PLOT",
    "ReportData",
    "ReportFiles",
    "floor_lines",
    "locomo_report",
    "longmemeval_report",
    "update_report",
    "write_report",
]

NO_PLOT = "Chart skipped: matplotlib is not installed (`pip install 'tiermem[plot]'`)."


@dataclass(frozen=True, slots=True)
class ReportData:
    """What a report shows: overall metrics, the same metrics per group, and which of them to chart."""

    name: str
    title: str
    command: str
    overall: Mapping[str, float]
    n: int
    group_label: str = "category"
    groups: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    group_n: Mapping[str, int] = field(default_factory=dict)
    chart_metrics: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    floor: Mapping[str, Any] | None = None  # FloorTally.to_json(): the relevance floor's figures and curve
    floor_label: str = "off_topic"


def _timing_notes(ingest_seconds: float, query_ms: tuple[float, ...], records: int | None) -> tuple[str, ...]:
    what = f" for {records} turns" if records is not None else ""
    notes = [f"Ingest: {ingest_seconds:.1f} s{what}."]
    if query_ms:
        notes.append(
            f"Query latency: p50 {percentile(query_ms, 50):.1f} ms, p95 {percentile(query_ms, 95):.1f} ms "
            f"over {len(query_ms)} queries."
        )
    return tuple(notes)


def locomo_report(result: LocomoResult, command: str) -> ReportData:
    """Report data for a LoCoMo run."""
    notes = (
        f"{result.conversations} conversations; category 5 (adversarial) excluded; "
        f"{result.repaired_ids} evidence ids repaired, {result.dropped_ids} dropped, "
        f"{result.skipped_questions} questions skipped for lack of evidence.",
        *_timing_notes(result.ingest_seconds, result.query_ms, result.turns),
    )
    return ReportData(
        name="locomo",
        title="LoCoMo evidence retrieval",
        command=command,
        overall=result.overall,
        n=result.n,
        groups=result.per_category,
        group_n=result.per_category_n,
        chart_metrics=tuple(f"recall@{k}" for k in result.ks),
        notes=notes,
        floor=result.floor.to_json() if result.floor is not None and result.floor.unanswerable else None,
    )


def longmemeval_report(result: LmeResult, command: str) -> ReportData:
    """Report data for a LongMemEval run (session- and turn-level metrics flattened as 'level metric')."""

    def flat(levels: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
        return {f"{level} {name}": v for level, scores in levels.items() for name, v in scores.items()}

    notes = (
        f"{result.skipped_abstention} abstention questions not scored for recall (asked for the relevance floor), "
        f"{result.skipped_no_evidence} without evidence sessions skipped.",
        *_timing_notes(result.ingest_seconds, result.query_ms, result.turns),
    )
    return ReportData(
        name="longmemeval",
        title="LongMemEval retrieval",
        command=command,
        overall=flat({"session": result.session, "turn": result.turn}),
        n=result.n,
        group_label="question type",
        groups={name: flat(levels) for name, levels in result.per_type.items()},
        group_n=result.per_type_n,
        chart_metrics=tuple(f"session recall_any@{k}" for k in result.ks),
        notes=notes,
        floor=result.floor.to_json(label="abstention") if result.floor is not None else None,
        floor_label="abstention",
    )


def update_report(result: UpdateResult, command: str) -> ReportData:
    """Report data for a knowledge-update run (one group: all items)."""
    return ReportData(
        name="update",
        title="Knowledge update",
        command=command,
        overall=result.scores,
        n=result.n,
        group_label="set",
        groups={"all": result.scores},
        group_n={"all": result.n},
        chart_metrics=tuple(result.scores),
        notes=(
            f"Top-1 accuracy over the {result.answerable_n} items whose newer fact contains the answer: "
            "top1_accuracy_answerable.",
            "Supersessions made {supersessions_made}, called for {supersessions_called_for}, not called for "
            "{supersessions_not_called_for}: precision {supersession_precision:.3f}, recall "
            "{supersession_recall:.3f}.".format(**result.supersession),
            *_timing_notes(result.ingest_seconds, result.query_ms, None),
        ),
    )


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _chart(data: ReportData, path: Path) -> bool:
    """Draw grouped bars (one group per category); False when matplotlib is missing."""
    try:
        # Imported by name: matplotlib is the optional [plot] extra and must not load with the CLI.
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        return False
    groups = list(data.groups)
    metrics = list(data.chart_metrics)
    width = 0.8 / max(len(metrics), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(groups) + 3), 4.5))
    for offset, metric in enumerate(metrics):
        xs = [i + offset * width - 0.4 + width / 2 for i in range(len(groups))]
        ax.bar(xs, [data.groups[g].get(metric, 0.0) for g in groups], width, label=metric)
    labels = [f"{g}\n(n={data.group_n.get(g, 0)})" for g in groups]
    ax.set_xticks(range(len(groups)), labels, rotation=20, ha="right")
    ax.set_ylim(0, 1.0)
    ax.set_ylabel("score")
    ax.set_title(f"{data.title} by {data.group_label}")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


@dataclass(frozen=True, slots=True)
class ReportFiles:
    """What a report wrote: the Markdown file and the chart (None when matplotlib is missing)."""

    markdown: Path
    chart: Path | None


def write_report(data: ReportData, directory: Path) -> ReportFiles:
    """Write ``<name>.md`` and, when matplotlib is there, a bar chart PNG into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^a-z0-9]+", "-", data.name.lower()).strip("-") or "eval"
    chart_path = directory / f"{slug}-by-{re.sub(r'[^a-z0-9]+', '-', data.group_label)}.png"
    drawn = bool(data.groups and data.chart_metrics) and _chart(data, chart_path)
    metrics = list(data.overall)
    lines = [
        f"# {data.title}",
        "",
        f"Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} by `{data.command}`.",
        "",
        "## Overall",
        "",
        *_table(["n", *metrics], [[str(data.n), *(f"{data.overall[m]:.3f}" for m in metrics)]]),
        "",
    ]
    if data.groups:
        lines += [f"## By {data.group_label}", ""]
        rows = [
            [group, str(data.group_n.get(group, "")), *(_fmt(scores.get(m)) for m in metrics)]
            for group, scores in data.groups.items()
        ]
        lines += [*_table([data.group_label, "n", *metrics], rows), ""]
        lines += [f"![{data.title} by {data.group_label}]({chart_path.name})" if drawn else NO_PLOT, ""]
    if data.floor is not None:
        lines += floor_lines(data.floor, data.floor_label)
    if data.notes:
        lines += ["## Notes", "", *(f"- {note}" for note in data.notes), ""]
    path = directory / f"{slug}.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return ReportFiles(path, chart_path if drawn else None)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def floor_lines(block: Mapping[str, Any], label: str) -> list[str]:
    """The relevance floor section: the default floor's figures, then the curve as a table."""
    what = label.replace("_", "-")
    kept = next(key for key in block if key.endswith("_kept"))
    lines = [
        "## Relevance floor",
        "",
        f"At the default floor {block['floor']:.2f}: {block[f'{label}_empty_rate']:.3f} of {block[f'{label}_n']} "
        f"{what} questions come back empty; evidence {kept.removesuffix('_kept')} keeps {block[kept]:.3f} of its "
        f"value without a floor ({block['answerable_n']} answerable questions).",
        "",
    ]
    rows = [[f"{f:.2f}", f"{empty:.3f}", f"{k:.3f}"] for f, empty, k in curve_rows(block, label)]
    return [*lines, *_table(["floor", f"{what} empty rate", kept.replace("_", " ")], rows), ""]
